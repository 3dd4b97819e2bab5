// place_order, get_order(s) and the orders' row level security, through the real supabase-js.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../../src/lib/shop-hours'
import { pickupSlots } from '../../../src/lib/pickup-windows'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  startRulesBackend,
  stockOf,
  type OrderDoc,
  type RulesBackend,
} from './rules-backend'

let backend: RulesBackend

beforeAll(async () => {
  backend = await startRulesBackend()
})
afterAll(async () => {
  await backend?.close()
})

/** A pickup order needs a window inside the (seeded) opening hours: the earliest on offer. */
const earliestPickupWindow = () => {
  const slot = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES)[0]!
  return { start: slot.start, end: slot.end }
}

const accepted = (result: Awaited<ReturnType<typeof placeOrder>>): OrderDoc => {
  if (result.status !== 'accepted') throw new Error(`refused: ${JSON.stringify(result.reasons)}`)
  return result.order
}

describe('place_order totals come from the database', () => {
  it('charges the price asked, 8% tax and standard shipping under $50', async () => {
    const gummies = await createProduct(backend, { price: 12.5, quantity: 20 })
    const order = accepted(
      await placeOrder(
        backend.anon,
        // A client that lies about the price is ignored: only productId and quantity count.
        orderInput([{ productId: gummies.id, quantity: 3, price: 0.01 } as never]),
      ),
    )
    expect(order).toMatchObject({
      status: 'pending',
      subtotal: 37.5,
      tax: 3,
      shipping: 9.99,
      discount: 0,
      total: 50.49,
    })
    expect(order.items).toEqual([
      expect.objectContaining({
        productId: gummies.id,
        name: gummies.name,
        unitPrice: 12.5,
        quantity: 3,
        lineTotal: 37.5,
      }),
    ])
    expect(order.statusHistory).toEqual([expect.objectContaining({ status: 'pending' })])
    expect(Date.parse(order.createdAt)).not.toBeNaN()
    expect(await stockOf(backend, gummies.id)).toBe(17)
  })

  it('ships standard for free from $50 and rounds tax to cents', async () => {
    const chocolate = await createProduct(backend, { price: 16.67, quantity: 20 })
    const order = accepted(
      await placeOrder(backend.anon, orderInput([{ productId: chocolate.id, quantity: 3 }])),
    )
    // 50.01 * 0.08 = 4.0008
    expect(order).toMatchObject({ subtotal: 50.01, tax: 4, shipping: 0, total: 54.01 })

    const exactly50 = await createProduct(backend, { price: 25, quantity: 20 })
    const second = accepted(
      await placeOrder(backend.anon, orderInput([{ productId: exactly50.id, quantity: 2 }])),
    )
    expect(second).toMatchObject({ subtotal: 50, tax: 4, shipping: 0, total: 54 })

    const odd = await createProduct(backend, { price: 6.19, quantity: 20 })
    const third = accepted(
      await placeOrder(backend.anon, orderInput([{ productId: odd.id, quantity: 1 }])),
    )
    // 6.19 * 0.08 = 0.4952 → 0.50
    expect(third).toMatchObject({ subtotal: 6.19, tax: 0.5, shipping: 9.99, total: 16.68 })
  })

  it('charges express delivery always and nothing for pickup', async () => {
    const product = await createProduct(backend, { price: 80, quantity: 20 })
    const express = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: product.id, quantity: 1 }], { deliveryMethod: 'express' }),
      ),
    )
    expect(express).toMatchObject({ subtotal: 80, tax: 6.4, shipping: 19.99, total: 106.39 })

    const pickup = accepted(
      await placeOrder(backend.anon, {
        ...orderInput([{ productId: product.id, quantity: 1 }], {
          fulfilment: 'pickup',
          shippingAddress: null,
          paymentMethod: 'cash',
          cardLast4: null,
        }),
        pickupWindow: earliestPickupWindow(),
      }),
    )
    expect(pickup).toMatchObject({ subtotal: 80, tax: 6.4, shipping: 0, total: 86.4 })
    expect(pickup.estimatedDelivery).toBe(express.estimatedDelivery)
  })

  it('does not charge for unlimited items’ stock and leaves it unlimited', async () => {
    const bag = await createProduct(backend, { price: 39.99, quantity: null })
    const order = accepted(
      await placeOrder(backend.anon, orderInput([{ productId: bag.id, quantity: 500 }])),
    )
    expect(order.subtotal).toBe(19995)
    expect(await stockOf(backend, bag.id)).toBeNull()
  })
})

describe('place_order is idempotent on the client-made id', () => {
  it('answers a retry with the same order and never makes a second one', async () => {
    const product = await createProduct(backend, { price: 20, quantity: 5 })
    const input = orderInput([{ productId: product.id, quantity: 2 }])
    const first = accepted(await placeOrder(backend.anon, input))
    const [again, concurrent] = await Promise.all([
      placeOrder(backend.anon, input),
      placeOrder(backend.anon, input),
    ])
    expect(accepted(again)).toEqual(first)
    expect(accepted(concurrent)).toEqual(first)
    const { rows } = await backend.db.query<{ n: number }>(
      'select count(*)::int as n from public.orders where id = $1',
      [input.id],
    )
    expect(rows[0]!.n).toBe(1)
    expect(await stockOf(backend, product.id)).toBe(3)
  })

  it('refuses the same id with another secret', async () => {
    const product = await createProduct(backend)
    const input = orderInput([{ productId: product.id, quantity: 1 }])
    await placeOrder(backend.anon, input)
    const { error } = await backend.anon.rpc('place_order', {
      p_order: { ...input, secret: 'y'.repeat(40) },
    })
    expect(error).toMatchObject({ code: '23505' })
  })
})

describe('place_order refuses what the shop cannot fill, and changes nothing', () => {
  it('names each line: out of stock, only N left, no longer available', async () => {
    const soldOut = await createProduct(backend, { name: 'Sold Out Sativa', quantity: 0 })
    const lastTwo = await createProduct(backend, { quantity: 2 })
    const inactive = await createProduct(backend, { name: 'Retired Rosin', active: false })
    const fine = await createProduct(backend, { quantity: 10 })
    const unknown = '00000000-0000-4000-8000-000000000001'
    const result = await placeOrder(
      backend.anon,
      orderInput([
        { productId: soldOut.id, quantity: 1 },
        { productId: lastTwo.id, quantity: 3 },
        { productId: inactive.id, quantity: 1 },
        { productId: fine.id, quantity: 1 },
        { productId: unknown, quantity: 1 },
      ]),
    )
    expect(result).toEqual({
      status: 'refused',
      reasons: [
        { productId: soldOut.id, message: 'Sold Out Sativa is out of stock' },
        { productId: lastTwo.id, message: 'Only 2 left in stock!' },
        { productId: inactive.id, message: 'Retired Rosin is no longer available' },
        { productId: unknown, message: 'This product is no longer available' },
      ],
    })
    expect(await stockOf(backend, lastTwo.id)).toBe(2)
    expect(await stockOf(backend, fine.id)).toBe(10)
  })

  it('enforces the flower and concentrate limits with purchase-limits.ts’s texts', async () => {
    const eighth = await createProduct(backend, { category: 'flower', weightGrams: 3.5 })
    const gram = await createProduct(backend, { category: 'concentrates', weightGrams: 1 })
    const bulk = await createProduct(backend, {
      category: 'wholesale',
      weightGrams: 453.6,
      price: 900,
    })
    const result = await placeOrder(
      backend.anon,
      orderInput([
        { productId: eighth.id, quantity: 9 },
        { productId: gram.id, quantity: 9 },
        { productId: bulk.id, quantity: 1 },
      ]),
    )
    expect(result).toEqual({
      status: 'refused',
      reasons: [
        {
          productId: null,
          message: 'California allows at most 28.5 g of flower per order; this order has 31.5 g.',
        },
        {
          productId: null,
          message: 'California allows at most 8 g of concentrate per order; this order has 9 g.',
        },
      ],
    })
    expect(await stockOf(backend, eighth.id)).toBe(10)

    // At the limit exactly, and with wholesale on top, it goes through.
    const ok = await placeOrder(
      backend.anon,
      orderInput([
        { productId: eighth.id, quantity: 8 },
        { productId: gram.id, quantity: 8 },
        { productId: bulk.id, quantity: 1 },
      ]),
    )
    expect(ok.status).toBe('accepted')
  })

  it('sells the last unit once when two orders race for it', async () => {
    const last = await createProduct(backend, { name: 'Last Jar', quantity: 1 })
    const results = await Promise.all(
      [1, 2].map(() => placeOrder(backend.anon, orderInput([{ productId: last.id, quantity: 1 }]))),
    )
    expect(results.map((r) => r.status).sort()).toEqual(['accepted', 'refused'])
    expect(results.find((r) => r.status === 'refused')).toEqual({
      status: 'refused',
      reasons: [{ productId: last.id, message: 'Last Jar is out of stock' }],
    })
    expect(await stockOf(backend, last.id)).toBe(0)
  })
})

describe('place_order rejects malformed input with 22023', () => {
  it.each([
    ['no customer email', { customer: { firstName: 'A', lastName: 'B', phone: '4155550134' } }],
    [
      'a delivery outside California',
      { shippingAddress: { address1: '1 Main', city: 'Reno', state: 'NV', zipCode: '89501' } },
    ],
    [
      'a bad ZIP code',
      { shippingAddress: { address1: '1 Main', city: 'SF', state: 'CA', zipCode: '9411' } },
    ],
    ['a full card number', { cardLast4: '4242424242424242' }],
    ['a short secret', { secret: 'short' }],
    ['no items', { items: [] }],
  ])('%s', async (_label, overrides) => {
    const product = await createProduct(backend)
    const { error } = await backend.anon.rpc('place_order', {
      p_order: { ...orderInput([{ productId: product.id, quantity: 1 }]), ...overrides },
    })
    expect(error?.code).toBe('22023')
    expect(error?.message).toBeTruthy()
  })

  it('refuses quantities outside 1..999', async () => {
    const product = await createProduct(backend)
    for (const quantity of [0, 1000, 1.5]) {
      const { error } = await backend.anon.rpc('place_order', {
        p_order: orderInput([{ productId: product.id, quantity }]),
      })
      expect(error).toMatchObject({
        code: '22023',
        message: 'Item quantity must be a whole number from 1 to 999',
      })
    }
  })

  it('needs no address for pickup', async () => {
    const product = await createProduct(backend)
    const result = await placeOrder(backend.anon, {
      ...orderInput([{ productId: product.id, quantity: 1 }], {
        fulfilment: 'pickup',
        shippingAddress: null,
      }),
      pickupWindow: earliestPickupWindow(),
    })
    expect(result.status).toBe('accepted')
  })
})

describe('reading orders back', () => {
  it('get_order needs the secret; get_orders refreshes many at once', async () => {
    const product = await createProduct(backend, { price: 30 })
    const a = orderInput([{ productId: product.id, quantity: 1 }])
    const b = orderInput([{ productId: product.id, quantity: 2 }])
    await placeOrder(backend.anon, a)
    await placeOrder(backend.anon, b)

    const mine = await backend.anon.rpc('get_order', { p_id: a.id, p_secret: a.secret })
    expect(mine.error).toBeNull()
    expect(mine.data).toMatchObject({ id: a.id, status: 'pending', total: 42.39 })
    const wrong = await backend.anon.rpc('get_order', { p_id: a.id, p_secret: b.secret })
    expect(wrong.error).toBeNull()
    expect(wrong.data).toBeNull()

    const many = await backend.anon.rpc('get_orders', {
      p_refs: [
        { id: a.id, secret: a.secret },
        { id: b.id, secret: 'not-the-secret' },
        { id: 'not-a-uuid', secret: 'x' },
        { id: b.id, secret: b.secret },
      ],
    })
    expect(many.error).toBeNull()
    expect((many.data as OrderDoc[]).map((o) => o.id).sort()).toEqual([a.id, b.id].sort())
  })

  it('anon and non-admin users cannot select or insert orders directly', async () => {
    const product = await createProduct(backend)
    await placeOrder(backend.anon, orderInput([{ productId: product.id, quantity: 1 }]))
    const anonRead = await backend.anon.from('orders').select('id')
    expect(anonRead.data ?? []).toEqual([])
    const items = await backend.anon.from('order_items').select('id')
    expect(items.data ?? []).toEqual([])

    const shopper = await createUser(backend)
    const userRead = await shopper.client.from('orders').select('id')
    expect(userRead.data ?? []).toEqual([])
    const pulled = await shopper.client.rpc('pull_orders_admin', {})
    expect(pulled.error?.code).toBe('42501')

    const admin = await createUser(backend, { admin: true })
    const adminRead = await admin.client.from('orders').select('id, status, secret_hash')
    expect(adminRead.error).toBeNull()
    expect(adminRead.data!.length).toBeGreaterThan(0)
    // Only a hash of the secret is ever stored.
    expect(adminRead.data![0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/)
  })
})
