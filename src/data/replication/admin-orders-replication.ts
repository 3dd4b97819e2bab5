/**
 * The admin device's order replication: pulls every order through `pull_orders_admin` and pushes
 * status changes made on this device (online or offline) through `set_order_status`, a
 * compare-and-set on the status the device last saw.
 *
 * The conflict rule (docs/decisions/004) is in admin-order-conflicts.ts.
 */
import type { WithDeleted } from 'rxdb'
import { replicateRxCollection } from 'rxdb/plugins/replication'
import { Subject } from 'rxjs'
import type { RpcClient } from '../backend-client'
import type { HumoDatabase } from '../database'
import type { AdminOrderDoc } from '../schemas/admin-order.schema'
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
