/**
 * Tells the shopper, wherever they are in the app, when an order that waited on this device
 * reaches the shop: the toast "Order #59F685EA reached the shop" (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md). It watches the
 * query the sync banner counts (the device's queued and sending orders); an order that leaves it
 * accepted has been received. Every tab says so, not only the one that sent it. Only an order
 * that waited (its first send failed: offline, the server away) is announced so; one that went
 * at the first try is announced by the confirmation's success toast ("Order placed
 * successfully!").
 * Started, once per page, by the screens that show a waiting order (the confirmation after
 * Place Order, the order's page), never with a first visit's code; an order left waiting by an
 * earlier visit and never opened is told by the sync banner ("Sending 1 order to the shop…").
 */
import type { HumoDatabase } from '../../data/database'
import { orderNumber } from '../../lib/order-status'
import { toaster } from '../../ui/toaster'

const watched = new WeakSet<HumoDatabase>()

export function watchOrderArrivals(db: HumoDatabase): void {
  if (watched.has(db)) return
  watched.add(db)
  let waiting = new Set<string>()
  db.orders.find({ selector: { sync: { $in: ['queued', 'sending'] } } }).$.subscribe((docs) => {
    const still = new Set(docs.map((doc) => doc.id))
    const gone = [...waiting].filter((id) => !still.has(id))
    waiting = still
    if (gone.length === 0) return
    void db.orders
      .findByIds(gone)
      .exec()
      .then((sent) => {
        for (const doc of sent.values())
          if (doc.sync === 'accepted' && doc.attempts > 0)
            toaster.create({
              type: 'success',
              title: `Order ${orderNumber(doc.id)} reached the shop`,
              description: 'Its page now shows each step as the shop moves it.',
            })
      })
  })
}
