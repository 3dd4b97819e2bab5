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

export function applyTheme(theme: Theme): void {
  const html = document.documentElement
  html.classList.toggle('dark', theme === 'dark')
  html.setAttribute('data-theme', theme)
  html.style.colorScheme = theme
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
