/**
 * The device database: RxDB on Dexie (IndexedDB). Everything the UI shows is read from here;
 * the network only feeds it (replication) or drains it (push). One database per origin.
 */
import {
  addRxPlugin,
  createRxDatabase,
  type RxCollectionCreator,
  type RxCollection,
  type RxDatabase,
  type RxStorage,
} from 'rxdb'
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election'
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents'
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie'
import { yieldToMain } from '../lib/yield-to-main'
import type { AdminOrderDoc } from './schemas/admin-order.schema'
import type { AdminProductDoc } from './schemas/admin-product.schema'
import { brandSchema, type BrandDoc } from './schemas/brand.schema'
import {
  cartLineMigrationStrategies,
  cartLineSchema,
  type CartLineDoc,
} from './schemas/cart-line.schema'
import { categorySchema, type CategoryDoc } from './schemas/category.schema'
import { contactMessageSchema, type ContactMessageDoc } from './schemas/contact-message.schema'
import type { OrderNoticeDoc } from './schemas/order-notice.schema'
import { orderMigrationStrategies, orderSchema, type OrderDoc } from './schemas/order.schema'
import { productTypeSchema, type ProductTypeDoc } from './schemas/product-type.schema'
import {
  productMigrationStrategies,
  productSchema,
  type ProductDoc,
} from './schemas/product.schema'
import {
  shopSettingsMigrationStrategies,
  shopSettingsSchema,
  type ShopSettingsDoc,
} from './schemas/shop-settings.schema'

// Only the leader tab replicates (replications wait for leadership; so does the order outbox).
addRxPlugin(RxDBLeaderElectionPlugin)
// The guest checkout draft and small device settings are local documents.
addRxPlugin(RxDBLocalDocumentsPlugin)

export type HumoCollections = {
  products: RxCollection<ProductDoc>
  categories: RxCollection<CategoryDoc>
  brands: RxCollection<BrandDoc>
  product_types: RxCollection<ProductTypeDoc>
  cart_lines: RxCollection<CartLineDoc>
  orders: RxCollection<OrderDoc>
  admin_orders: RxCollection<AdminOrderDoc>
  admin_products: RxCollection<AdminProductDoc>
  order_notices: RxCollection<OrderNoticeDoc>
  contact_messages: RxCollection<ContactMessageDoc>
  shop_settings: RxCollection<ShopSettingsDoc>
}
export type HumoDatabase = RxDatabase<HumoCollections>

export type CreateDatabaseOptions = {
  name?: string
  /** Tests pass Dexie storage over fake-indexeddb; the app uses the browser's IndexedDB. */
  storage?: RxStorage<unknown, unknown>
  /**
   * Open only these collections. Tests that simulate several devices in one process need it:
   * RxDB's open core allows 13 collections per process, across databases.
   */
  only?: readonly (keyof HumoCollections)[]
  /**
   * Open the collections one per task. Each collection's schema is normalised and its Dexie
   * table opened on the main thread (~40 ms for all at once on this machine, four times that
   * on a slow phone); in slices, taps are answered between them. Costs a few milliseconds
   * more in all, so only a start that is not waited on (the server's copy shows) asks for it.
   */
  inSlices?: boolean
}

const STOREFRONT_DEFINITIONS = {
  products: { schema: productSchema, migrationStrategies: productMigrationStrategies },
  categories: { schema: categorySchema },
  brands: { schema: brandSchema },
  product_types: { schema: productTypeSchema },
  cart_lines: { schema: cartLineSchema, migrationStrategies: cartLineMigrationStrategies },
  orders: { schema: orderSchema, migrationStrategies: orderMigrationStrategies },
  contact_messages: { schema: contactMessageSchema },
  shop_settings: {
    schema: shopSettingsSchema,
    migrationStrategies: shopSettingsMigrationStrategies,
  },
}

/**
 * The definitions of `names`. The admin's (./admin-collections.ts: schemas and the conflict rule)
 * are their own chunk, fetched only when asked for: a shopper's device never opens them.
 */
async function definitionsOf(db: HumoDatabase, names: readonly (keyof HumoCollections)[]) {
  const admin = names.some((name) => (ADMIN_COLLECTIONS as readonly string[]).includes(name))
    ? (await import('./admin-collections')).adminCollectionDefinitions(db)
    : {}
  const all: Record<string, RxCollectionCreator> = { ...STOREFRONT_DEFINITIONS, ...admin }
  return Object.fromEntries(names.map((name) => [name, all[name]!]))
}

/** What an admin device holds only while an admin is signed in. */
export const ADMIN_COLLECTIONS = ['admin_orders', 'order_notices', 'admin_products'] as const

/**
 * What the storefront opens at start. Each collection is an IndexedDB database of its own under
 * Dexie, and opening the admin's three as well cost a cold start about 70 ms
 * (tests/bench/offline-start-bench.ts); the back office opens them when it mounts.
 */
export const STOREFRONT_COLLECTIONS = [
  'products',
  'categories',
  'brands',
  'product_types',
  'cart_lines',
  'orders',
  'contact_messages',
  'shop_settings',
] as const satisfies readonly (keyof HumoCollections)[]

export function adminCollectionsOpen(db: HumoDatabase): boolean {
  return ADMIN_COLLECTIONS.every((name) => name in db.collections)
}

/** Opens the admin's collections on a database the storefront opened without them. */
export async function openAdminCollections(db: HumoDatabase): Promise<void> {
  const missing = ADMIN_COLLECTIONS.filter((name) => !(name in db.collections))
  if (missing.length === 0) return
  // Two callers at once (StrictMode, a second hook) would both add the same collection.
  let opening = adminOpening.get(db)
  if (!opening) {
    opening = Promise.all([
      definitionsOf(db, missing),
      // Not marked by the storefront's start: they may hold documents of an older version.
      loadMigrationPlugin(),
    ])
      .then(([definitions]) => db.addCollections(definitions))
      .then(() => undefined)
      .finally(() => adminOpening.delete(db))
    adminOpening.set(db, opening)
  }
  await opening
}
const adminOpening = new WeakMap<HumoDatabase, Promise<void>>()

/**
 * Signing out of the admin (after its replications are cancelled): takes customer data and the
 * admin-only catalogue (inactive products) off the device. The collections are dropped with
 * their replication state and re-created empty, so the next sign-in pulls everything again
 * instead of resuming past the removed documents.
 */
export async function clearAdminData(db: HumoDatabase): Promise<void> {
  // A test database may open only some collections.
  const open = ADMIN_COLLECTIONS.filter((name) => name in db.collections)
  for (const name of open) await db[name].remove()
  await db.addCollections(await definitionsOf(db, open))
}

/**
 * A schema that gains fields gets a new version and a migration strategy in its schema file, so a
 * device's stored documents (a queued order above all) are carried over, never dropped. RxDB's
 * migration plugin costs every start 3 KB gzipped that only the first start after such a change
 * needs, so it is its own chunk, fetched when the device may hold collections of older versions.
 */
let migrationPlugin: Promise<void> | null = null
export function loadMigrationPlugin(): Promise<void> {
  migrationPlugin ??= import('rxdb/plugins/migration-schema').then(
    ({ RxDBMigrationSchemaPlugin }) => addRxPlugin(RxDBMigrationSchemaPlugin),
  )
  return migrationPlugin
}

/** The schema versions this device's database was last opened with (see mayHoldOlderSchemas). */
const SCHEMA_MARK_KEY = 'humo.schema-versions'
const SCHEMA_MARK = Object.values(STOREFRONT_DEFINITIONS)
  .map(({ schema }) => `${schema.title}@${schema.version}`)
  .join(',')

/**
 * Whether opening the database may need to migrate documents: not when the device last opened it
 * with today's schemas, nor when the browser holds no database of ours yet (a first visit). In
 * doubt (tests' storages, no localStorage, no indexedDB.databases()), yes.
 */
async function mayHoldOlderSchemas(name: string, customStorage: boolean): Promise<boolean> {
  if (customStorage || typeof localStorage === 'undefined' || typeof indexedDB === 'undefined')
    return true
  try {
    if (localStorage.getItem(SCHEMA_MARK_KEY) === SCHEMA_MARK) return false
    if (typeof indexedDB.databases !== 'function') return true
    const existing = await indexedDB.databases()
    return existing.some((db) => db.name?.startsWith(`rxdb-dexie-${name}--`))
  } catch {
    return true
  }
}

function markSchemas(customStorage: boolean): void {
  if (customStorage || typeof localStorage === 'undefined') return
  try {
    localStorage.setItem(SCHEMA_MARK_KEY, SCHEMA_MARK)
  } catch {
    // storage full or blocked: the next start checks again and loads the plugin in doubt
  }
}

export async function createHumoDatabase(
  options: CreateDatabaseOptions = {},
): Promise<HumoDatabase> {
  const name = options.name ?? 'humo'
  const customStorage = options.storage !== undefined
  const names: readonly (keyof HumoCollections)[] = options.only ?? [
    ...STOREFRONT_COLLECTIONS,
    ...ADMIN_COLLECTIONS,
  ]
  const withAdmin = names.some((n) => (ADMIN_COLLECTIONS as readonly string[]).includes(n))
  const migrate = withAdmin || (await mayHoldOlderSchemas(name, customStorage))
  if (migrate) await loadMigrationPlugin()
  const db = await createRxDatabase<HumoCollections>({
    name,
    storage: options.storage ?? getRxStorageDexie(),
    multiInstance: true,
    // The guest checkout draft is a local document: one per device, never replicated.
    localDocuments: true,
    eventReduce: true,
    // NOTE: a second tab opening the same database is normal for a shop; not an error.
    ignoreDuplicate: false,
    closeDuplicates: true,
  })
  // RxDB asks the (absent) plugin whether to migrate any collection of a version above 0.
  const wanted = Object.fromEntries(
    Object.entries(await definitionsOf(db, names)).map(([collection, definition]) => [
      collection,
      { ...definition, autoMigrate: migrate },
    ]),
  )
  if (!options.inSlices) {
    await db.addCollections(wanted)
  } else {
    for (const [collection, definition] of Object.entries(wanted)) {
      await yieldToMain()
      await db.addCollections({ [collection]: definition })
    }
  }
  markSchemas(customStorage)
  return db
}
