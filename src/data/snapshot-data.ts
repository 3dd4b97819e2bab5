/**
 * The data layer a storefront page renders from on the server (src/entry-server.tsx): a catalogue
 * snapshot behind the part of RxDB's collection API the screens read through (`find`, `findOne`
 * and `count` with Mango selectors and sorts, then `exec()` or `$`), answered at once, because a
 * server render has one synchronous pass (src/data/hooks/use-observable.ts reads `$` there).
 * It is read-only: a server render runs no actions. Queries match and sort with RxDB's own
 * query helpers, so the server page lists what the device's database will list.
 */
import { BehaviorSubject, of } from 'rxjs'
import {
  fillWithDefaultSettings,
  getQueryMatcher,
  getSortComparator,
  normalizeMangoQuery,
  type MangoQuery,
  type RxJsonSchema,
} from 'rxdb'
import type { BackendConfig } from './backend-config'
import { productRowToDoc, type ProductRow } from './replication/product-row'
import {
  brandRowToDoc,
  categoryRowToDoc,
  productTypeRowToDoc,
  type BrandRow,
  type CategoryRow,
  type ProductTypeRow,
} from './replication/reference-rows'
import { shopSettingsRowToDoc } from './replication/shop-settings-doc'
import type { ShopSettingsRow } from './replication/shop-settings-row'
import type { HumoDatabase } from './database'
import type { HumoData, SyncState } from './humo-data'
import { brandSchema, type BrandDoc } from './schemas/brand.schema'
import { categorySchema, type CategoryDoc } from './schemas/category.schema'
import { productTypeSchema, type ProductTypeDoc } from './schemas/product-type.schema'
import { productSchema, type ProductDoc } from './schemas/product.schema'
import { shopSettingsSchema, type ShopSettingsDoc } from './schemas/shop-settings.schema'

/** What the shop shows anyone: the documents a first pull brings to a device. */
export type CatalogueSnapshot = {
  products: ProductDoc[]
  categories: CategoryDoc[]
  brands: BrandDoc[]
  product_types: ProductTypeDoc[]
  shop_settings: ShopSettingsDoc[]
  /** When the server read it (the pulls' read_at). */
  readAt: string
}

/** The rows of a whole pull of each catalogue table, as the `pull_<table>` RPCs send them. */
export type CatalogueRows = {
  products: ProductRow[]
  categories: CategoryRow[]
  brands: BrandRow[]
  product_types: ProductTypeRow[]
  shop_settings: ShopSettingsRow[]
}

/** The documents a device would hold after pulling `rows`: mapped as the replication maps them. */
export function snapshotOf(rows: CatalogueRows, readAt: string): CatalogueSnapshot {
  const live = <D extends { _deleted: boolean }>(docs: D[]) =>
    docs.filter((doc) => !doc._deleted).map(({ _deleted, ...doc }) => doc)
  return {
    products: live(rows.products.map(productRowToDoc)),
    categories: live(rows.categories.map(categoryRowToDoc)),
    brands: live(rows.brands.map(brandRowToDoc)),
    product_types: live(rows.product_types.map(productTypeRowToDoc)),
    shop_settings: live(rows.shop_settings.map(shopSettingsRowToDoc)),
    readAt,
  }
}

type Doc = { [key: string]: unknown }
type SnapshotDocument = Doc & { toJSON(): Doc }

function asDocument(data: Doc): SnapshotDocument {
  // toJSON is not enumerable, so a spread or JSON of the document is the plain data again.
  return Object.defineProperty({ ...data }, 'toJSON', { value: () => data }) as SnapshotDocument
}

function snapshotCollection(plainSchema: RxJsonSchema<never>, docs: readonly Doc[]) {
  // As a collection holds it: its indexes end with the primary key, which orders a query
  // without a sort the way the device's storage returns it.
  const schema = fillWithDefaultSettings<never>(plainSchema)
  const documents = docs.map(asDocument)
  const primary = schema.primaryKey as string
  const select = (query: MangoQuery<never>) => {
    const filled = normalizeMangoQuery(schema, query)
    const matches = getQueryMatcher(schema, filled)
    const sorted = documents
      .filter((doc) => matches(doc as never))
      .sort(getSortComparator(schema, filled) as (a: Doc, b: Doc) => number)
    const skip = filled.skip ?? 0
    return sorted.slice(skip, filled.limit === undefined ? undefined : skip + filled.limit)
  }
  const answer = <T>(result: T) => ({ exec: () => Promise.resolve(result), $: of(result) })
  return {
    find: (query: MangoQuery<never> = {}) => answer(select(query)),
    findOne: (query: MangoQuery<never> | string = {}) =>
      answer(
        select(
          typeof query === 'string' ? { selector: { [primary]: query } } : { ...query, limit: 1 },
        )[0] ?? null,
      ),
    count: (query: MangoQuery<never> = {}) => answer(select(query).length),
  }
}

/**
 * A HumoData over `snapshot`: the catalogue collections hold it; the device's own collections
 * (cart, orders) are empty, as on a first visit; the sync state says synced, online.
 */
export function createSnapshotData(snapshot: CatalogueSnapshot, config: BackendConfig): HumoData {
  const schemas: Record<Exclude<keyof CatalogueSnapshot, 'readAt'>, RxJsonSchema<never>> = {
    products: productSchema,
    categories: categorySchema,
    brands: brandSchema,
    product_types: productTypeSchema,
    shop_settings: shopSettingsSchema,
  }
  const collections: Record<string, ReturnType<typeof snapshotCollection>> = {}
  for (const name of Object.keys(schemas) as (keyof typeof schemas)[])
    collections[name] = snapshotCollection(schemas[name], snapshot[name])
  const empty = snapshotCollection({ primaryKey: 'id' } as RxJsonSchema<never>, [])
  const db = new Proxy(collections, {
    get: (target, name) => (typeof name === 'string' ? (target[name] ?? empty) : undefined),
  })
  const sync: SyncState = {
    online: true,
    syncing: false,
    lastSyncedAt: snapshot.readAt,
    error: null,
    pendingOrders: 0,
  }
  return {
    // The screens reach the database through the collection API above only.
    db: db as unknown as HumoDatabase,
    config$: new BehaviorSubject<BackendConfig | null>(config),
    sync$: new BehaviorSubject(sync),
    firstSync: Promise.resolve(),
    resync: () => undefined,
  }
}
