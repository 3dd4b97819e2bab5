/**
 * The cart, one document per product line, on the device only (never replicated). A line keeps
 * a snapshot of the product as it was added so the cart renders offline even if the catalogue
 * changes; the server re-prices at checkout.
 */
import {
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

export const cartLineSchemaLiteral = {
  title: 'cart line',
  version: 0,
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
