/**
 * The wire shape of `pull_products` (supabase/migrations) and its mapping onto the device's
 * product document. Kept pure so the mapping is tested without a network.
 */
import type { WithDeleted } from 'rxdb'
import type { ProductDoc } from '../schemas/product.schema'

type Ref = { id: string; name: string; slug?: string | null } | null

export type ProductRow = {
  id: string
  _modified: string
  _deleted: boolean
  name?: string
  slug?: string
  sku?: string | null
  description?: string | null
  price?: number | string | null
  original_price?: number | string | null
  quantity_available?: number | null
  is_unlimited_quantity?: boolean | null
  is_on_sale?: boolean | null
  is_featured?: boolean | null
  rating?: number | string | null
  review_count?: number | null
  thc_percentage?: number | string | null
  cbd_percentage?: number | string | null
  total_cannabinoids_percentage?: number | string | null
  smokeback_percentage?: number | string | null
  weight_grams?: number | string | null
  is_cannabis?: boolean | null
  limit_class?: string | null
  limit_grams?: number | string | null
  thc_mg?: number | string | null
  cbd_mg?: number | string | null
  servings?: number | null
  created_at?: string
  updated_at?: string
  brand?: Ref
  category?: Ref
  product_type?: Ref
  product_media?: {
    id: string
    media_url: string
    media_type: string
    is_primary: boolean | null
    display_order: number | null
  }[]
  product_effects?: { id: string; effect_name: string }[]
  terpene_profiles?: { id: string; terpene_name: string; percentage: number | string | null }[]
}

function num(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? n : null
}

function toRef(ref: Ref | undefined): { id: string; name: string; slug?: string } | null {
  if (!ref) return null
  return ref.slug ? { id: ref.id, name: ref.name, slug: ref.slug } : { id: ref.id, name: ref.name }
}

/** A tombstone row (inactive or deleted on the server) removes the product from the device. */
export function productRowToDoc(row: ProductRow): WithDeleted<ProductDoc> {
  const media = [...(row.product_media ?? [])]
    .sort((a, b) => (a.display_order ?? 0) - (b.display_order ?? 0))
    .map((m) => ({
      id: m.id,
      path: m.media_url,
      type: m.media_type === 'video' ? ('video' as const) : ('image' as const),
      isPrimary: Boolean(m.is_primary),
      displayOrder: m.display_order ?? 0,
    }))
  const limitClass =
    row.limit_class === 'flower' || row.limit_class === 'concentrate' ? row.limit_class : null
  return {
    id: row.id,
    slug: row.slug ?? row.id,
    name: row.name ?? '',
    sku: row.sku ?? null,
    description: row.description ?? '',
    price: Math.round((num(row.price) ?? 0) * 100) / 100,
    originalPrice: num(row.original_price),
    stock: row.quantity_available ?? null,
    unlimited: Boolean(row.is_unlimited_quantity),
    isOnSale: Boolean(row.is_on_sale),
    isFeatured: Boolean(row.is_featured),
    rating: num(row.rating) ?? 0,
    reviewCount: row.review_count ?? 0,
    thc: num(row.thc_percentage),
    cbd: num(row.cbd_percentage),
    totalCannabinoids: num(row.total_cannabinoids_percentage),
    smokeback: num(row.smokeback_percentage),
    weightGrams: num(row.weight_grams),
    // A server from before these fields: cannabis, counted by nothing (it enforces its own rules).
    isCannabis: row.is_cannabis !== false,
    limitClass,
    limitGrams: limitClass ? (num(row.limit_grams) ?? num(row.weight_grams)) : null,
    thcMg: num(row.thc_mg),
    cbdMg: num(row.cbd_mg),
    servings: num(row.servings),
    categorySlug: row.category?.slug ?? '',
    brand: toRef(row.brand),
    category: toRef(row.category),
    productType: toRef(row.product_type),
    media,
    effects: (row.product_effects ?? []).map((e) => e.effect_name),
    terpenes: (row.terpene_profiles ?? []).map((t) => ({
      name: t.terpene_name,
      percentage: num(t.percentage),
    })),
    createdAt: row.created_at ?? row._modified,
    updatedAt: row.updated_at ?? row._modified,
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}
