/**
 * Every product, as an admin device holds it for the Products tab (pulled by
 * `pull_products_admin`): inactive products too, with the brand, category and type ids the
 * product form edits. Read-only on the device: saves go to the server (`admin_save_product`) and
 * come back through the pull. Dropped on admin sign-out with the other admin collections.
 *
 * Version 1 (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md): what the law needs to know of the product, as the product
 * form edits it: cannabis or not (the excise applies), the daily limit it counts toward and the
 * grams one unit counts (null: its weight), and its THC and CBD milligrams and servings per package.
 *
 * Version 2 (issue 32, docs/decisions/054-metrc-sales-export.md): the Metrc package the product is sold from now — its UID
 * and its unit of measure.
 */
import {
  type MigrationStrategies,
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

const nullableNumber = { type: ['number', 'null'] } as const
const nullableText = { type: ['string', 'null'] } as const
const ref = {
  type: ['object', 'null'],
  properties: { id: { type: 'string' }, name: { type: 'string' } },
  required: ['id', 'name'],
} as const

export const adminProductSchemaLiteral = {
  title: 'admin product',
  description: 'a catalogue product as the back office edits it, inactive ones included',
  version: 2,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    name: { type: 'string' },
    slug: { type: 'string' },
    sku: { type: 'string' },
    description: nullableText,
    price: nullableNumber,
    originalPrice: nullableNumber,
    quantity: nullableNumber,
    unlimited: { type: 'boolean' },
    isActive: { type: 'boolean' },
    isOnSale: { type: 'boolean' },
    isFeatured: { type: 'boolean' },
    rating: nullableNumber,
    reviewCount: nullableNumber,
    thc: nullableNumber,
    cbd: nullableNumber,
    totalCannabinoids: nullableNumber,
    smokeback: nullableNumber,
    weightGrams: nullableNumber,
    isCannabis: { type: 'boolean' },
    limitClass: { type: ['string', 'null'], enum: ['flower', 'concentrate', null] },
    /** As staff entered it: null counts the weight. */
    limitGrams: nullableNumber,
    thcMg: nullableNumber,
    cbdMg: nullableNumber,
    servings: nullableNumber,
    metrcPackageTag: nullableText,
    metrcUnit: nullableText,
    brandId: nullableText,
    categoryId: nullableText,
    productTypeId: nullableText,
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
    effects: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' } },
        required: ['id', 'name'],
      },
    },
    terpenes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          percentage: nullableNumber,
        },
        required: ['id', 'name'],
      },
    },
    createdAt: { type: 'string', maxLength: 40 },
    updatedAt: { type: 'string' },
    /** The server's `_modified` text, kept verbatim (microseconds) to compare versions. */
    serverModified: { type: 'string' },
  },
  required: [
    'id',
    'name',
    'slug',
    'sku',
    'unlimited',
    'isActive',
    'isOnSale',
    'isFeatured',
    'isCannabis',
    'media',
    'effects',
    'terpenes',
    'createdAt',
    'updatedAt',
    'serverModified',
  ],
  indexes: ['createdAt'],
} as const

export const adminProductSchemaTyped = toTypedRxJsonSchema(adminProductSchemaLiteral)
export type AdminProductDoc = ExtractDocumentTypeFromTypedRxJsonSchema<
  typeof adminProductSchemaTyped
>
export const adminProductSchema: RxJsonSchema<AdminProductDoc> = adminProductSchemaTyped

/**
 * A version 0 document is a copy of the server's product from before its facts: it gets the
 * server's backfill (migration 20261128100100) by its category and type until the next pull, which
 * brings every product again (that migration touched them all), replaces it.
 */
export const adminProductMigrationStrategies: MigrationStrategies = {
  1: (old: Record<string, unknown>) => {
    const category = String((old.category as { name?: string } | null)?.name ?? '')
    const type = String((old.productType as { name?: string } | null)?.name ?? '')
    const merchandise = category === 'Branded Bags' || type === 'Packaging'
    return {
      ...old,
      isCannabis: !merchandise,
      limitClass: merchandise
        ? null
        : category === 'Flower' || type === 'Bulk Flower'
          ? 'flower'
          : category === 'Concentrates' || type === 'Bulk Concentrates'
            ? 'concentrate'
            : null,
      limitGrams: null,
      thcMg: null,
      cbdMg: null,
      servings: null,
    }
  },
  /**
   * Version 1 held no package: none until the next pull brings the product with it (the server
   * gives it with every product; a product saved since carries it).
   */
  2: (old: Record<string, unknown>) => ({ ...old, metrcPackageTag: null, metrcUnit: null }),
}
