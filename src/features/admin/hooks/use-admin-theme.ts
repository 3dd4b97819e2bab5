import { useCallback, useEffect, useState } from 'react'

const THEME_KEY = 'humo.admin-theme'
type Theme = 'dark' | 'light'

/**
 * The back office is dark by default (SPEC.md §2: forced dark); its toggle is remembered on the
 * device. Applied to <html> so dialogs, menus and toasts (portals) follow it; the storefront's
 * own theme comes back when the admin closes.
 */
export function useAdminTheme() {
  const [theme, setTheme] = useState<Theme>(() =>
    localStorage.getItem(THEME_KEY) === 'light' ? 'light' : 'dark',
  )
  useEffect(() => {
    const html = document.documentElement
    const hadDark = html.classList.contains('dark')
    const previous = html.getAttribute('data-theme')
    html.classList.toggle('dark', theme === 'dark')
    html.setAttribute('data-theme', theme)
    html.style.colorScheme = theme
    return () => {
      html.classList.toggle('dark', hadDark)
      if (previous === null) html.removeAttribute('data-theme')
      else html.setAttribute('data-theme', previous)
      html.style.colorScheme = ''
    }
  }, [theme])
  const toggle = useCallback(() => {
    setTheme((t) => {
      const next = t === 'dark' ? 'light' : 'dark'
      localStorage.setItem(THEME_KEY, next)
      return next
    })
  }, [])
  return { theme, toggle }
}
