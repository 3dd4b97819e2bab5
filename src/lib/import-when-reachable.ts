/**
 * Code fetched on first use (a toast, a dialog, a tooltip) can be asked for while the device is
 * offline and before the service worker holds it: on a first visit, or a tab opened just before
 * the signal went. A failed `import()` handed to React.lazy takes the whole page down to the
 * router's error screen, so such imports wait for the connection and try again instead; the
 * part that asked stays absent (its Suspense fallback) meanwhile, and the rest of the page works.
 * Chromium (150) keeps a failed module fetch as failed for the page's life, so there the retry
 * fails too and the part stays absent until the next page load; code a first tap needs is
 * therefore fetched ahead, once the page has settled (warmToaster in src/ui/toaster.tsx).
 */

/** After a failure: the next try comes on the `online` event, or after this at the latest. */
const FIRST_RETRY_MS = 2000
const LAST_RETRY_MS = 60_000

function connectionBackOrAfter(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      window.removeEventListener('online', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    window.addEventListener('online', done)
  })
}

/**
 * `importer`, fetched once and shared; a failure is retried when the connection comes back (or
 * after 2 s, doubling up to a minute, for a server that answered badly), so the promise only
 * ever resolves.
 */
export function importWhenReachable<M>(importer: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | undefined
  const attempt = (wait: number): Promise<M> =>
    importer().catch((error: unknown) => {
      console.warn('Fetching code failed; trying again when the connection is back', error)
      return connectionBackOrAfter(wait).then(() => attempt(Math.min(wait * 2, LAST_RETRY_MS)))
    })
  return () => (loading ??= attempt(FIRST_RETRY_MS))
}
