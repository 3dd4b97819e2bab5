import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { OrderDoc } from '../../../data/schemas/order.schema'

/** One of this device's orders, live (undefined while loading, null when not on the device). */
export function useDeviceOrder(id: string): OrderDoc | null | undefined {
  const { db } = useHumoData()
  const order$ = useMemo(
    () => db.orders.findOne(id).$.pipe(map((doc) => (doc ? (doc.toJSON() as OrderDoc) : null))),
    [db, id],
  )
  return useObservable(order$, undefined)
}
