import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { liveResults } from '../../../data/live-query'
import type { OrderDoc } from '../../../data/schemas/order.schema'

/**
 * The orders placed on this device, newest first, live: the outbox, get_orders and the orders'
 * realtime channels update the documents, and the list follows. `undefined` until read.
 */
export function useDeviceOrders(): OrderDoc[] | undefined {
  const { db } = useHumoData()
  const orders$ = useMemo(() => {
    const query = db.orders.find({ sort: [{ createdAt: 'desc' }] })
    return liveResults(query).pipe(map((docs) => docs.map((d) => d.toJSON() as OrderDoc)))
  }, [db])
  return useObservable<OrderDoc[] | undefined>(orders$, undefined)
}
