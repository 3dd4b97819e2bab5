import { useCallback, useEffect, useState } from 'react'
import { DEVICE_KEYS, readDevice, writeDevice } from '../../../lib/device-storage'

export type Theme = 'light' | 'dark'

const systemTheme = (): Theme =>
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'

/** The stored choice, else the system's (SPEC.md §3 "Theme preference"). */
export function currentTheme(): Theme {
  const stored = readDevice(DEVICE_KEYS.theme)
  return stored === 'dark' || stored === 'light' ? stored : systemTheme()
}

/**
 * Writes only what differs: index.html has applied the theme before the first paint, and any
 * write on <html> makes the browser recompute the style of the whole page.
 */
export function applyTheme(theme: Theme): void {
  const html = document.documentElement
  if (html.classList.contains('dark') !== (theme === 'dark')) html.classList.toggle('dark')
  if (html.getAttribute('data-theme') !== theme) html.setAttribute('data-theme', theme)
  if (html.style.colorScheme !== theme) html.style.colorScheme = theme
}

/** The storefront's light/dark theme; a choice is remembered on the device. */
export function useTheme(): { theme: Theme; toggle: () => void } {
  const [theme, setTheme] = useState<Theme>(currentTheme)
  useEffect(() => applyTheme(theme), [theme])
  useEffect(() => {
    // Follow the system while the shopper has not chosen.
    const query = globalThis.matchMedia?.('(prefers-color-scheme: dark)')
    const follow = () => {
      if (!readDevice(DEVICE_KEYS.theme)) setTheme(systemTheme())
    }
    query?.addEventListener('change', follow)
    return () => query?.removeEventListener('change', follow)
  }, [])
  const toggle = useCallback(() => {
    setTheme((t) => {
      const next = t === 'dark' ? 'light' : 'dark'
      writeDevice(DEVICE_KEYS.theme, next)
      return next
    })
  }, [])
  return { theme, toggle }
}
