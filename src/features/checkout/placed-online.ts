/**
 * Orders placed online in this page's life. The confirmation page announces their acceptance
 * with SPEC.md's success toast (once, and only once the shop has accepted them: decision 020);
 * every other order that waited on the device is announced as "reached the shop" when it goes
 * (order-arrival-toasts.tsx, decision 058). Apart from checkout.actions.ts so that the app's
 * shell can ask without loading the checkout's code.
 */
const toAnnounce = new Set<string>()
const placedOnline = new Set<string>()

export function announceWhenAccepted(orderId: string): void {
  toAnnounce.add(orderId)
  placedOnline.add(orderId)
}

/** True once for an order placed here that the shop has now accepted. */
export function takeAcceptedAnnouncement(orderId: string): boolean {
  return toAnnounce.delete(orderId)
}

/** The success toast speaks for this order: no second toast when it reaches the shop. */
export function wasPlacedOnline(orderId: string): boolean {
  return placedOnline.has(orderId)
}
