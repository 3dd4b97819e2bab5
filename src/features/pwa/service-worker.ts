import type * as Registration from './register-service-worker'

// The service worker is registered once the page has loaded (the usual practice: its install
// downloads the whole precache, which must not compete with the page's own requests), and
// workbox-window comes with it as a dynamic import instead of with the page's scripts.
let registration: Promise<typeof Registration> | undefined
const loadRegistration = () => (registration ??= import('./register-service-worker'))

/** Whether this build registers a service worker here (production builds, capable browsers). */
export function serviceWorkerEnabled(): boolean {
  return import.meta.env.PROD && 'serviceWorker' in navigator
}

/** Registers the service worker after the window's `load` event. */
export function startServiceWorker(): void {
  if (!serviceWorkerEnabled()) return
  const register = () => {
    loadRegistration().then(
      (module) => module.registerServiceWorker(),
      (error: unknown) => console.warn('Service worker registration failed', error),
    )
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}

/** See registerServiceWorker's applyUpdate; the prompt only shows once it has loaded. */
export function applyUpdate(): void {
  void loadRegistration().then((module) => module.applyUpdate())
}
