import { Workbox } from 'workbox-window'
import { pwaState } from './pwa-store'

/** How often an open app asks the server for a new deployment. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000
/** A tab brought back to the front checks again, but not more often than this. */
const MIN_CHECK_GAP_MS = 60 * 1000

let workbox: Workbox | null = null
let registration: ServiceWorkerRegistration | undefined

/**
 * Registers the service worker of the production build (sw/sw.ts), which precaches the app shell
 * so the shop opens offline. Development builds have none. A new deployment's worker waits until
 * the user presses Reload in the update prompt, so a page never runs on a shell that changed
 * underneath it.
 */
export function registerServiceWorker(): Workbox | null {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return null
  if (workbox) return workbox
  const wb = new Workbox('/sw.js', { scope: '/' })
  workbox = wb
  // Fires for a worker found by this page's checks, by the browser's own check on navigation
  // and for one that was already waiting when the page loaded.
  wb.addEventListener('waiting', () => {
    pwaState.updateWaiting = true
  })
  wb.addEventListener('controlling', () => {
    if (pwaState.updating) window.location.reload()
  })
  wb.register().then(
    (reg) => {
      if (!reg) return
      registration = reg
      // workbox-window misses a worker whose install began before register() (the browser's own
      // check on navigation), as it only sees 'updatefound' from then on.
      const installing = reg.installing
      if (installing && navigator.serviceWorker.controller) {
        installing.addEventListener('statechange', () => {
          if (installing.state === 'installed' && reg.waiting === installing) {
            pwaState.updateWaiting = true
          }
        })
      }
      watchForUpdates(wb)
    },
    (error: unknown) => console.warn('Service worker registration failed', error),
  )
  return wb
}

function watchForUpdates(wb: Workbox): void {
  let lastCheck = Date.now()
  const check = () => {
    if (!navigator.onLine) return
    lastCheck = Date.now()
    // Offline or a server hiccup: the next check tries again.
    wb.update().catch(() => undefined)
  }
  setInterval(check, UPDATE_CHECK_INTERVAL_MS)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastCheck > MIN_CHECK_GAP_MS) check()
  })
}

/**
 * Lets the waiting service worker take over, then reloads once it controls the page. Nothing is
 * lost: the cart, the checkout draft and the outbox live in RxDB.
 */
export function applyUpdate(): void {
  if (!workbox || pwaState.updating) return
  pwaState.updating = true
  // Another tab may already have switched to the new worker; this page then only needs a reload.
  if (!registration?.waiting) {
    window.location.reload()
    return
  }
  workbox.messageSkipWaiting()
}
