/**
 * A shopper's own orders on this device. An order is written here the moment the shopper places
 * it, with a client-made id and secret; the outbox sends it through `place_order` and records
 * the server's answer (`sync`: queued → sending → accepted | refused). The secret lets the
 * device read the order's status back; card numbers are never stored (DESIGN.md §8).
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
  version: 0,
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
    paymentMethod: { type: 'string', enum: ['card', 'cash'] },
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
        },
        required: ['productId', 'name', 'unitPrice', 'quantity'],
      },
    },
    totals: {
      type: 'object',
      properties: { subtotal: money, tax: money, shipping: money, discount: money, total: money },
      required: ['subtotal', 'tax', 'shipping', 'discount', 'total'],
    },
    /** 'preview' until the server has priced the order. */
    totalsFrom: { type: 'string', enum: ['preview', 'server'] },
    estimatedDelivery: { type: ['string', 'null'] },
    statusHistory: {
      type: 'array',
      items: {
        type: 'object',
        properties: { status: { type: 'string' }, at: { type: 'string' } },
        required: ['status', 'at'],
      },
    },
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

/** Version n's strategy turns a version n-1 document into a version n one. */
export const orderMigrationStrategies: MigrationStrategies = {}
