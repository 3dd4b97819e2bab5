import { whenSettled } from '../../lib/when-settled'
import type * as Registration from './register-service-worker'

// The service worker is registered once the page has settled: loaded, its first catalogue sync
// done, and the main thread idle. Its install downloads and stores the whole precache on a
// thread of the page's own process; begun at `load`, it ran beside the first sync and the swap
// from the server's copy and stretched their tasks (see docs/decisions/012-service-worker-after-first-sync.md). workbox-window comes with
// it as a dynamic import instead of with the page's scripts.
let registration: Promise<typeof Registration> | undefined
const loadRegistration = () => (registration ??= import('./register-service-worker'))

/** Whether this build registers a service worker here (production builds, capable browsers). */
export function serviceWorkerEnabled(): boolean {
  return import.meta.env.PROD && 'serviceWorker' in navigator
}

/**
 * Registers the service worker after the window's `load` event, once `settled` (the first
 * catalogue sync, finished or failed; at most 10 s) and the main thread is idle.
 */
export function startServiceWorker(settled: Promise<void>): void {
  if (!serviceWorkerEnabled()) return
  whenSettled(settled)
    .then(loadRegistration)
    .then(
      (module) => module.registerServiceWorker(),
      (error: unknown) => console.warn('Service worker registration failed', error),
    )
}

/** See registerServiceWorker's applyUpdate; the prompt only shows once it has loaded. */
export function applyUpdate(): void {
  void loadRegistration().then((module) => module.applyUpdate())
}
