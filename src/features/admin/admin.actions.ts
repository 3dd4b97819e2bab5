/**
 * The only writes to the device database for the admin domain. A status change is a patch of the
 * order's `status` on the device: it shows at once, works offline, and the admin order
 * replication pushes it (compare-and-set) when the connection allows.
 */
import { clearAdminData, type HumoDatabase } from '../../data/database'
import type { AdminOrderDoc } from '../../data/schemas/admin-order.schema'

export type OrderStatus = AdminOrderDoc['status']

/** Moves an order to another status. Returns false when there is nothing to do. */
export async function moveOrder(db: HumoDatabase, orderId: string, to: OrderStatus) {
  const doc = await db.admin_orders.findOne(orderId).exec()
  if (!doc || doc.status === to) return false
  await doc.incrementalPatch({ status: to, updatedAt: new Date().toISOString() })
  return true
}

export async function dismissNotice(db: HumoDatabase, noticeId: string) {
  const doc = await db.order_notices.findOne(noticeId).exec()
  if (doc) await doc.incrementalPatch({ dismissed: true })
}

/** Signing out: orders and notices (customer data) leave the device. */
export async function removeAdminData(db: HumoDatabase) {
  await clearAdminData(db)
}
