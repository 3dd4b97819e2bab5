/**
 * The order board's writes to the device database. A status change is a patch of the order's
 * `status` on the device: it shows at once, works offline, and the admin order replication
 * pushes it (compare-and-set) when the connection allows. A handoff (to `delivered`) carries the
 * ID check staff confirmed (docs/decisions/018), which the push sends as `p_id_checked`.
 */
import type { HumoDatabase } from '../../../data/database'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { needsIdCheck } from '../../../lib/order-status'

export type OrderStatus = AdminOrderDoc['status']

/**
 * Moves an order to another status. Returns false when there is nothing to do, or when a handoff
 * comes without the ID check (the board asks for it first).
 */
export async function moveOrder(
  db: HumoDatabase,
  orderId: string,
  to: OrderStatus,
  options: { idChecked?: boolean; idNumber?: string; mmicChecked?: boolean } = {},
): Promise<boolean> {
  const doc = await db.admin_orders.findOne(orderId).exec()
  if (!doc || doc.status === to) return false
  const handoff = needsIdCheck(to)
  if (handoff && options.idChecked !== true) return false
  await doc.incrementalPatch({
    status: to,
    idChecked: handoff,
    // Only until the push: the server keeps a keyed hash of it, the pulled state carries none.
    idNumber: handoff ? (options.idNumber?.trim() ?? null) : null,
    mmicChecked: handoff && options.mmicChecked === true,
    refusal: null,
    updatedAt: new Date().toISOString(),
  })
  return true
}

export async function dismissNotice(db: HumoDatabase, noticeId: string) {
  const doc = await db.order_notices.findOne(noticeId).exec()
  if (doc) await doc.incrementalPatch({ dismissed: true })
}
