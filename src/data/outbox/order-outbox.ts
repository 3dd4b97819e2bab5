/**
 * The shopper's order outbox. Orders are written to RxDB first (so placing one never waits on
 * the network); this module sends every queued order through the `place_order` RPC, retries with
 * back-off until the server answers, and records the answer on the order. State lives in the
 * order documents themselves, so it survives reloads and closed tabs. The server is idempotent
 * on the client-made id, so a retry after a lost answer can never make a second order.
 *
 * Errors are split as in PowerSync's demo: Postgres classes 22 and 23, 42501 and P0001 mean the
 * server looked at the order and will never take it as it is (fatal: tell the shopper); anything
 * else (no network, a 5xx, a timeout) is retried. A rate limit (429, docs/decisions/026-rate-limits-and-unaccepted-orders.md) is "come back
 * later": the order stays queued until the time the server named, never refused.
 */
import type { TaxLine } from '../../lib/california-tax'
import type { RpcClient } from '../backend-client'
import type { HumoDatabase } from '../database'
import type { OrderDoc, OrderStatus } from '../schemas/order.schema'

export const MAX_BACKOFF_MS = 60_000

/**
 * A status history entry as the shopper sees it (never who moved it). `reason` says why, when the
 * server gave one (an order cancelled because the shop never confirmed it, docs/decisions/026-rate-limits-and-unaccepted-orders.md); it is
 * stored in the order document's history without being in its schema, which RxDB allows for
 * nested objects and which spares every device a schema migration.
 */
export type StatusEntry = { status: string; at: string; idChecked?: boolean; reason?: string }

/**
 * The shopper's view of an order, as place_order (accepted), get_orders and track_order answer
 * it (docs/decisions/018-order-after-checkout.md): the order document without staff details, plus its Realtime topic.
 */
export type ShopperOrder = {
  id: string
  status: OrderStatus
  fulfilment?: 'pickup' | 'delivery'
  deliveryMethod?: 'standard' | 'express'
  shippingAddress?: OrderDoc['shippingAddress']
  paymentMethod?: string
  customerKind?: 'adult' | 'medical'
  subtotal: number
  tax: number
  /** Each tax on its own line (docs/decisions/051-california-taxes-and-daily-limits.md); null on an order priced before them. */
  taxLines?: TaxLine[] | null
  salesTaxExempt?: boolean
  shipping: number
  discount: number
  total: number
  createdAt?: string
  updatedAt?: string
  estimatedDelivery?: string | null
  statusHistory?: StatusEntry[] | null
  pickupWindow?: { start: string; end: string } | null
  channel?: string | null
  items?: {
    productId: string
    name?: string
    unitPrice: number
    quantity: number
    lineTotal?: number
  }[]
}

export type PlaceOrderAnswer =
  | { status: 'accepted'; order: ShopperOrder }
  | {
      status: 'refused'
      /** `code` 'total_changed': the rules changed since the device priced the order. */
      reasons: { productId: string | null; message: string; code?: string }[]
    }

const STATUSES: readonly OrderStatus[] = [
  'pending',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
]

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value)
}

/** The history as stored on the device: status, time and the ID-check mark, nothing else. */
export function cleanHistory(history: unknown): StatusEntry[] | null {
  if (!Array.isArray(history)) return null
  const out: StatusEntry[] = []
  for (const entry of history as Record<string, unknown>[]) {
    if (!entry || typeof entry.status !== 'string' || typeof entry.at !== 'string') continue
    const clean: StatusEntry = { status: entry.status, at: entry.at }
    if (entry.idChecked === true) clean.idChecked = true
    if (typeof entry.reason === 'string' && entry.reason.trim())
      clean.reason = entry.reason.trim().slice(0, 300)
    out.push(clean)
  }
  return out
}

function cleanWindow(value: unknown): { start: string; end: string } | null {
  if (!value || typeof value !== 'object') return null
  const w = value as Record<string, unknown>
  return typeof w.start === 'string' && typeof w.end === 'string'
    ? { start: w.start, end: w.end }
    : null
}

/**
 * A live status from the server (get_orders, a Realtime event) applied to the device's order.
 * An older answer than the one the device holds is ignored, so events and re-reads may arrive in
 * any order.
 */
export function applyStatus(
  order: OrderDoc,
  server: { status: unknown; statusHistory?: unknown; updatedAt?: unknown; channel?: unknown },
  checkedAt: string,
): OrderDoc {
  if (!isOrderStatus(server.status)) return order
  const history = cleanHistory(server.statusHistory)
  // The history only grows (every change appends), so a shorter one is an older answer.
  if (history && history.length < (order.statusHistory?.length ?? 0)) return order
  const serverUpdated = typeof server.updatedAt === 'string' ? server.updatedAt : null
  return {
    ...order,
    status: server.status,
    statusHistory: history ?? order.statusHistory,
    channel: typeof server.channel === 'string' ? server.channel : (order.channel ?? null),
    statusCheckedAt: checkedAt,
    updatedAt: serverUpdated ?? order.updatedAt,
  }
}

type RpcError = { code?: string; message: string; details?: string | null }

export function isFatalError(error: RpcError): boolean {
  const code = error.code ?? ''
  return /^(22|23)/.test(code) || code === '42501' || code === 'P0001'
}

/** The server's 429 (PostgREST's PT429, or any 429 from a gateway in front of it). */
export function isRateLimited(error: RpcError, httpStatus?: number): boolean {
  return httpStatus === 429 || error.code === 'PT429'
}

/** When the server names no time: GoTrue's and our shortest window. */
export const RATE_LIMIT_DEFAULT_WAIT_MS = 5 * 60_000

/**
 * How long a rate-limited device waits: the server's Retry-After, which supabase-js does not
 * expose, so read from the error's details ("Retry after 720 seconds"); at most a day.
 */
export function rateLimitWaitMs(error: RpcError): number {
  const match = /retry after (\d+) seconds?/i.exec(error.details ?? '')
  const seconds = match ? Number(match[1]) : NaN
  return Number.isFinite(seconds) && seconds > 0
    ? Math.min(seconds * 1000, 86_400_000)
    : RATE_LIMIT_DEFAULT_WAIT_MS
}

/** Marks a lastError as a rate limit's (held-back-text.ts reads it back for the screens). */
export const RATE_LIMITED = 'Rate limited: '

/** lastError for a rate-limited send: the server's words, marked so screens can tell. */
export function rateLimitedError(error: RpcError): string {
  return `${RATE_LIMITED}${error.message}`
}

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1))
}

export function placeOrderPayload(order: OrderDoc) {
  return {
    id: order.id,
    secret: order.secret,
    customer: order.customer,
    fulfilment: order.fulfilment,
    deliveryMethod: order.deliveryMethod,
    shippingAddress: order.shippingAddress ?? null,
    billingAddress: order.billingAddress ?? null,
    paymentMethod: order.paymentMethod,
    pickupWindow: order.fulfilment === 'pickup' ? (order.pickupWindow ?? null) : null,
    items: order.items.map((item) => ({ productId: item.productId, quantity: item.quantity })),
    customerKind: order.customerKind ?? 'adult',
    mmic: order.customerKind === 'medical' && order.mmic ? order.mmic : null,
    // The total the shopper saw: the server refuses rather than charge another (docs/decisions/051-california-taxes-and-daily-limits.md).
    expectedTotal: order.totalsFrom === 'preview' ? order.totals.total : null,
  }
}

/** The server's tax lines, or undefined when it sent none (an order priced before them). */
export function taxLinesOf(value: unknown): TaxLine[] | undefined {
  if (!Array.isArray(value)) return undefined
  return value.flatMap((line: Record<string, unknown>) =>
    line && typeof line.label === 'string'
      ? [
          {
            kind: line.kind === 'local' || line.kind === 'excise' ? line.kind : ('sales' as const),
            label: line.label,
            rate: num(line.rate, 0),
            base: num(line.base, 0),
            amount: num(line.amount, 0),
          },
        ]
      : [],
  )
}

function num(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? n : fallback
}

/** The server's tax lines and exemption, when it sent them (RxDB stores no undefined keys). */
function optionalTaxes(
  server: ShopperOrder,
): Pick<OrderDoc['totals'], 'taxLines' | 'salesTaxExempt'> {
  const taxLines = taxLinesOf(server.taxLines)
  return {
    ...(taxLines ? { taxLines } : {}),
    ...(typeof server.salesTaxExempt === 'boolean'
      ? { salesTaxExempt: server.salesTaxExempt }
      : {}),
  }
}

/** Applies the server's answer to the local order. */
export function applyAnswer(order: OrderDoc, answer: PlaceOrderAnswer, at: string): OrderDoc {
  if (answer.status === 'refused') {
    return { ...order, sync: 'refused', refusal: answer.reasons, lastError: null, updatedAt: at }
  }
  const server = answer.order
  const unitPrices = new Map((server.items ?? []).map((i) => [i.productId, num(i.unitPrice, 0)]))
  return {
    ...order,
    sync: 'accepted',
    status: isOrderStatus(server.status) ? server.status : 'pending',
    lastError: null,
    refusal: null,
    totals: {
      subtotal: num(server.subtotal, order.totals.subtotal),
      tax: num(server.tax, order.totals.tax),
      ...optionalTaxes(server),
      shipping: num(server.shipping, order.totals.shipping),
      discount: num(server.discount, order.totals.discount),
      total: num(server.total, order.totals.total),
    },
    totalsFrom: 'server',
    items: order.items.map((item) => ({
      ...item,
      unitPrice: unitPrices.get(item.productId) ?? item.unitPrice,
    })),
    estimatedDelivery: server.estimatedDelivery ?? order.estimatedDelivery ?? null,
    pickupWindow: cleanWindow(server.pickupWindow) ?? order.pickupWindow ?? null,
    channel: typeof server.channel === 'string' ? server.channel : (order.channel ?? null),
    statusHistory: cleanHistory(server.statusHistory) ?? order.statusHistory,
    statusCheckedAt: at,
    updatedAt: at,
  }
}

export type OrderOutbox = {
  /**
   * Send every order that is due now. Safe to call any time; calls coalesce. `reconnected`: the
   * network just came back, so the orders waiting out a back-off go now too.
   */
  flush(reconnected?: boolean): Promise<void>
  /** Refresh the status of this device's accepted, unfinished orders. */
  refreshStatuses(): Promise<void>
  /** Record a status the server pushed for one order (order-tracking.ts's live events). */
  receiveStatus(orderId: string, server: Parameters<typeof applyStatus>[1]): Promise<void>
  stop(): void
  /**
   * Resolves once nothing the outbox started is still running (a send, the choice of its next
   * wake-up): after stop(), before the database closes.
   */
  settled(): Promise<void>
}

export function startOrderOutbox(
  db: HumoDatabase,
  supabase: RpcClient,
  { now = () => Date.now() }: { now?: () => number } = {},
): OrderOutbox {
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let eager = false
  // Work under way, so that settled() can wait for it; each leaves the set when it ends.
  const pending = new Set<Promise<unknown>>()
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work)
    // Not a handler: a failure still surfaces as it did (unhandled) where nobody awaits it.
    void work.finally(() => pending.delete(work))
    return work
  }

  const sendOne = async (order: OrderDoc) => {
    const doc = await db.orders.findOne(order.id).exec()
    if (!doc) return
    await doc.incrementalPatch({ sync: 'sending' })
    const response = await supabase.rpc('place_order', { p_order: placeOrderPayload(order) })
    const at = new Date(now()).toISOString()
    if (response.error) {
      const error = response.error as RpcError
      // A rate limit is not a refusal: the cart stays as it is and the order is sent when the
      // server said.
      const limited = isRateLimited(error, response.status)
      await doc.incrementalModify((d) =>
        !limited && isFatalError(error)
          ? {
              ...d,
              sync: 'refused',
              refusal: [{ productId: null, message: error.message }],
              lastError: null,
              updatedAt: at,
            }
          : {
              ...d,
              sync: 'queued',
              attempts: d.attempts + 1,
              nextAttemptAt:
                now() + Math.max(backoffMs(d.attempts + 1), limited ? rateLimitWaitMs(error) : 0),
              lastError: limited ? rateLimitedError(error) : error.message,
            },
      )
      return
    }
    const answer = response.data as PlaceOrderAnswer
    await doc.incrementalModify((d) => applyAnswer(d, answer, at))
  }

  const schedule = async () => {
    if (stopped) return
    const next = await db.orders
      .findOne({
        selector: { sync: { $in: ['queued', 'sending'] } },
        sort: [{ nextAttemptAt: 'asc' }],
      })
      .exec()
    // Cleared after the wait: two overlapping schedules would otherwise leave the first's
    // timer running, unreachable by stop(), to fire on a closed database.
    clearTimeout(timer)
    if (!next || stopped) return
    timer = setTimeout(() => void flush(), Math.max(0, next.nextAttemptAt - now()))
  }

  const sendDue = async () => {
    // 'sending' left over from a closed tab is sent again: the server is idempotent.
    const until = eager ? 1e15 : now()
    eager = false
    const due = await db.orders
      .find({
        selector: { sync: { $in: ['queued', 'sending'] }, nextAttemptAt: { $lte: until } },
        sort: [{ createdAt: 'asc' }],
      })
      .exec()
    for (const order of due) {
      if (stopped) return
      await sendOne(order.toMutableJSON())
    }
  }

  const flush = (reconnected?: boolean): Promise<void> => {
    if (reconnected) eager = true
    if (running) {
      again = true
      return running
    }
    running = track(
      (async () => {
        try {
          do {
            again = false
            await sendDue()
          } while (again && !stopped)
        } finally {
          running = null
          await track(schedule())
        }
      })(),
    )
    return running
  }

  const refreshStatuses = async () => {
    const open = await db.orders
      .find({ selector: { sync: 'accepted', status: { $nin: ['delivered', 'cancelled'] } } })
      .exec()
    if (open.length === 0) return
    const response = await supabase.rpc('get_orders', {
      p_refs: open.map((o) => ({ id: o.id, secret: o.secret })),
    })
    if (response.error || !Array.isArray(response.data)) return
    const at = new Date(now()).toISOString()
    for (const server of response.data as ShopperOrder[]) {
      const doc = open.find((o) => o.id === server?.id)
      if (!doc) continue
      await doc.incrementalModify((d) => applyStatus(d, server, at))
    }
  }

  const inserted = db.orders.insert$.subscribe(() => void flush())
  void flush()

  const receiveStatus = async (orderId: string, server: Parameters<typeof applyStatus>[1]) => {
    const doc = await db.orders.findOne(orderId).exec()
    if (doc?.sync !== 'accepted') return
    await doc.incrementalModify((d) => applyStatus(d, server, new Date(now()).toISOString()))
  }

  return {
    flush,
    refreshStatuses,
    receiveStatus,
    stop() {
      stopped = true
      clearTimeout(timer)
      inserted.unsubscribe()
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled(pending)
    },
  }
}
