/**
 * The admin device's order replication: pulls every order through `pull_orders_admin` and pushes
 * status changes made on this device (online or offline) through `set_order_status`, a
 * compare-and-set on the status the device last saw.
 *
 * The conflict rule (docs/decisions/004-order-status-conflicts.md) is in admin-order-conflicts.ts. A move to `delivered`
 * carries the ID check staff confirmed on this device (`p_id_checked`, docs/decisions/018-order-after-checkout.md); the server
 * refuses a handoff without it (`id_check_required`), which comes back as a conflict whose
 * document carries the server's message in `refusal`.
 */
import type { WithDeleted } from 'rxdb'
import { replicateRxCollection } from 'rxdb/plugins/replication'
import { Subject } from 'rxjs'
import { needsIdCheck } from '../../lib/order-status'
import { taxLinesOf } from '../outbox/order-outbox'
import type { RpcClient } from '../backend-client'
import type { HumoDatabase } from '../database'
import type { AdminOrderDoc } from '../schemas/admin-order.schema'
import { createRpcPullHandler, type PullCheckpoint, type WireRow } from './rpc-pull'
import { oncePerDevice } from './sent-moves'

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
  taxLines?: unknown
  salesTaxExempt?: boolean
  customerKind?: string
  mmic?: { number?: string; expiry?: string; checked?: boolean } | null
  idNumberRecorded?: boolean
  shipping?: number | string
  discount?: number | string
  total?: number | string
  trackingNumber?: string | null
  estimatedDelivery?: string | null
  statusHistory?: {
    status: string
    at: string
    by?: string | null
    idChecked?: boolean
    mmicChecked?: boolean
    reason?: string
  }[]
  driver?: { id?: string; firstName?: string | null; employeeNumber?: number | null } | null
  cancelReason?: string | null
  deliveryReceipt?: Record<string, unknown> | null
  signed?: boolean
  pickupWindow?: { start: string; end: string } | null
  items?: {
    productId: string | null
    name: string
    sku?: string | null
    unitPrice: number | string
    quantity: number
    lineTotal: number | string
    isCannabis?: boolean
    limitClass?: string | null
    limitGrams?: number | string | null
  }[]
  createdAt?: string
  updatedAt?: string
}

const n = (value: number | string | undefined | null) => {
  const parsed = typeof value === 'number' ? value : Number(value ?? 0)
  return Number.isFinite(parsed) ? parsed : 0
}

function driverOf(value: AdminOrderRow['driver']): AdminOrderDoc['driver'] {
  if (!value || typeof value.id !== 'string') return null
  return {
    id: value.id,
    firstName: typeof value.firstName === 'string' ? value.firstName : null,
    employeeNumber: typeof value.employeeNumber === 'number' ? value.employeeNumber : null,
  }
}

function pickupWindowOf(value: unknown): { start: string; end: string } | null {
  if (!value || typeof value !== 'object') return null
  const { start, end } = value as { start?: unknown; end?: unknown }
  return typeof start === 'string' && typeof end === 'string' ? { start, end } : null
}

/** The arguments of `set_order_status` for a move made on this device. */
export function setStatusArgs(
  mine: Pick<
    AdminOrderDoc,
    | 'id'
    | 'status'
    | 'idChecked'
    | 'idNumber'
    | 'mmicChecked'
    | 'driverId'
    | 'signature'
    | 'handedAt'
    | 'cancelReason'
  >,
  from: string,
): Record<string, unknown> {
  const args: Record<string, unknown> = { p_id: mine.id, p_from: from, p_to: mine.status }
  // Only a handoff sends the checks, so other moves also reach a server that predates them.
  if (needsIdCheck(mine.status)) {
    args.p_id_checked = mine.idChecked === true
    args.p_id_number = mine.idNumber ?? null
    args.p_mmic_checked = mine.mmicChecked === true
    if (mine.signature) args.p_signature = mine.signature
    if (mine.handedAt) args.p_handed_at = mine.handedAt
  }
  if (mine.status === 'shipped' && mine.driverId) args.p_driver = mine.driverId
  if (mine.status === 'cancelled' && mine.cancelReason) args.p_reason = mine.cancelReason
  return args
}

export type SetStatusAnswer = {
  applied: boolean
  reason?: string
  message?: string
  order: AdminOrderRow
}

/**
 * The server's state to keep when it refused a move: a colleague's change (the notice names
 * them), or a refusal with its own words — an ID check missing, or any refusal of an order nobody
 * else moved — carried in `refusal`.
 */
export function refusedState(
  answer: SetStatusAnswer,
  from: string,
  fallbackModified: string,
): WithDeleted<AdminOrderDoc> {
  const doc = adminOrderRowToDoc({
    ...answer.order,
    _modified: (answer.order as { _modified?: string })._modified ?? fallbackModified,
    _deleted: false,
  })
  const reason = answer.reason
  if (reason && (HANDOFF_REASONS.has(reason) || doc.status === from)) {
    doc.refusal = answer.message?.trim() || refusalFallback(reason)
  }
  return doc
}

/** The server's refusals of a handoff this device asked for (docs/decisions/018-order-after-checkout.md, docs/decisions/050-first-sync-without-a-retry-wait.md). */
const HANDOFF_REASONS = new Set([
  'id_check_required',
  'id_number_required',
  'mmic_check_required',
  'mmic_expired',
  'daily_limit',
  'outside_legal_hours',
  'driver_required',
  'not_a_driver',
  'driver_load_cap',
  'driver_name_required',
  'signature_required',
  'cancel_reason_required',
])

function refusalFallback(reason: string): string {
  return reason === 'id_check_required'
    ? 'The ID check (21+) must be confirmed before an order is handed over.'
    : `The server refused the change (${reason}).`
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
    taxLines: Array.isArray(row.taxLines) ? (taxLinesOf(row.taxLines) ?? null) : null,
    salesTaxExempt: row.salesTaxExempt === true,
    customerKind: row.customerKind === 'medical' ? 'medical' : 'adult',
    mmic:
      row.mmic && typeof row.mmic.number === 'string'
        ? {
            number: row.mmic.number,
            expiry: row.mmic.expiry ?? '',
            checked: row.mmic.checked === true,
          }
        : null,
    idNumberRecorded: row.idNumberRecorded === true,
    shipping: n(row.shipping),
    discount: n(row.discount),
    total: n(row.total),
    trackingNumber: row.trackingNumber ?? null,
    estimatedDelivery: row.estimatedDelivery ?? null,
    statusHistory: (row.statusHistory ?? []).map((h) => ({
      status: h.status,
      at: h.at,
      by: h.by ?? null,
      ...(h.idChecked === true ? { idChecked: true } : {}),
      ...(h.mmicChecked === true ? { mmicChecked: true } : {}),
      ...(typeof h.reason === 'string' ? { reason: h.reason } : {}),
    })),
    driver: driverOf(row.driver),
    cancelReason: typeof row.cancelReason === 'string' ? row.cancelReason : null,
    deliveryReceipt:
      row.deliveryReceipt && typeof row.deliveryReceipt === 'object' ? row.deliveryReceipt : null,
    signed: row.signed === true,
    driverId: null,
    signature: null,
    handedAt: null,
    pickupWindow: pickupWindowOf(row.pickupWindow),
    // The server's state never asks for a check: only a move made on this device does.
    idChecked: false,
    idNumber: null,
    mmicChecked: false,
    refusal: null,
    items: (row.items ?? []).map((i) => ({
      productId: i.productId,
      name: i.name,
      sku: i.sku ?? null,
      unitPrice: n(i.unitPrice),
      quantity: i.quantity,
      lineTotal: n(i.lineTotal),
      isCannabis: i.isCannabis !== false,
      limitClass: i.limitClass === 'flower' || i.limitClass === 'concentrate' ? i.limitClass : null,
      limitGrams: i.limitGrams === null || i.limitGrams === undefined ? null : n(i.limitGrams),
    })),
    createdAt: row.createdAt ?? row._modified,
    updatedAt: row.updatedAt ?? row._modified,
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}

/** One move made on this device: the order, from and to, and when it was made. */
function moveKey(dbName: string, mine: AdminOrderDoc, from: string): string {
  return `${dbName}|${mine.id}|${from}|${mine.status}|${mine.updatedAt}`
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
        let applied = false
        for (const { newDocumentState, assumedMasterState } of rows) {
          // Staff only change statuses; deletions and other fields are never pushed.
          if (newDocumentState._deleted || !assumedMasterState) continue
          if (newDocumentState.status === assumedMasterState.status) continue
          const from = assumedMasterState.status
          const answer = await oncePerDevice(
            moveKey(db.name, newDocumentState, from),
            async () => {
              const response = await supabase.rpc(
                'set_order_status',
                setStatusArgs(newDocumentState, from),
              )
              if (response.error)
                throw new Error(`set_order_status failed: ${response.error.message}`)
              return response.data as SetStatusAnswer
            },
            (sent) => sent.applied,
          )
          // Another tab of this device already sent this move and the server took it.
          if (answer === null) continue
          applied ||= answer.applied
          if (!answer.applied) {
            conflicts.push(
              refusedState(answer, assumedMasterState.status, assumedMasterState.serverModified),
            )
          }
        }
        // A pull read before this move may still be on its way, and RxDB would write its older
        // state over the move (it takes a pulled state as newer whenever nothing is left to push):
        // the board would show the old column until something else moved. A pull asked for now
        // runs after that one and brings the server's state after the move (the sync property
        // bench found it, docs/decisions/049-patch-cached-pages-with-new-stock.md).
        if (applied) resync$.next('RESYNC')
        return conflicts
      },
    },
  })
  return Object.assign(state, { nudge: () => resync$.next('RESYNC') })
}
