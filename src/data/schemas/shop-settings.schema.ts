/**
 * The shop's settings (one document, id 'shop'), pulled from `shop_settings`: the money rules
 * the checkout previews with and the facts the pages show (the shape of src/lib/shop.ts).
 * Read-only on shoppers' devices; staff change them through Admin Settings on the server.
 * Version 1 adds the weekly opening hours, the pickup rules and whether order emails are sent
 * (docs/decisions/018-order-after-checkout.md). Version 2 adds how many opening hours staff have to accept an order before it
 * is cancelled (docs/decisions/026-rate-limits-and-unaccepted-orders.md). Version 3 adds California's tax rates and daily limits with the
 * dates they take effect (`complianceRules`, docs/decisions/051-california-taxes-and-daily-limits.md); `taxRate` is no longer used.
 */
import {
  type MigrationStrategies,
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../lib/shop-hours'

/** shop_settings.unaccepted_order_hours's default (20261126100100_auto_cancel_unaccepted_orders). */
export const DEFAULT_UNACCEPTED_ORDER_HOURS = 12

const text = { type: 'string' } as const
const phone = {
  type: 'object',
  properties: { display: text, e164: text },
  required: ['display', 'e164'],
} as const

export const shopSettingsSchemaLiteral = {
  title: 'shop settings',
  version: 3,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 10 },
    /** A fraction: 0.08 is 8%. */
    taxRate: { type: 'number', minimum: 0, maximum: 1 },
    standardShipping: { type: 'number', minimum: 0 },
    expressDelivery: { type: 'number', minimum: 0 },
    freeShippingThreshold: { type: 'number', minimum: 0 },
    facts: {
      type: 'object',
      properties: {
        name: text,
        slogan: text,
        licenceNumber: text,
        phone,
        textUpdates: {
          type: 'object',
          properties: { display: text, e164: text, keyword: text },
          required: ['display', 'e164', 'keyword'],
        },
        email: text,
        address: {
          type: 'object',
          properties: { street: text, city: text, state: text, zip: text, country: text },
          required: ['street', 'city', 'state', 'zip', 'country'],
        },
        deliveryArea: text,
        hours: {
          type: 'array',
          items: {
            type: 'object',
            properties: { days: text, hours: text },
            required: ['days', 'hours'],
          },
        },
      },
      required: [
        'name',
        'slogan',
        'licenceNumber',
        'phone',
        'textUpdates',
        'email',
        'address',
        'deliveryArea',
        'hours',
      ],
    },
    /** Seven entries, Sunday first; null on a closed day (src/lib/shop-hours.ts). */
    openingHours: {
      type: 'array',
      minItems: 7,
      maxItems: 7,
      items: {
        type: ['object', 'null'],
        properties: { open: text, close: text },
        required: ['open', 'close'],
      },
    },
    pickupPrepMinutes: { type: 'integer', minimum: 0 },
    pickupSlotMinutes: { type: 'integer', minimum: 1 },
    /** The server has a mail server and sends order emails; screens promise one only then. */
    orderEmails: { type: 'boolean' },
    /** Opening hours before a pending order staff did not accept is cancelled (1-168). */
    unacceptedOrderHours: { type: 'integer', minimum: 1 },
    /**
     * src/lib/compliance-rules.ts's rows (rates and limits with the day each takes effect), as
     * shop-settings-doc.ts checked them; typed by ComplianceRule where they are read.
     */
    complianceRules: { type: 'array', items: { type: 'object' } },
    serverModified: { type: 'string' },
  },
  required: [
    'id',
    'taxRate',
    'standardShipping',
    'expressDelivery',
    'freeShippingThreshold',
    'facts',
    'openingHours',
    'pickupPrepMinutes',
    'pickupSlotMinutes',
    'orderEmails',
    'unacceptedOrderHours',
    'complianceRules',
    'serverModified',
  ],
} as const

export const shopSettingsSchemaTyped = toTypedRxJsonSchema(shopSettingsSchemaLiteral)
export type ShopSettingsDoc = ExtractDocumentTypeFromTypedRxJsonSchema<
  typeof shopSettingsSchemaTyped
>
export const shopSettingsSchema: RxJsonSchema<ShopSettingsDoc> = shopSettingsSchemaTyped

/** Version n's strategy turns a version n-1 document into a version n one. */
export const shopSettingsMigrationStrategies: MigrationStrategies = {
  // The hours and rules the shop had before they became settings; the next pull brings the
  // server's own.
  1: (doc: Record<string, unknown>) => ({
    ...doc,
    openingHours: DEFAULT_OPENING_HOURS.map((day) => (day ? { ...day } : null)),
    pickupPrepMinutes: DEFAULT_PICKUP_RULES.prepMinutes,
    pickupSlotMinutes: DEFAULT_PICKUP_RULES.slotMinutes,
    orderEmails: false,
  }),
  // The server's default until the next pull brings the shop's own.
  2: (doc: Record<string, unknown>) => ({
    ...doc,
    unacceptedOrderHours: DEFAULT_UNACCEPTED_ORDER_HOURS,
  }),
  3: (doc: Record<string, unknown>) => ({
    ...doc,
    // None until the next pull: whoever computes with them falls back on the built-in ones.
    complianceRules: [],
  }),
}
