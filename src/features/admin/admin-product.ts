/**
 * The admin's view of a product: the table's row (from the device's `admin_products`, inactive
 * products included) and the payload of `admin_save_product` built from the product form.
 */
import type { AdminProductDoc } from '../../data/schemas/admin-product.schema'
import type { LimitClassChoice, ProductFormOutput, ProductFormValues } from './admin.validation'
import { METRC_UNITS, type MetrcUnit } from './metrc/metrc-layout'

const metrcUnitOf = (unit: string | null | undefined): MetrcUnit | null =>
  (METRC_UNITS as readonly string[]).includes(unit ?? '') ? (unit as MetrcUnit) : null

type Ref = { id: string; name: string } | null
export type AdminMediaRow = {
  id: string
  media_url: string
  media_type: 'image' | 'video'
  is_primary: boolean
  display_order: number | null
}

export type AdminProductRow = {
  id: string
  name: string
  slug: string
  sku: string
  description: string | null
  price: number | null
  original_price: number | null
  quantity_available: number | null
  is_unlimited_quantity: boolean
  is_active: boolean
  is_on_sale: boolean
  is_featured: boolean
  rating: number | null
  review_count: number | null
  thc_percentage: number | null
  cbd_percentage: number | null
  total_cannabinoids_percentage: number | null
  smokeback_percentage: number | null
  weight_grams: number | null
  is_cannabis: boolean
  limit_class: 'flower' | 'concentrate' | null
  /** As entered: null counts the weight. */
  limit_grams: number | null
  thc_mg: number | null
  cbd_mg: number | null
  servings: number | null
  /** The Metrc package it is sold from now (docs/decisions/054-metrc-sales-export.md). */
  metrc_package_tag: string | null
  metrc_unit: MetrcUnit | null
  created_at: string
  updated_at: string
  brand_id: string | null
  category_id: string | null
  product_type_id: string | null
  brand: Ref
  category: Ref
  product_type: Ref
  product_media: AdminMediaRow[]
  product_effects: { id: string; effect_name: string }[]
  terpene_profiles: { id: string; terpene_name: string; percentage: number | null }[]
}

/** Current names of brands, categories and product types on the device, by id. */
export type ReferenceNames = ReadonlyMap<string, string>

/**
 * The table's row from the device's admin product document. A reference's name comes from the
 * device's current lists when it holds the row, else from the name pulled with the product.
 */
export function adminProductDocToRow(
  doc: AdminProductDoc,
  names: ReferenceNames = new Map(),
): AdminProductRow {
  const reference = (id: string | null | undefined, pulled: Ref | undefined): Ref => {
    if (!id) return null
    const name = names.get(id) ?? (pulled?.id === id ? pulled.name : undefined)
    return name === undefined ? null : { id, name }
  }
  return {
    id: doc.id,
    name: doc.name,
    slug: doc.slug,
    sku: doc.sku,
    description: doc.description ?? null,
    price: doc.price ?? null,
    original_price: doc.originalPrice ?? null,
    quantity_available: doc.quantity ?? null,
    is_unlimited_quantity: doc.unlimited,
    is_active: doc.isActive,
    is_on_sale: doc.isOnSale,
    is_featured: doc.isFeatured,
    rating: doc.rating ?? null,
    review_count: doc.reviewCount ?? null,
    thc_percentage: doc.thc ?? null,
    cbd_percentage: doc.cbd ?? null,
    total_cannabinoids_percentage: doc.totalCannabinoids ?? null,
    smokeback_percentage: doc.smokeback ?? null,
    weight_grams: doc.weightGrams ?? null,
    is_cannabis: doc.isCannabis,
    limit_class:
      doc.limitClass === 'flower' || doc.limitClass === 'concentrate' ? doc.limitClass : null,
    limit_grams: doc.limitGrams ?? null,
    thc_mg: doc.thcMg ?? null,
    cbd_mg: doc.cbdMg ?? null,
    servings: doc.servings ?? null,
    metrc_package_tag: doc.metrcPackageTag ?? null,
    metrc_unit: metrcUnitOf(doc.metrcUnit),
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
    brand_id: doc.brandId ?? null,
    category_id: doc.categoryId ?? null,
    product_type_id: doc.productTypeId ?? null,
    brand: reference(doc.brandId, doc.brand),
    category: reference(doc.categoryId, doc.category),
    product_type: reference(doc.productTypeId, doc.productType),
    product_media: doc.media.map((m) => ({
      id: m.id,
      media_url: m.path,
      media_type: m.type,
      is_primary: m.isPrimary,
      display_order: m.displayOrder,
    })),
    product_effects: doc.effects.map((e) => ({ id: e.id, effect_name: e.name })),
    terpene_profiles: doc.terpenes.map((t) => ({
      id: t.id,
      terpene_name: t.name,
      percentage: t.percentage ?? null,
    })),
  }
}

export function primaryMedia(row: AdminProductRow): AdminMediaRow | undefined {
  return row.product_media.find((m) => m.is_primary) ?? row.product_media[0]
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n))

/** The form's starting values for editing a product. */
export function formValuesOf(row: AdminProductRow): ProductFormValues {
  return {
    sku: row.sku ?? '',
    name: row.name ?? '',
    description: row.description ?? '',
    brand_id: row.brand_id ?? '',
    category_id: row.category_id ?? '',
    product_type_id: row.product_type_id ?? '',
    price: text(row.price),
    original_price: text(row.original_price),
    weight_grams: text(row.weight_grams),
    quantity_available: text(row.quantity_available),
    thc_percentage: text(row.thc_percentage),
    cbd_percentage: text(row.cbd_percentage),
    total_cannabinoids_percentage: text(row.total_cannabinoids_percentage),
    smokeback_percentage: text(row.smokeback_percentage),
    is_unlimited_quantity: row.is_unlimited_quantity,
    is_on_sale: row.is_on_sale,
    is_active: row.is_active,
    is_featured: row.is_featured,
    effects: row.product_effects.map((e) => e.effect_name),
    terpenes: row.terpene_profiles.map((t) => ({
      name: t.terpene_name,
      percentage: text(t.percentage),
    })),
    is_cannabis: row.is_cannabis,
    limit_class: row.limit_class ?? 'none',
    limit_grams: text(row.limit_grams),
    thc_mg: text(row.thc_mg),
    cbd_mg: text(row.cbd_mg),
    servings: text(row.servings),
    metrc_package_tag: row.metrc_package_tag ?? '',
    metrc_unit: row.metrc_unit ?? '',
  }
}

export type SaveMedia = {
  id?: string
  media_url: string
  media_type: 'image' | 'video'
  is_primary: boolean
  display_order: number
}

export type SaveProductPayload = {
  id: string
  is_new?: boolean
  sku: string
  name: string
  description: string | null
  brand_id: string | null
  category_id: string | null
  product_type_id: string | null
  price: number | null
  original_price: number | null
  weight_grams: number | null
  quantity_available: number | null
  is_unlimited_quantity: boolean
  thc_percentage: number | null
  cbd_percentage: number | null
  total_cannabinoids_percentage: number | null
  smokeback_percentage: number | null
  is_on_sale: boolean
  is_active: boolean
  is_featured: boolean
  effects: string[]
  terpenes: { name: string; percentage: number | null }[]
  media: SaveMedia[]
  metrc_package_tag: string | null
  metrc_unit: MetrcUnit | null
} & ProductFacts

/** What the law needs to know of a product (docs/decisions/051-california-taxes-and-daily-limits.md), as admin_save_product takes it. */
export type ProductFacts = {
  is_cannabis: boolean
  limit_class: 'flower' | 'concentrate' | null
  limit_grams: number | null
  thc_mg: number | null
  cbd_mg: number | null
  servings: number | null
}

export const PRODUCT_FACT_KEYS = [
  'is_cannabis',
  'limit_class',
  'limit_grams',
  'thc_mg',
  'cbd_mg',
  'servings',
] as const satisfies readonly (keyof ProductFacts)[]

export const limitClassOf = (choice: LimitClassChoice) => (choice === 'none' ? null : choice)

/** SPEC.md §5: empty or zero numeric values are sent as null. */
const orNull = (n: number | undefined) => (n === undefined || n === 0 ? null : n)

export function buildSavePayload(
  form: ProductFormOutput,
  options: { id: string; isNew: boolean; media: SaveMedia[] },
): SaveProductPayload {
  return {
    id: options.id,
    ...(options.isNew ? { is_new: true } : {}),
    sku: form.sku,
    name: form.name,
    description: form.description === '' ? null : form.description,
    brand_id: form.brand_id || null,
    category_id: form.category_id || null,
    product_type_id: form.product_type_id || null,
    price: orNull(form.price),
    original_price: orNull(form.original_price),
    weight_grams: orNull(form.weight_grams),
    // With unlimited stock on, the quantity is sent as null (SPEC.md §4).
    quantity_available: form.is_unlimited_quantity ? null : orNull(form.quantity_available),
    is_unlimited_quantity: form.is_unlimited_quantity,
    thc_percentage: orNull(form.thc_percentage),
    cbd_percentage: orNull(form.cbd_percentage),
    total_cannabinoids_percentage: orNull(form.total_cannabinoids_percentage),
    smokeback_percentage: orNull(form.smokeback_percentage),
    is_on_sale: form.is_on_sale,
    is_active: form.is_active,
    is_featured: form.is_featured,
    effects: form.effects.map((e) => e.trim()).filter(Boolean),
    // Blank-named terpenes are dropped on submit (SPEC.md §5).
    terpenes: form.terpenes
      .map((t) => ({ name: t.name.trim(), percentage: orNull(t.percentage) }))
      .filter((t) => t.name !== ''),
    media: options.media,
    is_cannabis: form.is_cannabis,
    limit_class: limitClassOf(form.limit_class),
    // Empty counts the weight; 0 is sent as null like every other number (SPEC.md §5).
    limit_grams: orNull(form.limit_grams),
    thc_mg: orNull(form.thc_mg),
    cbd_mg: orNull(form.cbd_mg),
    servings: form.servings ?? null,
    metrc_package_tag: form.metrc_package_tag === '' ? null : form.metrc_package_tag,
    metrc_unit: form.metrc_unit === '' ? null : form.metrc_unit,
  }
}

/**
 * The media list to save (SPEC.md §4): kept existing rows with the chosen primary, then the new
 * uploads. On create the first upload is primary and display orders are the indexes; on update
 * new files continue after the highest display order and are primary only if nothing was kept.
 */
export function mergeMedia(
  kept: readonly AdminMediaRow[],
  uploaded: readonly { path: string; type: 'image' | 'video' }[],
  primaryId: string | null,
): SaveMedia[] {
  const existing: SaveMedia[] = kept.map((m) => ({
    id: m.id,
    media_url: m.media_url,
    media_type: m.media_type,
    is_primary: primaryId ? m.id === primaryId : m.is_primary,
    display_order: m.display_order ?? 0,
  }))
  if (existing.length > 0 && !existing.some((m) => m.is_primary)) existing[0]!.is_primary = true
  const start = existing.length ? Math.max(...existing.map((m) => m.display_order)) + 1 : 0
  const added = uploaded.map((file, index) => ({
    media_url: file.path,
    media_type: file.type,
    is_primary: existing.length === 0 && index === 0,
    display_order: start + index,
  }))
  return [...existing, ...added]
}

export function mediaTypeOf(file: { type: string }): 'image' | 'video' {
  return file.type.startsWith('image/') ? 'image' : 'video'
}

/** `{productId}/{timestamp}-{random}.{ext}` (SPEC.md §7), the extension from the file name. */
export function uploadPath(productId: string, fileName: string, now = Date.now()): string {
  const ext = fileName.includes('.') ? fileName.split('.').pop()!.toLowerCase() : 'bin'
  const random = Math.random().toString(36).slice(2, 10)
  return `${productId}/${now}-${random}.${ext}`
}

export type StockLevel = 'unlimited' | 'normal' | 'low' | 'out'

/** SPEC.md §9: more than 10 normal, 1 to 10 low, 0 out. */
export function stockLevel(
  row: Pick<AdminProductRow, 'is_unlimited_quantity' | 'quantity_available'>,
): StockLevel {
  if (row.is_unlimited_quantity) return 'unlimited'
  const q = row.quantity_available ?? 0
  if (q <= 0) return 'out'
  return q > 10 ? 'normal' : 'low'
}

export type ProductSortKey = 'name' | 'price' | 'quantity_available'

/** SPEC.md §9's admin sort: name case-insensitive, missing numbers count as 0. */
export function sortProducts(
  rows: readonly AdminProductRow[],
  key: ProductSortKey,
  direction: 'asc' | 'desc',
): AdminProductRow[] {
  const sign = direction === 'asc' ? 1 : -1
  return [...rows].sort((a, b) => {
    if (key === 'name') return sign * a.name.toLowerCase().localeCompare(b.name.toLowerCase())
    return sign * ((a[key] ?? 0) - (b[key] ?? 0))
  })
}

export function searchProducts(rows: readonly AdminProductRow[], query: string): AdminProductRow[] {
  const q = query.trim().toLowerCase()
  if (!q) return [...rows]
  return rows.filter((row) =>
    [row.name, row.sku, row.description ?? '', row.brand?.name ?? '', row.category?.name ?? '']
      .join(' ')
      .toLowerCase()
      .includes(q),
  )
}
