/** Catalogue categories (SPEC.md §3), pulled from the server; `slug` is the menu's path part. */
import {
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

export const categorySchemaLiteral = {
  title: 'category',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    name: { type: 'string' },
    slug: { type: 'string', maxLength: 80 },
    description: { type: ['string', 'null'] },
    displayOrder: { type: 'number', minimum: -1000000, maximum: 1000000, multipleOf: 1 },
    serverModified: { type: 'string' },
  },
  required: ['id', 'name', 'slug', 'displayOrder', 'serverModified'],
  indexes: ['slug', 'displayOrder'],
} as const

export const categorySchemaTyped = toTypedRxJsonSchema(categorySchemaLiteral)
export type CategoryDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof categorySchemaTyped>
export const categorySchema: RxJsonSchema<CategoryDoc> = categorySchemaTyped
