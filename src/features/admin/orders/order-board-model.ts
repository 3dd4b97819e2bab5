/**
 * What the order board shows (SPEC.md §2 "Order status board"), apart from React. Every status is
 * read in the order's own words (docs/decisions/018-order-after-checkout.md): a pickup order is "Ready for pickup", never
 * "Shipped"; the columns, which hold both kinds, have names true for both.
 */
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatPickupWindow } from '../../../lib/pickup-windows'
import { orderNumber, orderStatusLabel } from '../../../lib/order-status'

export const BOARD_COLUMNS = ['pending', 'processing', 'shipped', 'delivered'] as const
export type OrderStatus = AdminOrderDoc['status']
export const ALL_STATUSES: readonly OrderStatus[] = [...BOARD_COLUMNS, 'cancelled']

const COLUMN_TITLES: Record<(typeof BOARD_COLUMNS)[number], string> = {
  pending: 'Pending',
  processing: 'Processing',
  shipped: 'Ready / Out for delivery',
  delivered: 'Completed',
}

/** A board column's heading (docs/decisions/018-order-after-checkout.md). */
export const columnTitle = (status: (typeof BOARD_COLUMNS)[number]) => COLUMN_TITLES[status]

/**
 * A status for figures that mix both kinds of order (analytics): the board column's name, true
 * for pickup and delivery alike; "Cancelled".
 */
export function statusLabel(status: string): string {
  return (BOARD_COLUMNS as readonly string[]).includes(status)
    ? columnTitle(status as (typeof BOARD_COLUMNS)[number])
    : orderStatusLabel(status, 'delivery')
}

/** "#1A2B3C4D". */
export const shortOrderId = orderNumber

/** The statuses an order can be moved to, in its own words, for "Move to…" menus. */
export function moveTargets(
  order: Pick<AdminOrderDoc, 'status' | 'fulfilment'>,
): { value: OrderStatus; label: string }[] {
  return ALL_STATUSES.filter((s) => s !== order.status).map((s) => ({
    value: s,
    label: orderStatusLabel(s, order.fulfilment),
  }))
}

/** "3 items", "1 item": the units in the order. */
export function itemCount(order: Pick<AdminOrderDoc, 'items'>): string {
  const n = order.items.reduce((sum, item) => sum + (item.quantity || 0), 0)
  return `${n} ${n === 1 ? 'item' : 'items'}`
}

/** "just now", "12 min ago", "3 h ago", "2 d ago". */
export function timeSince(iso: string, now: number = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000)
  if (!Number.isFinite(minutes) || minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h ago`
  return `${Math.floor(hours / 24)} d ago`
}

/**
 * How the order is collected, as the card says it: "Pickup" with its window, or the delivery
 * speed ("Delivery: express"). A pickup order never reads "Delivery".
 */
export function fulfilmentLine(
  order: Pick<AdminOrderDoc, 'fulfilment' | 'deliveryMethod' | 'pickupWindow'>,
  now: Date = new Date(),
): string {
  if (order.fulfilment === 'pickup') {
    const w = order.pickupWindow
    return w?.start && w.end
      ? `Pickup · ${formatPickupWindow({ start: w.start, end: w.end }, now)}`
      : 'Pickup'
  }
  return `Delivery: ${order.deliveryMethod}`
}

/**
 * A status changed on this device that the server has not confirmed yet: the device's status
 * differs from the last status in the history the server sent.
 */
export function isWaitingToSync(order: Pick<AdminOrderDoc, 'status' | 'statusHistory'>): boolean {
  const last = order.statusHistory.at(-1)
  return Boolean(last) && last!.status !== order.status
}

export function matchesOrderSearch(order: AdminOrderDoc, query: string): boolean {
  const q = query.trim().toLowerCase()
  if (!q) return true
  return [
    order.id,
    shortOrderId(order.id),
    order.customerName,
    order.customerEmail,
    order.customerPhone ?? '',
    ...order.items.map((i) => i.name ?? ''),
  ]
    .join(' ')
    .toLowerCase()
    .includes(q)
}

/** The target of a drop: another board column, or nothing (same column, outside). */
export function dropTarget(from: string, over: string | null | undefined): OrderStatus | null {
  if (!over || over === from) return null
  return (BOARD_COLUMNS as readonly string[]).includes(over) ? (over as OrderStatus) : null
}

export type BadgeTone = 'deal' | 'accent' | 'solid' | 'neutral' | 'danger'

export function statusTone(status: string): BadgeTone {
  switch (status) {
    case 'pending':
      return 'deal'
    case 'processing':
      return 'accent'
    case 'shipped':
      return 'solid'
    case 'cancelled':
      return 'danger'
    default:
      return 'neutral'
  }
}
