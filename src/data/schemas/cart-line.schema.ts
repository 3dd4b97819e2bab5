/**
 * The cart, one document per product line, on the device only (never replicated). A line keeps
 * a snapshot of the product as it was added so the cart renders offline even if the catalogue
 * changes; the server re-prices at checkout.
 *
 * Version 1 (docs/decisions/051-california-taxes-and-daily-limits.md): the snapshot says whether the product is cannabis and what one unit
 * counts toward the daily limits, so the cart prices and limits offline as the server will.
 */
import {
  type MigrationStrategies,
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

export const cartLineSchemaLiteral = {
  title: 'cart line',
  version: 1,
  primaryKey: 'productId',
  type: 'object',
  properties: {
    productId: { type: 'string', maxLength: 40 },
    quantity: { type: 'integer', minimum: 1, maximum: 999 },
    addedAt: { type: 'string', maxLength: 40 },
    product: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        slug: { type: 'string' },
        price: { type: 'number' },
        originalPrice: { type: ['number', 'null'] },
        imagePath: { type: ['string', 'null'] },
        brandName: { type: ['string', 'null'] },
        categoryName: { type: ['string', 'null'] },
        categorySlug: { type: 'string' },
        productTypeName: { type: ['string', 'null'] },
        weightGrams: { type: ['number', 'null'] },
        isCannabis: { type: 'boolean' },
        limitClass: { type: ['string', 'null'] },
        limitGrams: { type: ['number', 'null'] },
        stock: { type: ['number', 'null'] },
        unlimited: { type: 'boolean' },
      },
      required: ['name', 'slug', 'price', 'categorySlug', 'unlimited'],
    },
  },
  required: ['productId', 'quantity', 'addedAt', 'product'],
  indexes: ['addedAt'],
} as const

export const cartLineSchemaTyped = toTypedRxJsonSchema(cartLineSchemaLiteral)
export type CartLineDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof cartLineSchemaTyped>
export type CartProductSnapshot = CartLineDoc['product']
export const cartLineSchema: RxJsonSchema<CartLineDoc> = cartLineSchemaTyped

/** A line added before version 1 (./old-catalogue-documents.ts, loaded only then). */
export const cartLineMigrationStrategies: MigrationStrategies = {
  1: async (old: Record<string, unknown>) =>
    (await import('./old-catalogue-documents')).cartLineVersion1(old),
}
