/**
 * The device database: RxDB on Dexie (IndexedDB). Everything the UI shows is read from here;
 * the network only feeds it (replication) or drains it (push). One database per origin.
 */
import { createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb'
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie'
import { brandSchema, type BrandDoc } from './schemas/brand.schema'
import { cartLineSchema, type CartLineDoc } from './schemas/cart-line.schema'
import { categorySchema, type CategoryDoc } from './schemas/category.schema'
import { orderSchema, type OrderDoc } from './schemas/order.schema'
import { productTypeSchema, type ProductTypeDoc } from './schemas/product-type.schema'
import { productSchema, type ProductDoc } from './schemas/product.schema'

export type HumoCollections = {
  products: RxCollection<ProductDoc>
  categories: RxCollection<CategoryDoc>
  brands: RxCollection<BrandDoc>
  product_types: RxCollection<ProductTypeDoc>
  cart_lines: RxCollection<CartLineDoc>
  orders: RxCollection<OrderDoc>
}
export type HumoDatabase = RxDatabase<HumoCollections>

export type CreateDatabaseOptions = {
  name?: string
  /** Tests pass Dexie storage over fake-indexeddb; the app uses the browser's IndexedDB. */
  storage?: RxStorage<unknown, unknown>
}

export async function createHumoDatabase(
  options: CreateDatabaseOptions = {},
): Promise<HumoDatabase> {
  const db = await createRxDatabase<HumoCollections>({
    name: options.name ?? 'humo',
    storage: options.storage ?? getRxStorageDexie(),
    multiInstance: true,
    eventReduce: true,
    // NOTE: a second tab opening the same database is normal for a shop; not an error.
    ignoreDuplicate: false,
    closeDuplicates: true,
  })
  await db.addCollections({
    products: { schema: productSchema },
    categories: { schema: categorySchema },
    brands: { schema: brandSchema },
    product_types: { schema: productTypeSchema },
    cart_lines: { schema: cartLineSchema },
    orders: { schema: orderSchema },
  })
  return db
}
