import { cartSnapshotOf } from '../../data/cart-lines'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../tests/fixtures/memory-database'
import type { HumoDatabase } from '../../data/database'
import { productRowToDoc } from '../../data/replication/product-row'
import type { ProductDoc } from '../../data/schemas/product.schema'
import {
  addToCart,
  clearCart,
  decrementCartLine,
  incrementCartLine,
  removeFromCart,
  setCartQuantity,
} from './cart.actions'

function product(id: string, price: number): ProductDoc {
  const { _deleted, ...doc } = productRowToDoc({
    id,
    _modified: '2026-11-22T20:00:00+00:00',
    _deleted: false,
    name: `Product ${id}`,
    slug: `product-${id}`,
    price,
    category: { id: 'c', name: 'Flower', slug: 'flower' },
    product_media: [
      {
        id: 'm',
        media_url: `${id}/a.svg`,
        media_type: 'image',
        is_primary: true,
        display_order: 0,
      },
    ],
  })
  void _deleted
  return doc
}

let db: HumoDatabase
beforeEach(async () => {
  db = (await createTestDatabase()).db
})
afterEach(async () => {
  await db.close()
})

const quantities = async () =>
  Object.fromEntries((await db.cart_lines.find().exec()).map((l) => [l.productId, l.quantity]))

describe('cart transitions (SPEC.md §4)', () => {
  it('appends a new line with the time of adding, and grows an existing one', async () => {
    const at = new Date('2026-11-22T10:00:00Z')
    await addToCart(db, product('a', 10), 1, () => at)
    await addToCart(db, product('a', 10), 2)
    await addToCart(db, product('b', 5))
    expect(await quantities()).toEqual({ a: 3, b: 1 })
    const line = await db.cart_lines.findOne('a').exec()
    expect(line?.addedAt).toBe(at.toISOString())
    expect(line?.product).toMatchObject({ name: 'Product a', price: 10, imagePath: 'a/a.svg' })
  })

  it('adds from two tabs at once without losing either quantity', async () => {
    await Promise.all([addToCart(db, product('a', 10), 1), addToCart(db, product('a', 10), 2)])
    expect(await quantities()).toEqual({ a: 3 })
  })

  it('removes a line, and removes it when its quantity is set to 0 or less', async () => {
    await addToCart(db, product('a', 10))
    await addToCart(db, product('b', 10))
    await addToCart(db, product('c', 10))
    await removeFromCart(db, 'a')
    await setCartQuantity(db, 'b', 0)
    await setCartQuantity(db, 'c', 4)
    expect(await quantities()).toEqual({ c: 4 })
    await setCartQuantity(db, 'c', -1)
    expect(await quantities()).toEqual({})
  })

  it('increments, and decrements down to removal at 1', async () => {
    await addToCart(db, product('a', 10))
    await incrementCartLine(db, 'a')
    expect(await quantities()).toEqual({ a: 2 })
    await decrementCartLine(db, 'a')
    expect(await quantities()).toEqual({ a: 1 })
    await decrementCartLine(db, 'a')
    expect(await quantities()).toEqual({})
  })

  it('clears every line', async () => {
    await addToCart(db, product('a', 10))
    await addToCart(db, product('b', 10))
    await clearCart(db)
    expect(await db.cart_lines.count().exec()).toBe(0)
  })
})

describe('the cart line picture', () => {
  const media = (path: string, order: number, primary = false) => ({
    id: path,
    path,
    type: 'image' as const,
    isPrimary: primary,
    displayOrder: order,
  })

  it('is the primary image, else the first by display order, as on the card', () => {
    const base = product('p', 10)
    expect(
      cartSnapshotOf({ ...base, media: [media('p/late.svg', 2), media('p/main.svg', 1, true)] })
        .imagePath,
    ).toBe('p/main.svg')
    expect(
      cartSnapshotOf({ ...base, media: [media('p/late.svg', 2), media('p/early.svg', 0)] })
        .imagePath,
    ).toBe('p/early.svg')
  })
})
