import { useEffect } from 'react'

/**
 * Lets a page keep SPEC.md's start-up splash up while it reads its first data from the device
 * database, so the splash leaves onto the page's content rather than onto skeletons that fill a
 * moment later. Holds only matter during the start (BootSplash), and never keep the splash past
 * HOLD_LIMIT_MS from navigation start: a slow device then shows the page's own loading state.
 */
export const HOLD_LIMIT_MS = 2000

/**
 * True while index.html's start-up splash is still up (BootSplash removes it). Pages use it to
 * render only what the first screen shows while the count runs (see afterStartUp).
 */
export function startingUp(): boolean {
  return document.getElementById('boot-splash') !== null
}

const startUpListeners = new Set<() => void>()

/**
 * Runs `listener` once the start-up splash is gone (at once if it is), so work that can wait
 * (the rows below the first screen) does not delay the splash's exit. Returns a cancel function.
 */
export function afterStartUp(listener: () => void): () => void {
  if (!startingUp()) {
    listener()
    return () => undefined
  }
  startUpListeners.add(listener)
  return () => startUpListeners.delete(listener)
}

/** BootSplash calls this when it has taken the splash away. */
export function startUpDone(): void {
  const listeners = [...startUpListeners]
  startUpListeners.clear()
  for (const listener of listeners) listener()
}

let holds = 0
const listeners = new Set<() => void>()

export function splashHeld(): boolean {
  return holds > 0
}

export function onSplashHoldsChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function change(by: number) {
  holds += by
  for (const listener of listeners) listener()
}

/** While `loading` is true, the start-up splash (if it still shows) waits for this page. */
export function useSplashHold(loading: boolean): void {
  useEffect(() => {
    if (!loading) return
    change(1)
    return () => change(-1)
  }, [loading])
}
