import { useSyncExternalStore, useRef, useCallback } from 'react'
import type { Observable } from 'rxjs'

/**
 * Subscribes a component to an observable. RxDB queries (`query.$`) and the sync state are
 * observables; this is the only bridge from them to React.
 */
export function useObservable<T>(observable: Observable<T>, initial: T): T {
  const value = useRef<T>(initial)
  const subscribe = useCallback(
    (onChange: () => void) => {
      const sub = observable.subscribe((next) => {
        value.current = next
        onChange()
      })
      return () => sub.unsubscribe()
    },
    [observable],
  )
  return useSyncExternalStore(subscribe, () => value.current, serverSnapshot)

  // Only a server render asks this (the client never hydrates: src/main.tsx renders afresh).
  // Its one pass subscribes to nothing, so it takes what the observable has at once: the
  // snapshot's answers (src/data/snapshot-data.ts), the sync state.
  function serverSnapshot(): T {
    observable.subscribe((next) => (value.current = next)).unsubscribe()
    return value.current
  }
}
