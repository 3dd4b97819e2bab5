import { useEffect } from 'react'
import { useHumoData } from '../../../data/data-context'
import { orderNumber } from '../../../lib/order-status'
import { toaster } from '../../../ui/toaster'
import { wasPlacedOnline } from '../placed-online'

/** The words of the toast (and of the order page's notice) when a waiting order goes. */
export const reachedShopText = (orderId: string) => `Order ${orderNumber(orderId)} reached the shop`

/**
 * Tells the shopper, wherever they are in the app, when an order that waited on this device
 * reaches the shop: "Order #59F685EA reached the shop" (decision 058). It watches the same query
 * as the sync banner's count (the device's queued and sending orders); an order that leaves it
 * accepted has been received. Any tab says so, not only the one that sent it. An order placed
 * online is announced by the confirmation's success toast instead.
 */
export function OrderArrivalToasts() {
  const { db } = useHumoData()
  useEffect(() => {
    let waiting = new Set<string>()
    const subscription = db.orders
      .find({ selector: { sync: { $in: ['queued', 'sending'] } } })
      .$.subscribe((docs) => {
        const still = new Set(docs.map((doc) => doc.id))
        const gone = [...waiting].filter((id) => !still.has(id) && !wasPlacedOnline(id))
        waiting = still
        if (gone.length === 0) return
        void db.orders
          .findByIds(gone)
          .exec()
          .then((sent) => {
            for (const doc of sent.values())
              if (doc.sync === 'accepted')
                toaster.create({
                  type: 'success',
                  title: reachedShopText(doc.id),
                  description: 'Its status now shows on its page as the shop moves it.',
                })
          })
      })
    return () => subscription.unsubscribe()
  }, [db])
  return null
}
