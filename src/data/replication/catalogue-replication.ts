/**
 * The catalogue's replications: products, categories, brands and product types, each pulled
 * through its `pull_<table>` RPC into its collection, and the shop's settings (rates and facts)
 * with them. Shoppers never push the catalogue.
 */
import { yieldToMain } from '../../lib/yield-to-main'
import type { RpcClient } from '../backend-client'
import type { HumoDatabase } from '../database'
import type { BrandDoc } from '../schemas/brand.schema'
import type { CategoryDoc } from '../schemas/category.schema'
import type { ProductDoc } from '../schemas/product.schema'
import type { ProductTypeDoc } from '../schemas/product-type.schema'
import type { ShopSettingsDoc } from '../schemas/shop-settings.schema'
import { productRowToDoc, type ProductRow } from './product-row'
import {
  brandRowToDoc,
  categoryRowToDoc,
  productTypeRowToDoc,
  type BrandRow,
  type CategoryRow,
  type ProductTypeRow,
} from './reference-rows'
import { replicateByRpc, type PullReplication, type ReplicatePullOptions } from './rpc-pull'
import { shopSettingsRowToDoc } from './shop-settings-doc'
import type { ShopSettingsRow } from './shop-settings-row'

type Options = Omit<ReplicatePullOptions, 'identifier'> & { identifier?: string }

export function replicateProducts(
  supabase: RpcClient,
  db: HumoDatabase,
  options: Options = {},
): PullReplication<ProductDoc> {
  return replicateByRpc<ProductDoc, ProductRow>(
    supabase,
    { rpc: 'pull_products', collection: db.products, toDoc: productRowToDoc },
    { identifier: 'humo-products-v1', ...options },
  )
}

/** The shop's settings: one row, pulled like the catalogue (see pull_shop_settings). */
export function replicateShopSettings(
  supabase: RpcClient,
  db: HumoDatabase,
  options: Options = {},
): PullReplication<ShopSettingsDoc> {
  return replicateByRpc<ShopSettingsDoc, ShopSettingsRow>(
    supabase,
    { rpc: 'pull_shop_settings', collection: db.shop_settings, toDoc: shopSettingsRowToDoc },
    { identifier: 'humo-shop-settings-v1', ...options },
  )
}

/** All catalogue pulls (and the shop settings); `nudge` asks each for a pull now. */
export function replicateCatalogue(supabase: RpcClient, db: HumoDatabase, options: Options = {}) {
  const suffix = options.identifier ? `-${options.identifier}` : ''
  const replications = [
    replicateProducts(supabase, db, { ...options, identifier: `humo-products-v1${suffix}` }),
    replicateByRpc<CategoryDoc, CategoryRow>(
      supabase,
      { rpc: 'pull_categories', collection: db.categories, toDoc: categoryRowToDoc },
      { ...options, identifier: `humo-categories-v1${suffix}` },
    ),
    replicateByRpc<BrandDoc, BrandRow>(
      supabase,
      { rpc: 'pull_brands', collection: db.brands, toDoc: brandRowToDoc },
      { ...options, identifier: `humo-brands-v1${suffix}` },
    ),
    replicateByRpc<ProductTypeDoc, ProductTypeRow>(
      supabase,
      { rpc: 'pull_product_types', collection: db.product_types, toDoc: productTypeRowToDoc },
      { ...options, identifier: `humo-product-types-v1${suffix}` },
    ),
    replicateShopSettings(supabase, db, {
      ...options,
      identifier: `humo-shop-settings-v1${suffix}`,
    }),
    // A tuple: replications[0] stays typed as the products' replication.
  ] as const
  return {
    replications,
    // Each pull starts in a task of its own: all five at once, with the screens that show the
    // sync state re-rendering, made one long task of every live change.
    nudge: () => {
      void (async () => {
        for (const replication of replications) {
          replication.nudge()
          await yieldToMain()
        }
      })()
    },
    awaitInitial: () => Promise.all(replications.map((r) => r.awaitInitialReplication())),
    cancel: () => Promise.all(replications.map((r) => r.cancel())),
  }
}
