/**
 * The bridge from an RxDB query to a screen: its live results, with the first read of the device
 * started at once (while the page renders) rather than when React subscribes after its commit.
 */
import type { Observable } from 'rxjs'

export function liveResults<T>(query: {
  exec(): Promise<unknown>
  $: Observable<T>
}): Observable<T> {
  query.exec().catch(() => undefined) // a failure reaches the subscriber through query.$
  return query.$
}
