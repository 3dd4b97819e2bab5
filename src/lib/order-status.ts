/**
 * An order's status in its own words. The server stores SPEC.md's five statuses (pending,
 * processing, shipped, delivered, cancelled) for every order; what a person reads depends on how
 * the order is collected (docs/decisions/018-order-after-checkout.md): a pickup order is never "Shipped", and never says
 * "Delivery". Shared by the storefront, the back office, the exports and the emails' texts.
 */
export type Fulfilment = 'pickup' | 'delivery'
export type StoredStatus = 'pending' | 'processing' | 'shipped' | 'delivered' | 'cancelled'

/** The statuses an order moves through, in order; `cancelled` can follow any of them. */
export const STATUS_FLOW = ['pending', 'processing', 'shipped', 'delivered'] as const

const WORDS: Record<Fulfilment, Record<StoredStatus, string>> = {
  pickup: {
    pending: 'Received',
    processing: 'Preparing',
    shipped: 'Ready for pickup',
    delivered: 'Picked up',
    cancelled: 'Cancelled',
  },
  delivery: {
    pending: 'Received',
    processing: 'Preparing',
    shipped: 'Out for delivery',
    delivered: 'Delivered',
    cancelled: 'Cancelled',
  },
}

export function asFulfilment(value: string | null | undefined): Fulfilment {
  return value === 'pickup' ? 'pickup' : 'delivery'
}

export function isStoredStatus(value: string): value is StoredStatus {
  return value in WORDS.delivery
}

/** "Ready for pickup", "Out for delivery", …; an unknown status is shown as it is. */
export function orderStatusLabel(status: string, fulfilment: string | null | undefined): string {
  return isStoredStatus(status) ? WORDS[asFulfilment(fulfilment)][status] : status
}

/** The steps of the shopper's timeline, in order (cancelled is shown apart). */
export function timelineSteps(
  fulfilment: string | null | undefined,
): { status: StoredStatus; label: string }[] {
  return STATUS_FLOW.map((status) => ({ status, label: orderStatusLabel(status, fulfilment) }))
}

/**
 * Handing the order over (picked up, delivered) needs the buyer's ID checked, 21+
 * (California B&P §26140); the server refuses the change without it.
 */
export function needsIdCheck(to: string): boolean {
  return to === 'delivered'
}

export const ID_CHECK_LABEL = 'ID checked (21+)'

/** A delivery goes "Out for delivery" with its driver (4 CCR §15418; docs/decisions/055-delivery-by-the-rules.md). */
export function needsDriver(fulfilment: string | null | undefined, to: string): boolean {
  return to === 'shipped' && asFulfilment(fulfilment) === 'delivery'
}

/** The reasons staff pick from when they cancel; they may also type their own. */
export const CANCEL_REASONS = [
  'Out of stock',
  'Customer asked',
  'Could not verify ID',
  'Customer did not come',
  'Address outside the delivery area',
] as const

/**
 * The ID check of an order's customer: adult use is 21+ (B&P §26140), a medical patient with a
 * physician's recommendation may be 18+ (B&P §26140(b)); docs/decisions/051-california-taxes-and-daily-limits.md.
 */
export function idCheckLabel(customerKind: string | null | undefined): string {
  return customerKind === 'medical' ? 'ID checked (18+)' : ID_CHECK_LABEL
}

/** Staff saw the medical patient's Medical Marijuana ID Card, valid, at handoff. */
export const MMIC_CHECK_LABEL = 'MMIC checked'

/** How the order is sold, in the words checkout uses: "Adult use (21+)", "Medical patient (18+)". */
export function customerKindLabel(customerKind: string | null | undefined): string {
  return customerKind === 'medical' ? 'Medical patient (18+)' : 'Adult use (21+)'
}

/** A finished order no longer changes (no live updates needed). */
export function isFinished(status: string): boolean {
  return status === 'delivered' || status === 'cancelled'
}

/** "#1A2B3C4D": how an order is named to people (the first 8 hex digits of its id). */
export function orderNumber(id: string): string {
  return `#${id.slice(0, 8).toUpperCase()}`
}

/** How the order is paid, in words: nothing is charged online (docs/decisions/019-pay-at-handoff.md). */
export function paymentLabel(method: string, fulfilment: string | null | undefined): string {
  const at = asFulfilment(fulfilment) === 'pickup' ? 'at pickup' : 'on delivery'
  if (method === 'cash') return `Cash ${at}`
  return `Debit card ${at}`
}
