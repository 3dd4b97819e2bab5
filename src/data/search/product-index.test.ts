import { afterEach, describe, expect, it } from 'vitest'
import { filter, firstValueFrom } from 'rxjs'
import { createTestDatabase } from '../../../tests/fixtures/memory-database'
import type { HumoDatabase } from '../database'
import { productRowToDoc } from '../replication/product-row'
import { productIndex, type SearchableProducts } from './product-index'

const opened: HumoDatabase[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()))
})

function product(id: string, name: string, type: string, modified = '2026-11-22T20:00:00+00') {
  const { _deleted, ...doc } = productRowToDoc({
    id,
    _modified: modified,
    _deleted: false,
    name,
    slug: id,
    price: 25,
    category: { id: 'c-flower', name: 'Flower', slug: 'flower' },
    product_type: { id: `t-${type}`, name: type },
  })
  void _deleted
  return doc
}

/** The index's next state that satisfies `ready`. */
const stateWhere = (db: HumoDatabase, ready: (index: SearchableProducts) => boolean) =>
  firstValueFrom(
    productIndex(db).pipe(filter((index): index is SearchableProducts => !!index && ready(index))),
  )

describe("the device's product index", () => {
  it('indexes the products on the device and follows inserts, changes and removals', async () => {
    const { db } = await createTestDatabase()
    opened.push(db)
    await db.products.bulkInsert([
      product('p1', 'Purple Kush', 'Indica'),
      product('p2', 'Sunrise Haze', 'Sativa'),
    ])
    const first = await stateWhere(db, (index) => index.size === 2)
    expect(first.search('indica').map((p) => p.name)).toEqual(['Purple Kush'])
    expect(productIndex(db)).toBe(productIndex(db)) // one index per device database

    await db.products.insert(product('p3', 'Sleepy Kush', 'Indica'))
    const added = await stateWhere(db, (index) => index.size === 3)
    expect(
      added
        .search('indica')
        .map((p) => p.name)
        .sort(),
    ).toEqual(['Purple Kush', 'Sleepy Kush'])

    await db.products.upsert(product('p2', 'Sunrise Diesel', 'Indica', '2026-11-23T20:00:00+00'))
    const changed = await stateWhere(db, (index) => index.search('diesel').length === 1)
    expect(changed.search('haze')).toEqual([])

    const gone = await db.products.findOne('p1').exec()
    await gone!.remove()
    const removed = await stateWhere(db, (index) => index.size === 2)
    expect(removed.search('purple')).toEqual([])
  })
})
