/**
 * A shopper's own orders on this device. An order is written here the moment the shopper places
 * it, with a client-made id and secret; the outbox sends it through `place_order` and records
 * the server's answer (`sync`: queued → sending → accepted | refused). The secret lets the
 * device read the order's status back; card numbers are never stored (DESIGN.md §8).
 *
 * Version 1 (issue 22): the pickup window, payment as 'cash' | 'debit' (paid at handoff, decision
 * 019; an old 'card' order is carried over as 'debit'), the order's live channel and when its
 * status was last confirmed by the server (`statusCheckedAt`), so an offline page can say how old
 * the status it shows is.
 */
import {
  type MigrationStrategies,
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'
import { addressSchemaPart } from './address'

const address = addressSchemaPart

const money = { type: 'number' } as const

export const orderSchemaLiteral = {
  title: 'order',
  version: 2,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    secret: { type: 'string' },
    status: {
      type: 'string',
      enum: ['pending', 'processing', 'shipped', 'delivered', 'cancelled'],
    },
    sync: { type: 'string', enum: ['queued', 'sending', 'accepted', 'refused'], maxLength: 10 },
    attempts: { type: 'number' },
    nextAttemptAt: { type: 'number', minimum: 0, maximum: 1e15, multipleOf: 1 },
    lastError: { type: ['string', 'null'] },
    refusal: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        properties: { productId: { type: ['string', 'null'] }, message: { type: 'string' } },
        required: ['message'],
      },
    },
    customer: {
      type: 'object',
      properties: {
        email: { type: 'string' },
        firstName: { type: 'string' },
        lastName: { type: 'string' },
        phone: { type: 'string' },
      },
      required: ['email', 'firstName', 'lastName', 'phone'],
    },
    fulfilment: { type: 'string', enum: ['delivery', 'pickup'] },
    deliveryMethod: { type: 'string', enum: ['standard', 'express'] },
    shippingAddress: address,
    billingAddress: address,
    paymentMethod: { type: 'string', enum: ['cash', 'debit'] },
    customerKind: { type: 'string', enum: ['adult', 'medical'] },
    /** A medical patient's state ID card, as the shopper gave it (the server keeps it for staff). */
    mmic: {
      type: ['object', 'null'],
      properties: { number: { type: 'string' }, expiry: { type: 'string' } },
      required: ['number', 'expiry'],
    },
    cardLast4: { type: ['string', 'null'] },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          productId: { type: 'string' },
          name: { type: 'string' },
          slug: { type: 'string' },
          unitPrice: money,
          quantity: { type: 'integer' },
          imagePath: { type: ['string', 'null'] },
          categorySlug: { type: 'string' },
          weightGrams: { type: ['number', 'null'] },
          isCannabis: { type: 'boolean' },
          limitClass: { type: ['string', 'null'] },
          limitGrams: { type: ['number', 'null'] },
        },
        required: ['productId', 'name', 'unitPrice', 'quantity'],
      },
    },
    totals: {
      type: 'object',
      properties: {
        subtotal: money,
        tax: money,
        /** src/lib/california-tax.ts's lines; absent on an order priced before them. */
        taxLines: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              kind: { type: 'string' },
              label: { type: 'string' },
              rate: money,
              base: money,
              amount: money,
            },
            required: ['kind', 'label', 'rate', 'base', 'amount'],
          },
        },
        salesTaxExempt: { type: 'boolean' },
        shipping: money,
        discount: money,
        total: money,
      },
      required: ['subtotal', 'tax', 'shipping', 'discount', 'total'],
    },
    /** 'preview' until the server has priced the order. */
    totalsFrom: { type: 'string', enum: ['preview', 'server'] },
    estimatedDelivery: { type: ['string', 'null'] },
    statusHistory: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          status: { type: 'string' },
          at: { type: 'string' },
          idChecked: { type: 'boolean' },
        },
        required: ['status', 'at'],
      },
    },
    /** The pickup window chosen at checkout (ISO instants); null for delivery. */
    pickupWindow: {
      type: ['object', 'null'],
      properties: { start: { type: 'string' }, end: { type: 'string' } },
      required: ['start', 'end'],
    },
    /** The order's private Realtime topic, 'order:' + SHA-256 of the secret (docs/decisions/018-order-after-checkout.md). */
    channel: { type: ['string', 'null'] },
    /** When the server last confirmed `status` (place_order, get_orders or a live event). */
    statusCheckedAt: { type: ['string', 'null'] },
    /** Set once the lines of a refused order were put back in the cart. */
    cartRestoredAt: { type: ['string', 'null'] },
    createdAt: { type: 'string', maxLength: 40 },
    updatedAt: { type: 'string' },
  },
  required: [
    'id',
    'secret',
    'status',
    'sync',
    'attempts',
    'nextAttemptAt',
    'customer',
    'fulfilment',
    'deliveryMethod',
    'paymentMethod',
    'customerKind',
    'items',
    'totals',
    'totalsFrom',
    'statusHistory',
    'createdAt',
    'updatedAt',
  ],
  indexes: ['sync', 'createdAt'],
} as const

export const orderSchemaTyped = toTypedRxJsonSchema(orderSchemaLiteral)
export type OrderDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof orderSchemaTyped>
export type OrderStatus = OrderDoc['status']
export const orderSchema: RxJsonSchema<OrderDoc> = orderSchemaTyped

/**
 * Version n's strategy turns a version n-1 document into a version n one. Every stored order is
 * kept (a queued one above all: it is the only copy of the shopper's order until it is sent).
 */
export const orderMigrationStrategies: MigrationStrategies = {
  1: (old: Record<string, unknown>) => ({
    ...old,
    // Nothing was ever charged online: an old card order is paid by card at handoff.
    paymentMethod: old.paymentMethod === 'cash' ? 'cash' : 'debit',
    pickupWindow: null,
    channel: null,
    // An accepted order's status came from the server when it was last written.
    statusCheckedAt: old.sync === 'accepted' ? (old.updatedAt ?? null) : null,
  }),
  // Every order before was an adult-use one, priced with one "Tax" line.
  2: (old: Record<string, unknown>) => ({ ...old, customerKind: 'adult', mmic: null }),
}
