import { useEffect, useState } from 'react'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'

export type FirstSyncState = {
  /** The first pull of this page load has finished (or failed). */
  done: boolean
  /** The last sync error, if the backend could not be reached. */
  error: string | null
}

/** For screens that show skeletons until the catalogue has synced once. */
export function useFirstSync(): FirstSyncState {
  const { firstSync, sync$ } = useHumoData()
  const [done, setDone] = useState(false)
  const sync = useObservable(sync$, sync$.value)
  useEffect(() => {
    let live = true
    void firstSync.then(() => live && setDone(true))
    return () => {
      live = false
    }
  }, [firstSync])
  return { done: done || sync.lastSyncedAt !== null, error: sync.error }
}
