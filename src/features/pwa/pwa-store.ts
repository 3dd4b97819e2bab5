import { proxy } from 'valtio'

/**
 * What the app shell knows about itself as an installed web app: whether a new deployment's
 * service worker is waiting, and whether the browser currently offers to install the app.
 */
export const pwaState = proxy({
  /** A new service worker has installed and waits for this page to let it take over. */
  updateWaiting: false,
  /** Reload was pressed: the page reloads as soon as the new service worker controls it. */
  updating: false,
  /** The browser has offered installation and the app is not already running installed. */
  installAvailable: false,
})

export type PwaState = typeof pwaState
