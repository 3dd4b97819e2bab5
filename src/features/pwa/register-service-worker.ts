import { Workbox } from 'workbox-window'

/**
 * Registers the service worker of the production build (sw/sw.ts), which precaches the app shell
 * so the shop opens offline. Development builds have none.
 */
export function registerServiceWorker(): Workbox | null {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return null
  const wb = new Workbox('/sw.js', { scope: '/' })
  void wb.register()
  return wb
}
