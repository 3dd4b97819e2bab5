// The API's database types in the shape `supabase gen types typescript` produces, for typed
// supabase-js clients in the backend's own tests (and a reference for the app's data layer).
// Keep in step with supabase/migrations. Type aliases, not interfaces: supabase-js needs rows
// to be assignable to Record<string, unknown>.

type Timestamp = string
type Uuid = string

type SyncColumns = {
  _modified: Timestamp
  _deleted: boolean
}

type Writable<Row, Required extends keyof Row> = Pick<Row, Required> & Partial<Omit<Row, Required>>

type Relationship<Name extends string, Column extends string, Referenced extends string> = {
  foreignKeyName: Name
  columns: [Column]
  isOneToOne: false
  referencedRelation: Referenced
  referencedColumns: ['id']
}

export type CategoryRow = SyncColumns & {
  id: Uuid
  name: string
  slug: string
  description: string | null
  display_order: number | null
  is_active: boolean
  created_at: Timestamp
  updated_at: Timestamp
}

export type BrandRow = SyncColumns & {
  id: Uuid
  name: string
  slug: string
  description: string | null
  founded_year: number | null
  logo_url: string | null
  is_active: boolean
  created_at: Timestamp
  updated_at: Timestamp
}

export type ProductTypeRow = SyncColumns & {
  id: Uuid
  name: string
  description: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

export type ProductRow = SyncColumns & {
  id: Uuid
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
  review_count: number
  thc_percentage: number | null
  cbd_percentage: number | null
  total_cannabinoids_percentage: number | null
  smokeback_percentage: number | null
  weight_grams: number | null
  brand_id: Uuid | null
  category_id: Uuid | null
  product_type_id: Uuid | null
  created_at: Timestamp
  updated_at: Timestamp
}

export type ProductMediaRow = SyncColumns & {
  id: Uuid
  product_id: Uuid
  media_url: string
  media_type: 'image' | 'video'
  is_primary: boolean
  display_order: number
  created_at: Timestamp
}

export type ProductEffectRow = SyncColumns & {
  id: Uuid
  product_id: Uuid
  effect_name: string
  created_at: Timestamp
}

export type TerpeneProfileRow = SyncColumns & {
  id: Uuid
  product_id: Uuid
  terpene_name: string
  percentage: number | null
  created_at: Timestamp
}

export type UserProfileRow = SyncColumns & {
  user_id: Uuid
  role: 'admin' | 'customer'
  created_at: Timestamp
}

/** One element of pull_products(): a full product, or a tombstone for an inactive/deleted one. */
export type PulledProduct =
  | (Omit<ProductRow, 'brand_id' | 'category_id' | 'product_type_id' | '_deleted'> & {
      _deleted: false
      brand: { id: Uuid; name: string; slug: string } | null
      category: { id: Uuid; name: string; slug: string } | null
      product_type: { id: Uuid; name: string } | null
      product_media: Pick<
        ProductMediaRow,
        'id' | 'media_url' | 'media_type' | 'is_primary' | 'display_order'
      >[]
      product_effects: Pick<ProductEffectRow, 'id' | 'effect_name'>[]
      terpene_profiles: Pick<TerpeneProfileRow, 'id' | 'terpene_name' | 'percentage'>[]
    })
  | { id: Uuid; _modified: Timestamp; _deleted: true }

export type PullProductsResult = {
  rows: PulledProduct[]
  behind: PulledProduct[]
}

export type Database = {
  public: {
    Tables: {
      categories: {
        Row: CategoryRow
        Insert: Writable<CategoryRow, 'name' | 'slug'>
        Update: Partial<CategoryRow>
        Relationships: []
      }
      brands: {
        Row: BrandRow
        Insert: Writable<BrandRow, 'name' | 'slug'>
        Update: Partial<BrandRow>
        Relationships: []
      }
      product_types: {
        Row: ProductTypeRow
        Insert: Writable<ProductTypeRow, 'name'>
        Update: Partial<ProductTypeRow>
        Relationships: []
      }
      products: {
        Row: ProductRow
        Insert: Writable<ProductRow, 'name' | 'slug' | 'sku'>
        Update: Partial<ProductRow>
        Relationships: [
          Relationship<'products_brand_id_fkey', 'brand_id', 'brands'>,
          Relationship<'products_category_id_fkey', 'category_id', 'categories'>,
          Relationship<'products_product_type_id_fkey', 'product_type_id', 'product_types'>,
        ]
      }
      product_media: {
        Row: ProductMediaRow
        Insert: Writable<ProductMediaRow, 'product_id' | 'media_url'>
        Update: Partial<ProductMediaRow>
        Relationships: [Relationship<'product_media_product_id_fkey', 'product_id', 'products'>]
      }
      product_effects: {
        Row: ProductEffectRow
        Insert: Writable<ProductEffectRow, 'product_id' | 'effect_name'>
        Update: Partial<ProductEffectRow>
        Relationships: [Relationship<'product_effects_product_id_fkey', 'product_id', 'products'>]
      }
      terpene_profiles: {
        Row: TerpeneProfileRow
        Insert: Writable<TerpeneProfileRow, 'product_id' | 'terpene_name'>
        Update: Partial<TerpeneProfileRow>
        Relationships: [Relationship<'terpene_profiles_product_id_fkey', 'product_id', 'products'>]
      }
      user_profiles: {
        Row: UserProfileRow
        Insert: Writable<UserProfileRow, 'user_id'>
        Update: Partial<UserProfileRow>
        Relationships: []
      }
    }
    Views: { [_ in never]: never }
    Functions: {
      is_admin: { Args: { [_ in never]: never }; Returns: boolean }
      pull_products: {
        Args: {
          after_modified?: Timestamp
          after_id?: Uuid
          max_rows?: number
          behind_from?: Timestamp
        }
        Returns: PullProductsResult
      }
    }
    Enums: { [_ in never]: never }
    CompositeTypes: { [_ in never]: never }
  }
}
