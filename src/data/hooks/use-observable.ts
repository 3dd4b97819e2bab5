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
  return useSyncExternalStore(
    subscribe,
    () => value.current,
    () => value.current,
  )
}
