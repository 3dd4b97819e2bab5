/**
 * The admin orders' conflict rule (docs/decisions/004-order-status-conflicts.md): the first change to reach the server
 * wins. When a colleague moved the order first, the server refuses ours and returns its state; the
 * device takes the server's state and records a notice telling this person what happened — so no
 * status change is lost silently. Apart from the replication (admin-orders-replication.ts) because
 * the database needs it when it opens, on every device, and the replication only on the admin's.
 *
 * A move the server refused for its own reason (a handoff without the ID check, docs/decisions/018-order-after-checkout.md)
 * arrives with the server's words in `refusal`: the notice gives them instead of blaming a
 * colleague. Statuses are named in the order's own words (src/lib/order-status.ts).
 */
import type { RxConflictHandler, WithDeleted } from 'rxdb'
import type { AdminOrderDoc } from '../schemas/admin-order.schema'
import type { OrderNoticeDoc } from '../schemas/order-notice.schema'
import { orderNumber, orderStatusLabel } from '../../lib/order-status'

/** The notice for the person whose change lost. */
export function lostChangeNotice(
  mine: WithDeleted<AdminOrderDoc>,
  seen: WithDeleted<AdminOrderDoc> | undefined,
  server: WithDeleted<AdminOrderDoc>,
  now = new Date(),
): OrderNoticeDoc {
  const last = server.statusHistory.at(-1)
  const who = last?.by ? ` by ${last.by}` : ''
  const from = seen?.status ?? server.status
  const label = (status: string) => orderStatusLabel(status, server.fulfilment)
  const number = orderNumber(mine.id)
  return {
    id: `${mine.id}:${now.getTime()}`,
    orderId: mine.id,
    attemptedFrom: from,
    attemptedTo: mine.status,
    actualStatus: server.status,
    changedBy: server.refusal ? null : (last?.by ?? null),
    changedAt: server.refusal ? null : (last?.at ?? null),
    message: server.refusal
      ? `Order ${number} was not moved to ${label(mine.status)}: ${server.refusal}`
      : `Your move of order ${number} from ${label(from)} to ${label(mine.status)} ` +
        `was not applied: it had already been moved to ${label(server.status)}${who}.`,
    createdAt: now.toISOString(),
    dismissed: false,
  }
}

export function createAdminOrderConflictHandler(
  record: (notice: OrderNoticeDoc) => Promise<unknown>,
): RxConflictHandler<AdminOrderDoc> {
  return {
    isEqual: (a, b) =>
      a.status === b.status && a.serverModified === b.serverModified && a._deleted === b._deleted,
    resolve: async ({ newDocumentState, assumedMasterState, realMasterState }) => {
      if (newDocumentState.status !== realMasterState.status) {
        await record(lostChangeNotice(newDocumentState, assumedMasterState, realMasterState))
      }
      // The refusal was for this notice only; the device keeps the server's state.
      return { ...realMasterState, refusal: null }
    },
  }
}
