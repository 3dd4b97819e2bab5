/**
 * The admin device's product replication: every product, inactive ones included, pulled through
 * `pull_products_admin` into `admin_products` while an admin is signed in, so the Products tab
 * works from the device (and offline). Pull only: saves go through `admin_save_product` and
 * `admin_import_products` on the server, and come back by this pull.
 */
import type { WithDeleted } from 'rxdb'
import type { RpcClient } from '../backend-client'
import type { HumoDatabase } from '../database'
import type { AdminProductDoc } from '../schemas/admin-product.schema'
import type { ProductRow } from './product-row'
import { replicateByRpc, type PullReplication, type ReplicatePullOptions } from './rpc-pull'

export type AdminProductWireRow = ProductRow & {
  is_active?: boolean | null
  brand_id?: string | null
  category_id?: string | null
  product_type_id?: string | null
  metrc_package_tag?: string | null
  metrc_unit?: string | null
}

function num(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? n : null
}

const ref = (r: { id: string; name: string } | null | undefined) =>
  r ? { id: r.id, name: r.name } : null

/** A tombstone row (deleted on the server) removes the product from the device. */
export function adminProductRowToDoc(row: AdminProductWireRow): WithDeleted<AdminProductDoc> {
  return {
    id: row.id,
    name: row.name ?? '',
    slug: row.slug ?? row.id,
    sku: row.sku ?? '',
    description: row.description ?? null,
    price: num(row.price),
    originalPrice: num(row.original_price),
    quantity: row.quantity_available ?? null,
    unlimited: Boolean(row.is_unlimited_quantity),
    isActive: row.is_active ?? true,
    isOnSale: Boolean(row.is_on_sale),
    isFeatured: Boolean(row.is_featured),
    rating: num(row.rating),
    reviewCount: row.review_count ?? null,
    thc: num(row.thc_percentage),
    cbd: num(row.cbd_percentage),
    totalCannabinoids: num(row.total_cannabinoids_percentage),
    smokeback: num(row.smokeback_percentage),
    weightGrams: num(row.weight_grams),
    // A server from before the facts: cannabis, counted toward no limit (it enforces its own).
    isCannabis: row.is_cannabis !== false,
    limitClass:
      row.limit_class === 'flower' || row.limit_class === 'concentrate' ? row.limit_class : null,
    // Kept as entered (unlike the storefront's document): the form shows an empty field as "the weight".
    limitGrams: num(row.limit_grams),
    thcMg: num(row.thc_mg),
    cbdMg: num(row.cbd_mg),
    servings: num(row.servings),
    metrcPackageTag: row.metrc_package_tag ?? null,
    metrcUnit: row.metrc_unit ?? null,
    brandId: row.brand_id ?? row.brand?.id ?? null,
    categoryId: row.category_id ?? row.category?.id ?? null,
    productTypeId: row.product_type_id ?? row.product_type?.id ?? null,
    brand: ref(row.brand),
    category: ref(row.category),
    productType: ref(row.product_type),
    media: [...(row.product_media ?? [])]
      .sort((a, b) => (a.display_order ?? 0) - (b.display_order ?? 0))
      .map((m) => ({
        id: m.id,
        path: m.media_url,
        type: m.media_type === 'video' ? ('video' as const) : ('image' as const),
        isPrimary: Boolean(m.is_primary),
        displayOrder: m.display_order ?? 0,
      })),
    effects: (row.product_effects ?? []).map((e) => ({ id: e.id, name: e.effect_name })),
    terpenes: (row.terpene_profiles ?? []).map((t) => ({
      id: t.id,
      name: t.terpene_name,
      percentage: num(t.percentage),
    })),
    createdAt: row.created_at ?? row._modified,
    updatedAt: row.updated_at ?? row._modified,
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}

export function replicateAdminProducts(
  supabase: RpcClient,
  db: HumoDatabase,
  options: ReplicatePullOptions,
): PullReplication<AdminProductDoc> {
  return replicateByRpc<AdminProductDoc, AdminProductWireRow>(
    supabase,
    { rpc: 'pull_products_admin', collection: db.admin_products, toDoc: adminProductRowToDoc },
    options,
  )
}
