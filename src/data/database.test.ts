import { afterEach, describe, expect, it } from 'vitest'
import { createTestDatabase, testStorage } from '../../tests/fixtures/memory-database'
import {
  adminCollectionsOpen,
  createHumoDatabase,
  openAdminCollections,
  STOREFRONT_COLLECTIONS,
  type HumoDatabase,
} from './database'
import { productRowToDoc } from './replication/product-row'

const opened: HumoDatabase[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()))
})

function product(id: string, name: string, category: string) {
  const { _deleted, ...doc } = productRowToDoc({
    id,
    _modified: '2026-11-22T20:00:00.000001+00:00',
    _deleted: false,
    name,
    slug: name.toLowerCase().replace(/\s+/g, '-'),
    price: 25,
    category: { id: `c-${category}`, name: category, slug: category },
  })
  void _deleted
  return doc
}

describe('device database (RxDB on Dexie, fake-indexeddb)', () => {
  it('stores products that validate against the schema and finds them by category', async () => {
    const { db } = await createTestDatabase()
    opened.push(db)
    await db.products.bulkInsert([
      product('p1', 'Blue Dream', 'flower'),
      product('p2', 'Mango Gummies', 'edibles'),
      product('p3', 'OG Kush', 'flower'),
    ])
    const flower = await db.products.find({ selector: { categorySlug: 'flower' } }).exec()
    expect(flower.map((d) => d.name).sort()).toEqual(['Blue Dream', 'OG Kush'])
    const bySlug = await db.products.findOne({ selector: { slug: 'mango-gummies' } }).exec()
    expect(bySlug?.id).toBe('p2')
  })

  it('accepts every cent price (74.99 is not a float multiple of 0.01)', async () => {
    const { db } = await createTestDatabase()
    opened.push(db)
    const prices = Array.from({ length: 2000 }, (_, i) => Math.round(i * 101 + 99) / 100)
    await db.products.bulkInsert(
      prices.map((price, i) => ({ ...product(`p${i}`, `P ${i}`, 'flower'), price })),
    )
    expect(await db.products.count().exec()).toBe(prices.length)
    expect((await db.products.findOne('p74').exec())?.price).toBe(prices[74])
  })

  it('refuses a document that breaks the schema', async () => {
    const { db } = await createTestDatabase()
    opened.push(db)
    const bad = { ...product('p9', 'Bad', 'flower'), price: -5 }
    await expect(db.products.insert(bad)).rejects.toThrow()
  })

  it('keeps documents across a reopen of the same storage (a reload)', async () => {
    const first = await createTestDatabase()
    await first.db.products.insert(product('p1', 'Blue Dream', 'flower'))
    await first.db.close()
    const again = await createTestDatabase(first.name)
    opened.push(again.db)
    expect(await again.db.products.count().exec()).toBe(1)
  })
})

describe('a start in slices (a copy of the page shows)', () => {
  it('opens the same collections one at a time, over the same stored data', async () => {
    const { db: first, name } = await createTestDatabase(undefined, STOREFRONT_COLLECTIONS)
    await first.products.insert(product('p1', 'Blue Dream', 'flower'))
    await first.close()

    // Whether each collection's storage opens alone (one per task) or beside the others.
    const base = testStorage()
    let opening = 0
    let mostAtOnce = 0
    const storage: typeof base = {
      ...base,
      async createStorageInstance(params) {
        mostAtOnce = Math.max(mostAtOnce, ++opening)
        try {
          return await base.createStorageInstance(params)
        } finally {
          opening--
        }
      },
    }
    const db = await createHumoDatabase({
      name,
      storage,
      only: STOREFRONT_COLLECTIONS,
      inSlices: true,
    })
    opened.push(db)

    expect(mostAtOnce).toBe(1)
    expect(Object.keys(db.collections).sort()).toEqual([...STOREFRONT_COLLECTIONS].sort())
    expect((await db.products.findOne('p1').exec())?.name).toBe('Blue Dream')
  })
})

describe('storefront start without the admin collections', () => {
  it('opens the admin collections on demand, once, keeping what the storefront holds', async () => {
    const { db } = await createTestDatabase(undefined, STOREFRONT_COLLECTIONS)
    opened.push(db)
    expect(adminCollectionsOpen(db)).toBe(false)
    expect('admin_orders' in db.collections).toBe(false)
    await db.products.insert(product('p1', 'Blue Dream', 'flower'))

    // Two mounts at once (StrictMode) must not add the same collection twice.
    await Promise.all([openAdminCollections(db), openAdminCollections(db)])
    expect(adminCollectionsOpen(db)).toBe(true)
    await db.order_notices.insert({
      id: 'n1',
      orderId: 'o1',
      attemptedFrom: 'pending',
      attemptedTo: 'processing',
      actualStatus: 'cancelled',
      message: 'Order changed elsewhere',
      createdAt: '2026-11-23T00:00:00.000Z',
      dismissed: false,
    })
    expect(await db.order_notices.count().exec()).toBe(1)
    expect(await db.products.count().exec()).toBe(1)
    await openAdminCollections(db) // already open: nothing to do
    expect(adminCollectionsOpen(db)).toBe(true)
  })
})
