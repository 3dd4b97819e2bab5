/** Brands (SPEC.md §3), pulled from the server. */
import {
  toTypedRxJsonSchema,
  type ExtractDocumentTypeFromTypedRxJsonSchema,
  type RxJsonSchema,
} from 'rxdb'

export const brandSchemaLiteral = {
  title: 'brand',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    name: { type: 'string', maxLength: 200 },
    slug: { type: ['string', 'null'] },
    description: { type: ['string', 'null'] },
    foundedYear: { type: ['number', 'null'] },
    logoUrl: { type: ['string', 'null'] },
    serverModified: { type: 'string' },
  },
  required: ['id', 'name', 'serverModified'],
  indexes: ['name'],
} as const

export const brandSchemaTyped = toTypedRxJsonSchema(brandSchemaLiteral)
export type BrandDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof brandSchemaTyped>
export const brandSchema: RxJsonSchema<BrandDoc> = brandSchemaTyped
