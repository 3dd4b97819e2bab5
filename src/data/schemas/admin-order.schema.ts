/**
 * Every order, as an admin device holds it for the order board (pulled by `pull_orders_admin`).
 * Staff change `status` here, offline or not; the push sends each change as a compare-and-set
 * (`set_order_status(id, from, to, id_checked)`), so a colleague's change is never overwritten
 * silently.
 *
 * Version 1 (docs/decisions/018-order-after-checkout.md): the pickup window, the ID check staff confirmed with a move to
 * `delivered` (`idChecked`, pushed as `p_id_checked`), history entries that record that check,
 * and `refusal`, the server's words when it refused this device's move for a reason other than a
 * colleague's (the conflict handler turns them into the notice).
 *
 * Version 2 (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md): each tax on its own line, adult use or medical, the medical
 * patient's MMIC (staff only), and what staff enter at a handoff besides the ID check: the ID
 * document's number (`idNumber`, sent once as `p_id_number` and kept by the server only as a
 * keyed hash; the pulled state never carries it) and "MMIC checked" (`mmicChecked`).
 *
 * Version 3 (issue 32, docs/decisions/055-delivery-by-the-rules.md): the driver an order went out with, why it was cancelled
 * (`cancelReason`, also the reason of the history entry), the delivery receipt kept at the
 * handoff and whether the customer signed; and what a move made on this device sends with it:
 * the driver chosen (`driverId`), the signature and the time of a handoff made offline.
 */
import {
  type MigrationStrategies,
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'
import { addressSchemaPart } from './address'

const address = addressSchemaPart

export const adminOrderSchemaLiteral = {
  title: 'admin order',
  version: 3,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    status: {
      type: 'string',
      enum: ['pending', 'processing', 'shipped', 'delivered', 'cancelled'],
      maxLength: 12,
    },
    customerName: { type: 'string' },
    customerEmail: { type: 'string' },
    customerPhone: { type: ['string', 'null'] },
    fulfilment: { type: 'string' },
    deliveryMethod: { type: 'string' },
    shippingAddress: address,
    paymentMethod: { type: 'string' },
    cardLast4: { type: ['string', 'null'] },
    subtotal: { type: 'number' },
    tax: { type: 'number' },
    taxLines: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        properties: {
          kind: { type: 'string' },
          label: { type: 'string' },
          rate: { type: 'number' },
          base: { type: 'number' },
          amount: { type: 'number' },
        },
      },
    },
    salesTaxExempt: { type: 'boolean' },
    customerKind: { type: 'string' },
    mmic: {
      type: ['object', 'null'],
      properties: {
        number: { type: 'string' },
        expiry: { type: 'string' },
        checked: { type: 'boolean' },
      },
    },
    idNumberRecorded: { type: 'boolean' },
    shipping: { type: 'number' },
    discount: { type: 'number' },
    total: { type: 'number' },
    trackingNumber: { type: ['string', 'null'] },
    estimatedDelivery: { type: ['string', 'null'] },
    statusHistory: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          status: { type: 'string' },
          at: { type: 'string' },
          by: { type: ['string', 'null'] },
          idChecked: { type: 'boolean' },
          mmicChecked: { type: 'boolean' },
          reason: { type: 'string' },
        },
      },
    },
    /** The driver who took the order out for delivery (staff only; docs/decisions/055-delivery-by-the-rules.md). */
    driver: {
      type: ['object', 'null'],
      properties: {
        id: { type: 'string' },
        firstName: { type: ['string', 'null'] },
        employeeNumber: { type: ['number', 'null'] },
      },
    },
    cancelReason: { type: ['string', 'null'] },
    /** 4 CCR §15420's receipt, as the server kept it at the handoff (without the signature). */
    deliveryReceipt: { type: ['object', 'null'] },
    signed: { type: 'boolean' },
    /** Made on this device until the push: the driver chosen ("Out for delivery", p_driver). */
    driverId: { type: ['string', 'null'] },
    /** Made on this device until the push: the customer's signature (a PNG data URL). */
    signature: { type: ['string', 'null'] },
    /** Made on this device until the push: when the handoff happened (p_handed_at). */
    handedAt: { type: ['string', 'null'] },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          productId: { type: ['string', 'null'] },
          name: { type: 'string' },
          sku: { type: ['string', 'null'] },
          unitPrice: { type: 'number' },
          quantity: { type: 'number' },
          lineTotal: { type: 'number' },
          isCannabis: { type: 'boolean' },
          limitClass: { type: ['string', 'null'] },
          limitGrams: { type: ['number', 'null'] },
        },
      },
    },
    pickupWindow: {
      type: ['object', 'null'],
      properties: { start: { type: 'string' }, end: { type: 'string' } },
    },
    idChecked: { type: 'boolean' },
    /** Entered with a handoff made on this device, until the server has it; never pulled. */
    idNumber: { type: ['string', 'null'] },
    mmicChecked: { type: 'boolean' },
    refusal: { type: ['string', 'null'] },
    createdAt: { type: 'string', maxLength: 40 },
    updatedAt: { type: 'string' },
    serverModified: { type: 'string' },
  },
  required: [
    'id',
    'status',
    'customerName',
    'customerEmail',
    'fulfilment',
    'deliveryMethod',
    'paymentMethod',
    'subtotal',
    'tax',
    'shipping',
    'discount',
    'total',
    'statusHistory',
    'items',
    'createdAt',
    'updatedAt',
    'serverModified',
  ],
  indexes: ['status', 'createdAt'],
} as const

export const adminOrderSchemaTyped = toTypedRxJsonSchema(adminOrderSchemaLiteral)
export type AdminOrderDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof adminOrderSchemaTyped>
export const adminOrderSchema: RxJsonSchema<AdminOrderDoc> = adminOrderSchemaTyped

/** Version n's strategy turns a version n-1 document into a version n one. */
export const adminOrderMigrationStrategies: MigrationStrategies = {
  // A status change queued on a version 0 device never confirmed an ID check: it keeps its
  // status, and the server refuses it if it was a handoff (the notice then says why).
  1: (doc: Record<string, unknown>) => ({
    ...doc,
    pickupWindow: null,
    idChecked: false,
    refusal: null,
  }),
  // Orders before were adult use with one "Tax" line; a queued handoff has no ID number yet, and
  // the server refuses it with the reason (the notice says what to enter).
  2: (doc: Record<string, unknown>) => ({
    ...doc,
    taxLines: null,
    salesTaxExempt: false,
    customerKind: 'adult',
    mmic: null,
    idNumberRecorded: false,
    idNumber: null,
    mmicChecked: false,
  }),
  // Orders before had no driver, reason or receipt; a move queued before sends none, and the
  // server refuses it where a rule needs one (the notice says what).
  3: (doc: Record<string, unknown>) => ({
    ...doc,
    driver: null,
    cancelReason: null,
    deliveryReceipt: null,
    signed: false,
    driverId: null,
    signature: null,
    handedAt: null,
  }),
}
