/**
 * Work that can wait until the page has settled (the service worker's registration, code fetched
 * ahead of the first tap that needs it) starts after the window's `load` event, once `settled`
 * (the first catalogue sync, finished or failed; at most 10 s) and when the main thread is idle:
 * begun earlier, it ran beside the first sync and the swap from the server's copy and stretched
 * their tasks (docs/decisions/012-service-worker-after-first-sync.md).
 */

/** However busy the page stays, the work waits no longer than this once it has settled. */
const IDLE_TIMEOUT_MS = 2000
/** A sync that never ends (a tab that is not the leader on a fresh device) holds it no longer. */
const SETTLE_TIMEOUT_MS = 10_000

const loaded = () =>
  new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve()
    else window.addEventListener('load', () => resolve(), { once: true })
  })

const idle = () =>
  new Promise<void>((resolve) => {
    if ('requestIdleCallback' in window)
      requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS })
    else setTimeout(resolve, 0)
  })

export function whenSettled(settled: Promise<void>): Promise<void> {
  const settledOrLate = Promise.race([
    settled,
    new Promise<void>((resolve) => setTimeout(resolve, SETTLE_TIMEOUT_MS)),
  ])
  return Promise.all([loaded(), settledOrLate]).then(idle)
}
