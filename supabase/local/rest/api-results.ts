// What the API's jsonb functions return, typed by hand: the generated api-types.ts can only say
// `Json` for them. Built from the generated row types so a renamed or retyped column shows up
// here too. Re-exported from api-types.ts. Type aliases, not interfaces: supabase-js needs rows to
// be assignable to Record<string, unknown>.
import type { Tables } from './api-types.ts'

type ProductMedia = Tables<'product_media'>

/** The product columns pull_products() copies into a full document. */
type PulledProductColumns = Pick<
  Tables<'products'>,
  | 'id'
  | 'name'
  | 'slug'
  | 'sku'
  | 'description'
  | 'price'
  | 'original_price'
  | 'quantity_available'
  | 'is_unlimited_quantity'
  | 'is_active'
  | 'is_on_sale'
  | 'is_featured'
  | 'rating'
  | 'review_count'
  | 'thc_percentage'
  | 'cbd_percentage'
  | 'total_cannabinoids_percentage'
  | 'smokeback_percentage'
  | 'weight_grams'
  | 'created_at'
  | 'updated_at'
  | '_modified'
>

/** One element of pull_products(): a full product, or a tombstone for an inactive/deleted one. */
export type PulledProduct =
  | (PulledProductColumns & {
      _deleted: false
      brand: Pick<Tables<'brands'>, 'id' | 'name' | 'slug'> | null
      category: Pick<Tables<'categories'>, 'id' | 'name' | 'slug'> | null
      product_type: Pick<Tables<'product_types'>, 'id' | 'name'> | null
      product_media: (Pick<ProductMedia, 'id' | 'media_url' | 'is_primary' | 'display_order'> & {
        // The table's check constraint; the generated type can only say string.
        media_type: 'image' | 'video'
      })[]
      product_effects: Pick<Tables<'product_effects'>, 'id' | 'effect_name'>[]
      terpene_profiles: Pick<Tables<'terpene_profiles'>, 'id' | 'terpene_name' | 'percentage'>[]
    })
  | { id: string; _modified: string; _deleted: true }

export type PullProductsResult = {
  rows: PulledProduct[]
  behind: PulledProduct[]
}
