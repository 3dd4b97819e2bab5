import { startTransition, useEffect, useState } from 'react'
import type { Observable } from 'rxjs'
import { serverRender } from '../../lib/server-render'
import { hiddenStart } from '../../lib/splash-hold'

/**
 * Subscribes a component to an observable. RxDB queries (`query.$`) and the sync state are
 * observables; this is the only bridge from them to React.
 *
 * A value the observable has at once (a BehaviorSubject, on subscribing) is shown at once. A
 * later value (a query's answer, a sync that brought rows) renders as a transition: React renders
 * it in slices of a few milliseconds and shows it when whole. Behind the start-up splash, where
 * nothing can be tapped and the start is waited on, every value is shown at once (slices made a
 * cold start from the device ~250 ms slower). NOTE: not useSyncExternalStore, whose every update
 * renders synchronously: a first catalogue arriving re-rendered the menu in one 20–40 ms task
 * (four times that on a slow phone), during which taps waited. Decision 011.
 */
export function useObservable<T>(observable: Observable<T>, initial: T): T {
  const [value, setValue] = useState<T>(() =>
    serverRender() ? readNow(observable, initial) : initial,
  )
  useEffect(() => {
    let subscribing = true
    const sub = observable.subscribe((next) => {
      if (subscribing || hiddenStart()) setValue(() => next)
      else startTransition(() => setValue(() => next))
    })
    subscribing = false
    return () => sub.unsubscribe()
  }, [observable])
  return value
}

/**
 * Only a server render asks this (the client never hydrates: src/main.tsx renders afresh). Its
 * one pass runs no effects, so it takes what the observable has at once: the snapshot's answers
 * (src/data/snapshot-data.ts), the sync state.
 */
function readNow<T>(observable: Observable<T>, initial: T): T {
  let value = initial
  observable.subscribe((next) => (value = next)).unsubscribe()
  return value
}
