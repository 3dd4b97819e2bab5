/** Product types (SPEC.md §3): the sub-category, such as Indica, Gummies or Live Resin. */
import {
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

export const productTypeSchemaLiteral = {
  title: 'product type',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    name: { type: 'string', maxLength: 200 },
    description: { type: ['string', 'null'] },
    serverModified: { type: 'string' },
  },
  required: ['id', 'name', 'serverModified'],
  indexes: ['name'],
} as const

export const productTypeSchemaTyped = toTypedRxJsonSchema(productTypeSchemaLiteral)
export type ProductTypeDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof productTypeSchemaTyped>
export const productTypeSchema: RxJsonSchema<ProductTypeDoc> = productTypeSchemaTyped
