/**
 * The order board's writes to the device database. A status change is a patch of the order's
 * `status` on the device: it shows at once, works offline, and the admin order replication
 * pushes it (compare-and-set) when the connection allows. A handoff (to `delivered`) carries the
 * ID check staff confirmed (docs/decisions/018-order-after-checkout.md), which the push sends as `p_id_checked`; a
 * delivery going out carries its driver, a cancel its reason, a delivery's handoff the customer's
 * signature (docs/decisions/055-delivery-by-the-rules.md).
 */
import type { HumoDatabase } from '../../../data/database'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { needsDriver, needsIdCheck } from '../../../lib/order-status'

export type OrderStatus = AdminOrderDoc['status']

/** What a move made on this device carries besides the status (docs/decisions/018-order-after-checkout.md, docs/decisions/051-california-taxes-and-daily-limits.md, docs/decisions/055-delivery-by-the-rules.md). */
export type MoveOptions = {
  idChecked?: boolean
  idNumber?: string
  mmicChecked?: boolean
  /** "Out for delivery": the driver who takes it (their id, and their name for the card). */
  driver?: { id: string; firstName: string | null; employeeNumber: number | null }
  /** "Cancelled": why, which the shopper reads. */
  reason?: string
  /** A delivery's handoff: the customer's signature on the receipt (a PNG data URL). */
  signature?: string
}

/**
 * Moves an order to another status. Returns false when there is nothing to do, or when a move
 * comes without what it needs: a handoff without the ID check, a cancel without a reason, a
 * delivery going out without its driver (the board asks for them first).
 */
export async function moveOrder(
  db: HumoDatabase,
  orderId: string,
  to: OrderStatus,
  options: MoveOptions = {},
): Promise<boolean> {
  const doc = await db.admin_orders.findOne(orderId).exec()
  if (!doc || doc.status === to) return false
  const handoff = needsIdCheck(to)
  const reason = options.reason?.trim() ?? ''
  if (handoff && options.idChecked !== true) return false
  if (to === 'cancelled' && !reason) return false
  if (needsDriver(doc.fulfilment, to) && !options.driver) return false
  const now = new Date().toISOString()
  await doc.incrementalPatch({
    status: to,
    idChecked: handoff,
    // Only until the push: the server keeps a keyed hash of it, the pulled state carries none.
    idNumber: handoff ? (options.idNumber?.trim() ?? null) : null,
    mmicChecked: handoff && options.mmicChecked === true,
    driverId: options.driver?.id ?? null,
    ...(options.driver ? { driver: options.driver } : {}),
    cancelReason: to === 'cancelled' ? reason : null,
    signature: handoff ? (options.signature ?? null) : null,
    // The time the handoff happened, which the server judges by when the phone was offline.
    handedAt: handoff ? now : null,
    refusal: null,
    updatedAt: now,
  })
  return true
}

export async function dismissNotice(db: HumoDatabase, noticeId: string) {
  const doc = await db.order_notices.findOne(noticeId).exec()
  if (doc) await doc.incrementalPatch({ dismissed: true })
}
