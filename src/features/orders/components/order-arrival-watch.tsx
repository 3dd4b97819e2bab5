import { useEffect } from 'react'
import { useHumoData } from '../../../data/data-context'
import { watchOrderArrivals } from '../order-arrivals'

/**
 * Starts the watch for this device's orders reaching the shop (order-arrivals.ts), which then
 * lasts the page's life: the toast shows wherever the shopper has gone meanwhile.
 */
export function OrderArrivalWatch() {
  const { db } = useHumoData()
  useEffect(() => watchOrderArrivals(db), [db])
  return null
}
