/**
 * Wire shapes of `pull_categories`, `pull_brands` and `pull_product_types`, and their mapping
 * onto device documents. A tombstone (inactive or deleted on the server) removes the document.
 */
import type { WithDeleted } from 'rxdb'
import type { BrandDoc } from '../schemas/brand.schema'
import type { CategoryDoc } from '../schemas/category.schema'
import type { ProductTypeDoc } from '../schemas/product-type.schema'
import type { WireRow } from './rpc-pull'

export type CategoryRow = WireRow & {
  name?: string
  slug?: string | null
  description?: string | null
  display_order?: number | null
}
export type BrandRow = WireRow & {
  name?: string
  slug?: string | null
  description?: string | null
  founded_year?: number | null
  logo_url?: string | null
}
export type ProductTypeRow = WireRow & { name?: string; description?: string | null }

const slugify = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export function categoryRowToDoc(row: CategoryRow): WithDeleted<CategoryDoc> {
  const name = row.name ?? ''
  return {
    id: row.id,
    name,
    slug: row.slug || slugify(name) || row.id,
    description: row.description ?? null,
    displayOrder: Math.trunc(row.display_order ?? 0),
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}

export function brandRowToDoc(row: BrandRow): WithDeleted<BrandDoc> {
  return {
    id: row.id,
    name: row.name ?? '',
    slug: row.slug ?? null,
    description: row.description ?? null,
    foundedYear: row.founded_year ?? null,
    logoUrl: row.logo_url ?? null,
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}

export function productTypeRowToDoc(row: ProductTypeRow): WithDeleted<ProductTypeDoc> {
  return {
    id: row.id,
    name: row.name ?? '',
    description: row.description ?? null,
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}
