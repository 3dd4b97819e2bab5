/**
 * The products collection: the shop-side shape of a product (SPEC.md §3) with its brand,
 * category, type, media, effects and terpenes embedded, as the storefront reads it. One document
 * per product; the server pull brings the whole product whenever any part of it changes.
 *
 * Version 1 (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md): whether the product is cannabis (the excise applies), the
 * daily limit it counts toward with the grams of one unit, and its potency per package in
 * milligrams with its number of servings (edibles, drinks, tinctures, capsules).
 *
 * Version 2 (issue 33, docs/decisions/056-real-reviews-or-none.md): `rating` and `reviewCount` are the average and count of the
 * product's visible reviews, kept by the server (0 and 0: no review, and no rating is shown). What
 * a device stored before was the demo's made-up numbers, so it is cleared until the next pull.
 */
import {
  type MigrationStrategies,
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

const nullableNumber = { type: ['number', 'null'] } as const
const ref = {
  type: ['object', 'null'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' } },
  required: ['id', 'name'],
} as const

export const productSchemaLiteral = {
  title: 'product',
  description: 'a catalogue product as the shop shows it',
  version: 2,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    slug: { type: 'string', maxLength: 200 },
    name: { type: 'string', maxLength: 300 },
    sku: { type: ['string', 'null'] },
    description: { type: 'string' },
    // NOTE: no multipleOf: 74.99 is not a multiple of 0.01 in floating point.
    price: { type: 'number', minimum: 0 },
    originalPrice: nullableNumber,
    stock: nullableNumber,
    unlimited: { type: 'boolean' },
    isOnSale: { type: 'boolean' },
    isFeatured: { type: 'boolean' },
    /** The average of the visible reviews' stars (1–5), or 0 when there is none. */
    rating: { type: 'number' },
    /** How many visible reviews; 0 shows no rating at all. */
    reviewCount: { type: 'number' },
    thc: nullableNumber,
    cbd: nullableNumber,
    totalCannabinoids: nullableNumber,
    smokeback: nullableNumber,
    weightGrams: nullableNumber,
    isCannabis: { type: 'boolean' },
    limitClass: { type: ['string', 'null'], enum: ['flower', 'concentrate', null] },
    /** Grams one unit counts toward its daily limit (its weight unless staff set another). */
    limitGrams: nullableNumber,
    thcMg: nullableNumber,
    cbdMg: nullableNumber,
    servings: nullableNumber,
    categorySlug: { type: 'string', maxLength: 64 },
    brand: ref,
    category: ref,
    productType: ref,
    media: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          path: { type: 'string' },
          type: { type: 'string', enum: ['image', 'video'] },
          isPrimary: { type: 'boolean' },
          displayOrder: { type: 'number' },
        },
        required: ['id', 'path', 'type', 'isPrimary', 'displayOrder'],
      },
    },
    effects: { type: 'array', items: { type: 'string' } },
    terpenes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, percentage: nullableNumber },
        required: ['name'],
      },
    },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    /** The server's `_modified` text, kept verbatim (microseconds) to compare versions. */
    serverModified: { type: 'string' },
  },
  required: [
    'id',
    'slug',
    'name',
    'description',
    'price',
    'unlimited',
    'isOnSale',
    'isFeatured',
    'rating',
    'reviewCount',
    'isCannabis',
    'categorySlug',
    'media',
    'effects',
    'terpenes',
    'createdAt',
    'updatedAt',
    'serverModified',
  ],
  indexes: ['slug', 'categorySlug'],
} as const

export const productSchemaTyped = toTypedRxJsonSchema(productSchemaLiteral)
export type ProductDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof productSchemaTyped>
export const productSchema: RxJsonSchema<ProductDoc> = productSchemaTyped

/**
 * A version 0 product gets what the server's backfill gave it (./old-catalogue-documents.ts,
 * loaded only when a device has such products to carry over). A version 1 product loses the
 * made-up rating it may hold: none is shown until the pull brings the real one.
 */
export const productMigrationStrategies: MigrationStrategies = {
  1: async (old: Record<string, unknown>) =>
    (await import('./old-catalogue-documents')).productVersion1(old),
  2: (old: Record<string, unknown>) => ({ ...old, rating: 0, reviewCount: 0 }),
}
