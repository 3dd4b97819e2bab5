import { useEffect } from 'react'
import { COPY_ID, SPLASH_ID } from './shell-markup'
import { serverRender } from './server-render'

/**
 * Lets a page keep SPEC.md's start-up splash up while it reads its first data from the device
 * database, so the splash leaves onto the page's content rather than onto skeletons that fill a
 * moment later. Holds only matter during the start (BootSplash), and never keep the splash past
 * HOLD_LIMIT_MS from navigation start: a slow device then shows the page's own loading state.
 *
 * A first visit through the network may start with the server's copy of the page
 * (COPY_ID, docs/decisions/010-server-copy-of-catalogue-pages.md): then the app's own page replaces it only once it has its content
 * too, device read and first sync (a page showing skeletons holds it), or at PRERENDER_LIMIT_MS.
 */
export const HOLD_LIMIT_MS = 2000

/** How long the server's copy may stand in for a page still waiting for its first sync. */
export const PRERENDER_LIMIT_MS = 15_000

/**
 * True while the start is on: index.html's splash is still up, or the server's copy of the page
 * stands in for the app's. Pages use it to render only what the first screen shows meanwhile (see
 * afterStartUp). A server render is the whole page, after the start.
 */
export function startingUp(): boolean {
  return splashUp() || prerendered()
}

/** True while index.html's splash is up (with a server copy, the start may go on without it). */
function splashUp(): boolean {
  return !serverRender() && document.getElementById(SPLASH_ID) !== null
}

/**
 * True while the app's page renders hidden and is waited on: behind index.html's splash. Updates
 * then render at once, in as few tasks as they can. Behind a copy of the page once the splash is
 * gone (a first visit's from the network, or one this device kept), they render in slices
 * instead, so a phone's taps are not held up (docs/decisions/011-data-updates-render-as-transitions.md and docs/decisions/013-starts-from-a-kept-copy.md).
 */
export function hiddenStart(): boolean {
  return splashUp()
}

/** True when the server's copy of the page shows (or lies under the splash) at this start. */
export function prerendered(): boolean {
  return !serverRender() && document.getElementById(COPY_ID) !== null
}

const startUpListeners = new Set<() => void>()

/**
 * Runs `listener` once the start is over (at once if it is), so work that can wait (the rows
 * below the first screen) does not delay the page's reveal. Returns a cancel function.
 */
export function afterStartUp(listener: () => void): () => void {
  if (!startingUp()) {
    listener()
    return () => undefined
  }
  startUpListeners.add(listener)
  return () => startUpListeners.delete(listener)
}

/** BootSplash calls this when it has taken the splash (and the server's copy) away. */
export function startUpDone(): void {
  const listeners = [...startUpListeners]
  startUpListeners.clear()
  for (const listener of listeners) listener()
}

/** Pages reading the device for the first time. */
let reads = 0
/** Pages showing skeletons until the first sync (a server copy waits for them too). */
let skeletons = 0
const listeners = new Set<() => void>()

export function splashHeld(): boolean {
  return reads > 0
}

/** Whether a page is not ready to replace the server's copy. */
export function prerenderHeld(): boolean {
  return reads + skeletons > 0
}

export function onSplashHoldsChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function change(kind: 'read' | 'skeleton', by: number) {
  if (kind === 'read') reads += by
  else skeletons += by
  for (const listener of listeners) listener()
}

/**
 * While `loading` is true, the start-up splash (if it still shows) waits for this page; while
 * `skeleton` is true (the page waits for the first sync), the server's copy of it does.
 */
export function useSplashHold(loading: boolean, skeleton = false): void {
  useEffect(() => {
    if (!loading) return
    change('read', 1)
    return () => change('read', -1)
  }, [loading])
  useEffect(() => {
    if (!skeleton) return
    change('skeleton', 1)
    return () => change('skeleton', -1)
  }, [skeleton])
}
