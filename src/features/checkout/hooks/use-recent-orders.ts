import { useMemo } from 'react'
import { recentOrders$ } from '../../../data/buyer-today'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { OrderDoc } from '../../../data/schemas/order.schema'

/** This device's latest orders (null until read): what they hold today counts toward the limits. */
export function useRecentOrders(): OrderDoc[] | null {
  const { db } = useHumoData()
  const orders$ = useMemo(() => recentOrders$(db), [db])
  return useObservable(orders$, null)
}
