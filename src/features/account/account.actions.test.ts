import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../tests/fixtures/memory-database'
import type { HumoDatabase } from '../../data/database'
import { productRowToDoc } from '../../data/replication/product-row'
import type { OrderDoc } from '../../data/schemas/order.schema'
import type { ProductDoc } from '../../data/schemas/product.schema'
import { planReorder, reorder, reorderProblemText } from './account.actions'

function product(
  id: string,
  price: number,
  stock: { quantity_available?: number | null; is_unlimited_quantity?: boolean },
): ProductDoc {
  const { _deleted, ...doc } = productRowToDoc({
    id,
    _modified: '2026-11-22T20:00:00+00:00',
    _deleted: false,
    name: `Product ${id}`,
    slug: `product-${id}`,
    price,
    category: { id: 'c', name: 'Flower', slug: 'flower' },
    ...stock,
  })
  void _deleted
  return doc
}

function order(id: string, items: [productId: string, quantity: number, unitPrice: number][]) {
  const at = '2026-11-20T18:00:00.000Z'
  return {
    id,
    secret: 's'.repeat(32),
    status: 'delivered',
    sync: 'accepted',
    attempts: 1,
    nextAttemptAt: 0,
    lastError: null,
    refusal: null,
    customer: { email: 'a@b.co', firstName: 'A', lastName: 'B', phone: '3235550100' },
    fulfilment: 'delivery',
    deliveryMethod: 'standard',
    paymentMethod: 'cash',
    customerKind: 'adult',
    mmic: null,
    cardLast4: null,
    items: items.map(([productId, quantity, unitPrice]) => ({
      productId,
      name: `Old name ${productId}`,
      slug: `product-${productId}`,
      unitPrice,
      quantity,
      imagePath: null,
      categorySlug: 'flower',
      weightGrams: null,
    })),
    totals: { subtotal: 10, tax: 0.8, shipping: 9.99, discount: 0, total: 20.79 },
    totalsFrom: 'server',
    estimatedDelivery: null,
    statusHistory: [{ status: 'pending', at }],
    createdAt: at,
    updatedAt: at,
  } as unknown as OrderDoc
}

let db: HumoDatabase
beforeEach(async () => {
  db = (await createTestDatabase()).db
})
afterEach(async () => {
  await db.close()
})

const cart = async () =>
  Object.fromEntries(
    (await db.cart_lines.find().exec()).map((l) => [l.productId, [l.quantity, l.product.price]]),
  )

describe('reorder', () => {
  it("puts the order's lines in the cart at today's prices, and says which could not be added", async () => {
    await db.products.bulkInsert([
      product('plenty', 12.5, { quantity_available: 40 }),
      product('unlimited', 30, { is_unlimited_quantity: true }),
      product('gone-out', 20, { quantity_available: 0 }),
      product('few', 8, { quantity_available: 2 }),
    ])
    await db.orders.insert(
      order('o1', [
        ['plenty', 3, 10],
        ['unlimited', 1, 25],
        ['gone-out', 2, 20],
        ['few', 5, 8],
        ['retired', 1, 15],
      ]),
    )
    const result = await reorder(db, 'o1')
    expect(await cart()).toEqual({
      plenty: [3, 12.5],
      unlimited: [1, 30],
      few: [2, 8],
    })
    const said = Object.fromEntries(result.lines.map((l) => [l.productId, reorderProblemText(l)]))
    expect(said).toEqual({
      plenty: null,
      unlimited: null,
      'gone-out': 'out of stock',
      few: 'only 2 left — added 2',
      retired: 'no longer available',
    })
    // A product the device still knows is named as it is today; a retired one as ordered.
    expect(result.lines.find((l) => l.productId === 'plenty')?.name).toBe('Product plenty')
    expect(result.lines.find((l) => l.productId === 'retired')?.name).toBe('Old name retired')
  })

  it('adds to what the cart holds, within the stock, and refreshes the line to today', async () => {
    await db.products.bulkInsert([
      product('few', 9, { quantity_available: 4 }),
      product('full', 5, { quantity_available: 2 }),
    ])
    const line = (productId: string, quantity: number, price: number) => ({
      productId,
      quantity,
      addedAt: '2026-11-24T10:00:00.000Z',
      product: {
        name: productId,
        slug: productId,
        price,
        categorySlug: 'flower',
        unlimited: false,
      },
    })
    // The cart's line for "few" still has last week's price.
    await db.cart_lines.bulkInsert([line('few', 1, 7), line('full', 2, 5)])
    await db.orders.insert(
      order('o2', [
        ['few', 5, 9],
        ['full', 1, 5],
      ]),
    )
    const result = await reorder(db, 'o2')
    expect(await cart()).toEqual({ few: [4, 9], full: [2, 5] })
    expect(result.lines.map(reorderProblemText)).toEqual([
      'only 4 left — added 3',
      'only 2 left, all already in your cart',
    ])
  })

  it('reorders nothing for an unknown order', async () => {
    expect((await reorder(db, 'nope')).lines).toEqual([])
    expect(await cart()).toEqual({})
  })
})

describe('planReorder', () => {
  const products = new Map([
    ['a', { name: 'A', stock: 10, unlimited: false }],
    ['u', { name: 'U', stock: null, unlimited: true }],
    ['n', { name: 'N', stock: null, unlimited: false }],
  ])

  it('adds up a product repeated in the order and caps odd quantities', () => {
    const lines = planReorder(
      [
        { productId: 'a', name: 'A', quantity: 3 },
        { productId: 'a', name: 'A', quantity: 4 },
        { productId: 'u', name: 'U', quantity: 5000 },
        { productId: 'n', name: 'N', quantity: Number.NaN },
      ],
      products,
      new Map([['u', 10]]),
    )
    expect(lines).toEqual([
      { productId: 'a', name: 'A', wanted: 7, added: 7, problem: null },
      { productId: 'u', name: 'U', wanted: 999, added: 989, problem: null },
      // No stock figure and not unlimited: out of stock, as the product card shows it.
      { productId: 'n', name: 'N', wanted: 1, added: 0, problem: { kind: 'out-of-stock' } },
    ])
  })
})
