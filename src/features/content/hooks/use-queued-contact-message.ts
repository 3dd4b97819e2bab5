import { useMemo } from 'react'
import { map, of } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { heldBackText } from '../../../data/outbox/held-back-text'

/**
 * What the contact form says about a message it queued while the server holds it back with a
 * rate limit (docs/decisions/026-rate-limits-and-unaccepted-orders.md): the server's reason and when the outbox sends it by itself. Null
 * while nothing holds it back (sent, on its way, or waiting for a connection).
 */
export function useRateLimitedContactText(id: string | null): string | null {
  const { db } = useHumoData()
  const text$ = useMemo(
    () =>
      id
        ? db.contact_messages
            .findOne(id)
            .$.pipe(map((doc) => (doc ? heldBackText('message', doc) : null)))
        : of(null),
    [db, id],
  )
  return useObservable(text$, null)
}
