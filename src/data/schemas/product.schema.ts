/**
 * The products collection: the shop-side shape of a product (SPEC.md §3) with its brand,
 * category, type, media, effects and terpenes embedded, as the storefront reads it. One document
 * per product; the server pull brings the whole product whenever any part of it changes.
 */
import {
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
  version: 0,
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
    rating: { type: 'number' },
    reviewCount: { type: 'number' },
    thc: nullableNumber,
    cbd: nullableNumber,
    totalCannabinoids: nullableNumber,
    smokeback: nullableNumber,
    weightGrams: nullableNumber,
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
