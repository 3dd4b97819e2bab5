/** What the order board shows (SPEC.md §2 "Order status board"), apart from React. */
import type { AdminOrderDoc } from '../../data/schemas/admin-order.schema'

export const BOARD_COLUMNS = ['pending', 'processing', 'shipped', 'delivered'] as const
export type OrderStatus = AdminOrderDoc['status']
export const ALL_STATUSES: readonly OrderStatus[] = [...BOARD_COLUMNS, 'cancelled']

export const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1)

export const shortOrderId = (id: string) => `#${id.slice(0, 8).toUpperCase()}`

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
