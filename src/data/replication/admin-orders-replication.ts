/**
 * The admin device's order replication: pulls every order through `pull_orders_admin` and pushes
 * status changes made on this device (online or offline) through `set_order_status`, a
 * compare-and-set on the status the device last saw.
 *
 * The conflict rule (docs/decisions/004): the first change to reach the server wins. When a
 * colleague moved the order first, the server refuses ours and returns its state; the device
 * takes the server's state and records a notice telling this person what happened — so no status
 * change is lost silently.
 */
import type { RxConflictHandler, WithDeleted } from 'rxdb'
import { replicateRxCollection } from 'rxdb/plugins/replication'
import { Subject } from 'rxjs'
import type { RpcClient } from '../backend-client'
import type { HumoDatabase } from '../database'
import type { AdminOrderDoc } from '../schemas/admin-order.schema'
import type { OrderNoticeDoc } from '../schemas/order-notice.schema'
import { createRpcPullHandler, type PullCheckpoint, type WireRow } from './rpc-pull'

export type AdminOrderRow = WireRow & {
  status?: AdminOrderDoc['status']
  customer?: { email?: string; firstName?: string; lastName?: string; phone?: string }
  customerName?: string
  customerEmail?: string
  fulfilment?: string
  deliveryMethod?: string
  shippingAddress?: AdminOrderDoc['shippingAddress']
  paymentMethod?: string
  cardLast4?: string | null
  subtotal?: number | string
  tax?: number | string
  shipping?: number | string
  discount?: number | string
  total?: number | string
  trackingNumber?: string | null
  estimatedDelivery?: string | null
  statusHistory?: { status: string; at: string; by?: string | null }[]
  items?: {
    productId: string | null
    name: string
    sku?: string | null
    unitPrice: number | string
    quantity: number
    lineTotal: number | string
  }[]
  createdAt?: string
  updatedAt?: string
}

const n = (value: number | string | undefined | null) => {
  const parsed = typeof value === 'number' ? value : Number(value ?? 0)
  return Number.isFinite(parsed) ? parsed : 0
}

export function adminOrderRowToDoc(row: AdminOrderRow): WithDeleted<AdminOrderDoc> {
  return {
    id: row.id,
    status: row.status ?? 'pending',
    customerName:
      row.customerName ??
      [row.customer?.firstName, row.customer?.lastName].filter(Boolean).join(' '),
    customerEmail: row.customerEmail ?? row.customer?.email ?? '',
    customerPhone: row.customer?.phone ?? null,
    fulfilment: row.fulfilment ?? 'delivery',
    deliveryMethod: row.deliveryMethod ?? 'standard',
    shippingAddress: row.shippingAddress ?? null,
    paymentMethod: row.paymentMethod ?? 'cash',
    cardLast4: row.cardLast4 ?? null,
    subtotal: n(row.subtotal),
    tax: n(row.tax),
    shipping: n(row.shipping),
    discount: n(row.discount),
    total: n(row.total),
    trackingNumber: row.trackingNumber ?? null,
    estimatedDelivery: row.estimatedDelivery ?? null,
    statusHistory: (row.statusHistory ?? []).map((h) => ({
      status: h.status,
      at: h.at,
      by: h.by ?? null,
    })),
    items: (row.items ?? []).map((i) => ({
      productId: i.productId,
      name: i.name,
      sku: i.sku ?? null,
      unitPrice: n(i.unitPrice),
      quantity: i.quantity,
      lineTotal: n(i.lineTotal),
    })),
    createdAt: row.createdAt ?? row._modified,
    updatedAt: row.updatedAt ?? row._modified,
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}

const label = (status: string) => status.charAt(0).toUpperCase() + status.slice(1)

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
  return {
    id: `${mine.id}:${now.getTime()}`,
    orderId: mine.id,
    attemptedFrom: from,
    attemptedTo: mine.status,
    actualStatus: server.status,
    changedBy: last?.by ?? null,
    changedAt: last?.at ?? null,
    message:
      `Your move of order #${mine.id.slice(0, 8).toUpperCase()} from ${label(from)} to ${label(mine.status)} ` +
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
      return realMasterState
    },
  }
}

export function replicateAdminOrders(
  supabase: RpcClient,
  db: HumoDatabase,
  options: { identifier: string; live?: boolean; waitForLeadership?: boolean },
) {
  const resync$ = new Subject<'RESYNC'>()
  const state = replicateRxCollection<AdminOrderDoc, PullCheckpoint>({
    collection: db.admin_orders,
    replicationIdentifier: options.identifier,
    live: options.live ?? true,
    retryTime: 5_000,
    waitForLeadership: options.waitForLeadership ?? false,
    pull: {
      batchSize: 500,
      handler: createRpcPullHandler<AdminOrderDoc, AdminOrderRow>(supabase, {
        rpc: 'pull_orders_admin',
        collection: db.admin_orders,
        toDoc: adminOrderRowToDoc,
      }),
      stream$: resync$.asObservable(),
    },
    push: {
      batchSize: 20,
      handler: async (rows) => {
        const conflicts: WithDeleted<AdminOrderDoc>[] = []
        for (const { newDocumentState, assumedMasterState } of rows) {
          // Staff only change statuses; deletions and other fields are never pushed.
          if (newDocumentState._deleted || !assumedMasterState) continue
          if (newDocumentState.status === assumedMasterState.status) continue
          const response = await supabase.rpc('set_order_status', {
            p_id: newDocumentState.id,
            p_from: assumedMasterState.status,
            p_to: newDocumentState.status,
          })
          if (response.error) throw new Error(`set_order_status failed: ${response.error.message}`)
          const answer = response.data as { applied: boolean; order: AdminOrderRow }
          if (!answer.applied) {
            conflicts.push(
              adminOrderRowToDoc({
                ...answer.order,
                _modified:
                  (answer.order as { _modified?: string })._modified ??
                  assumedMasterState.serverModified,
                _deleted: false,
              }),
            )
          }
        }
        return conflicts
      },
    },
  })
  return Object.assign(state, { nudge: () => resync$.next('RESYNC') })
}
