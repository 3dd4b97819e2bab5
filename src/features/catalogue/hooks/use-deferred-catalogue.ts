import { useDeferredValue, useMemo } from 'react'
import { hiddenStart } from '../../../lib/splash-hold'
import { useFirstSync, type FirstSyncState } from './use-first-sync'

/**
 * A live catalogue read and the first-sync state, shown together from one deferred value. Both
 * reach React as transitions (useObservable), but from two observables, so they may commit
 * apart: the sync state alone could be shown first, and a page would say "no products" (sync
 * done, cards still rendering) before its cards arrived. One deferred value keeps them in step,
 * and renders a first visit's cards in slices. Not under the start-up splash (or a copy the device
 * kept, docs/decisions/013-starts-from-a-kept-copy.md): there the deferred
 * render kept being restarted and held the splash to its limit (a cold offline start's page
 * ready went from ~900 to ~1,650 ms).
 */
export function useDeferredCatalogue<T>(live: T): { value: T; sync: FirstSyncState } {
  const { done, error } = useFirstSync()
  const current = useMemo(() => ({ value: live, sync: { done, error } }), [live, done, error])
  const deferred = useDeferredValue(current)
  return hiddenStart() ? current : deferred
}
