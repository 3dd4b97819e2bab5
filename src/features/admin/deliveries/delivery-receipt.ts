/**
 * The delivery receipt of 4 CCR §15420 (docs/decisions/055-delivery-by-the-rules.md): what the customer signs at the door. The
 * driver's phone builds it from the order on the device, the shop's facts and the driver's name
 * and number, so it works offline; the server keeps its own copy at the handoff, which
 * admin_delivery_receipt() gives back later with the signature (read by `parseReceipt`).
 */
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import type { ShopConfig } from '../../../lib/shop'

export type ReceiptLine = { name: string; quantity: number; unitPrice: number; lineTotal: number }

export type DeliveryReceipt = {
  retailer: { name: string; licenceNumber: string; address: string }
  driver: { firstName: string | null; employeeNumber: number | null }
  customer: { firstName: string; kind: string }
  requestedAt: string
  deliveredAt: string
  address: string
  items: ReceiptLine[]
  subtotal: number
  shipping: number
  discount: number
  taxLines: { label: string; amount: number }[]
  total: number
  /** The customer's signature (a PNG data URL) when the server gave it back. */
  signature?: string | null
}

type Address = Record<string, unknown> | null | undefined

const str = (value: unknown) => (typeof value === 'string' ? value : '')
const num = (value: unknown) => {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : 0
}

/** "1820 Sunset Boulevard, Los Angeles, CA 90026" from the shop's or a customer's address. */
export function addressLine(address: Address): string {
  if (!address) return ''
  const street = [str(address.street ?? address.address1), str(address.address2)]
    .filter(Boolean)
    .join(', ')
  const zip = str(address.zip ?? address.zipCode)
  const region = [str(address.state), zip].filter(Boolean).join(' ')
  return [street, str(address.city), region].filter(Boolean).join(', ')
}

/** "Adult use" or "Medical": the kind of customer the receipt names. */
export const receiptCustomerKind = (kind: string | null | undefined) =>
  kind === 'medical' ? 'Medical' : 'Adult use'

/** The order's first name: the device keeps "First Last", the first word is the first name. */
export const firstNameOf = (customerName: string) => customerName.trim().split(/\s+/)[0] ?? ''

/** The receipt as the driver's phone shows it at the door, delivered `at`. */
export function receiptFromOrder(
  order: Pick<
    AdminOrderDoc,
    | 'customerName'
    | 'customerKind'
    | 'createdAt'
    | 'shippingAddress'
    | 'items'
    | 'subtotal'
    | 'shipping'
    | 'discount'
    | 'taxLines'
    | 'total'
  >,
  facts: Pick<ShopConfig, 'name' | 'licenceNumber' | 'address'>,
  driver: { firstName: string | null; employeeNumber: number | null },
  at: Date,
): DeliveryReceipt {
  return {
    retailer: {
      name: facts.name,
      licenceNumber: facts.licenceNumber,
      address: addressLine(facts.address),
    },
    driver: { firstName: driver.firstName, employeeNumber: driver.employeeNumber },
    customer: { firstName: firstNameOf(order.customerName), kind: str(order.customerKind) },
    requestedAt: order.createdAt,
    deliveredAt: at.toISOString(),
    address: addressLine(order.shippingAddress),
    items: order.items.map((item) => ({
      name: str(item.name),
      quantity: num(item.quantity),
      unitPrice: num(item.unitPrice),
      lineTotal: num(item.lineTotal),
    })),
    subtotal: num(order.subtotal),
    shipping: num(order.shipping),
    discount: num(order.discount),
    taxLines: (order.taxLines ?? []).map((t) => ({ label: str(t.label), amount: num(t.amount) })),
    total: num(order.total),
  }
}

/** admin_delivery_receipt()'s answer, read defensively (a missing part shows empty). */
export function parseReceipt(raw: unknown): DeliveryReceipt | null {
  if (!raw || typeof raw !== 'object') return null
  const r = raw as Record<string, unknown>
  const obj = (value: unknown) =>
    value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  const retailer = obj(r.retailer)
  const driver = obj(r.driver)
  const customer = obj(r.customer)
  const list = (value: unknown) =>
    Array.isArray(value) ? (value as unknown[]).map((v) => obj(v)) : []
  return {
    retailer: {
      name: str(retailer.name),
      licenceNumber: str(retailer.licenceNumber),
      address: addressLine(obj(retailer.address)),
    },
    driver: {
      firstName: str(driver.firstName) || null,
      employeeNumber: driver.employeeNumber == null ? null : num(driver.employeeNumber),
    },
    customer: { firstName: str(customer.firstName), kind: str(customer.kind) },
    requestedAt: str(r.requestedAt),
    deliveredAt: str(r.deliveredAt),
    address: addressLine(obj(r.address)),
    items: list(r.items).map((i) => ({
      name: str(i.name),
      quantity: num(i.quantity),
      unitPrice: num(i.unitPrice),
      lineTotal: num(i.lineTotal),
    })),
    subtotal: num(r.subtotal),
    shipping: num(r.shipping),
    discount: num(r.discount),
    taxLines: list(r.taxLines).map((t) => ({ label: str(t.label), amount: num(t.amount) })),
    total: num(r.total),
    signature: str(r.signature).startsWith('data:image/png;base64,') ? str(r.signature) : null,
  }
}

/** "Delivered by Marta, employee #7" */
export function deliveredByText(driver: DeliveryReceipt['driver']): string {
  const name = driver.firstName ?? 'the driver'
  return driver.employeeNumber == null
    ? `Delivered by ${name}`
    : `Delivered by ${name}, employee #${driver.employeeNumber}`
}
