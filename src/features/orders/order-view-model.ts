/**
 * One shape for an order as the shopper's screens show it, whether it comes from this device's
 * database (the order page) or from the server's Track Order answer (kept in memory only).
 */
import { cleanHistory, type ShopperOrder, type StatusEntry } from '../../data/outbox/order-outbox'
import type { OrderDoc } from '../../data/schemas/order.schema'
import { taxLinesOf } from '../../data/outbox/order-outbox'
import type { CustomerKind } from '../../lib/compliance-rules'
import type { ReceiptTotals } from '../../lib/receipt'
import { asFulfilment, type Fulfilment } from '../../lib/order-status'
import { formatShopTime } from '../../lib/pickup-windows'

export type OrderViewData = {
  id: string
  status: string
  fulfilment: Fulfilment
  deliveryMethod: 'standard' | 'express'
  shippingAddress: {
    address1: string
    address2?: string | null
    city: string
    state: string
    zipCode: string
  } | null
  paymentMethod: string
  items: { productId: string; name: string; unitPrice: number; quantity: number }[]
  /** With each tax on its own line; an order priced before them has none (one "Tax" line). */
  totals: ReceiptTotals
  customerKind: CustomerKind
  statusHistory: StatusEntry[]
  pickupWindow: { start: string; end: string } | null
  createdAt: string | null
  /**
   * When the order was saved on this device, while it waits there to be sent: the shop has not
   * received it, so no step of the shop's is reached yet (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md). Null once sent.
   */
  savedAt: string | null
  /** The shop refused it when it was sent: it was never placed. */
  refused: boolean
}

/** Queued or being sent: on the device only, not received by the shop. */
export function isWaitingToSend(order: Pick<OrderDoc, 'sync'>): boolean {
  return order.sync === 'queued' || order.sync === 'sending'
}

export function fromDeviceOrder(order: OrderDoc): OrderViewData {
  return {
    id: order.id,
    status: order.status,
    fulfilment: asFulfilment(order.fulfilment),
    deliveryMethod: order.deliveryMethod,
    shippingAddress: order.shippingAddress ?? null,
    paymentMethod: order.paymentMethod,
    items: order.items.map((i) => ({
      productId: i.productId,
      name: i.name,
      unitPrice: i.unitPrice,
      quantity: i.quantity,
    })),
    totals: {
      ...order.totals,
      // Stored as the server sent them; read back through the same check.
      taxLines: taxLinesOf(order.totals.taxLines) ?? null,
    },
    customerKind: order.customerKind === 'medical' ? 'medical' : 'adult',
    // With the reasons the device stored beside the schema's fields (StatusEntry).
    statusHistory: cleanHistory(order.statusHistory) ?? [],
    pickupWindow: order.pickupWindow ?? null,
    createdAt: order.createdAt,
    savedAt: isWaitingToSend(order) ? order.createdAt : null,
    refused: order.sync === 'refused',
  }
}

const num = (value: unknown) => {
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? n : 0
}

export function fromShopperOrder(order: ShopperOrder): OrderViewData {
  return {
    id: order.id,
    status: order.status,
    fulfilment: asFulfilment(order.fulfilment),
    deliveryMethod: order.deliveryMethod === 'express' ? 'express' : 'standard',
    shippingAddress: order.shippingAddress ?? null,
    paymentMethod: order.paymentMethod ?? 'cash',
    items: (order.items ?? []).map((i) => ({
      productId: i.productId,
      name: i.name ?? 'Item',
      unitPrice: num(i.unitPrice),
      quantity: num(i.quantity),
    })),
    totals: {
      subtotal: num(order.subtotal),
      tax: num(order.tax),
      shipping: num(order.shipping),
      discount: num(order.discount),
      total: num(order.total),
      taxLines: taxLinesOf(order.taxLines) ?? null,
      salesTaxExempt: order.salesTaxExempt === true,
    },
    customerKind: order.customerKind === 'medical' ? 'medical' : 'adult',
    statusHistory: cleanHistory(order.statusHistory) ?? [],
    pickupWindow: order.pickupWindow ?? null,
    createdAt: order.createdAt ?? null,
    // The server's answer: the shop has it.
    savedAt: null,
    refused: false,
  }
}

/** "2:05 PM", with the date when it is not today, in the shop's time like the pickup window. */
export function formatKnownAt(iso: string, now: Date = new Date()): string {
  return formatShopTime(new Date(iso), now)
}
