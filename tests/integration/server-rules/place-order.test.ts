// place_order, get_order(s) and the orders' row level security, through the real supabase-js.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../../src/lib/shop-hours'
import { pickupSlots } from '../../../src/lib/pickup-windows'
import { DEFAULT_COMPLIANCE_RULES } from '../../../src/lib/compliance-defaults'
import { shopDate } from '../../../src/lib/compliance-rules'
import { DEFAULT_MONEY_RULES } from '../../../src/lib/money'
import { totalsFor } from '../../../src/lib/order-totals'
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
  it('charges the price asked, California’s taxes in force and standard delivery under $50', async () => {
    const gummies = await createProduct(backend, { price: 12.5, quantity: 20 })
    const order = accepted(
      await placeOrder(
        backend.anon,
        // A client that lies about the price is ignored: only productId and quantity count.
        orderInput([{ productId: gummies.id, quantity: 3, price: 0.01 } as never]),
      ),
    )
    // Excise 15% of 37.50 + 9.99 = 7.1235 → 7.12; sales tax 9.75% of 54.61 = 5.32.
    expect(order).toMatchObject({
      status: 'pending',
      subtotal: 37.5,
      tax: 12.44,
      shipping: 9.99,
      discount: 0,
      total: 59.93,
      customerKind: 'adult',
      salesTaxExempt: false,
    })
    expect(order.taxLines).toEqual([
      { kind: 'excise', label: 'Cannabis excise tax (15%)', rate: 0.15, base: 47.49, amount: 7.12 },
      { kind: 'sales', label: 'Sales tax (9.75%)', rate: 0.0975, base: 54.61, amount: 5.32 },
    ])
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

  it('prices every order as the device previews it (src/lib/money.ts)', async () => {
    const cases = [
      { price: 16.67, quantity: 3, cannabis: true },
      { price: 25, quantity: 2, cannabis: true },
      { price: 6.19, quantity: 1, cannabis: true },
      { price: 39.99, quantity: 1, cannabis: false },
      { price: 0.01, quantity: 7, cannabis: true },
    ]
    for (const c of cases) {
      const product = await createProduct(backend, {
        price: c.price,
        quantity: 20,
        isCannabis: c.cannabis,
      })
      for (const method of ['standard', 'express'] as const) {
        const order = accepted(
          await placeOrder(
            backend.anon,
            orderInput([{ productId: product.id, quantity: c.quantity }], {
              deliveryMethod: method,
            }),
          ),
        )
        const preview = totalsFor([c], method, 'delivery', DEFAULT_MONEY_RULES, {
          rules: DEFAULT_COMPLIANCE_RULES,
          day: shopDate(),
          kind: 'adult',
          salesTaxExempt: false,
        })
        expect({ ...order, taxLines: order.taxLines ?? [] }, JSON.stringify(c)).toMatchObject({
          subtotal: preview.subtotal,
          tax: preview.tax,
          taxLines: preview.taxLines,
          shipping: preview.shipping,
          total: preview.total,
        })
      }
    }
  })

  it('charges express delivery always and nothing for pickup; free standard delivery from $50', async () => {
    const product = await createProduct(backend, { price: 80, quantity: 20 })
    const express = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: product.id, quantity: 1 }], { deliveryMethod: 'express' }),
      ),
    )
    expect(express).toMatchObject({ subtotal: 80, shipping: 19.99 })
    // The fee of the shop's own delivery is part of the excise base (CDTFA).
    expect(express.taxLines?.[0]).toMatchObject({ kind: 'excise', base: 99.99, amount: 15 })

    const standard = accepted(
      await placeOrder(backend.anon, orderInput([{ productId: product.id, quantity: 1 }])),
    )
    expect(standard).toMatchObject({ subtotal: 80, shipping: 0 })
    expect(standard.taxLines?.[0]).toMatchObject({ kind: 'excise', base: 80, amount: 12 })

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
    // 80 + 12 excise = 92; sales tax 9.75% = 8.97.
    expect(pickup).toMatchObject({ subtotal: 80, tax: 20.97, shipping: 0, total: 100.97 })
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

  it('enforces the daily flower and concentrate limits with daily-limits.ts’s texts', async () => {
    const eighth = await createProduct(backend, { category: 'flower', weightGrams: 3.5 })
    const gram = await createProduct(backend, { category: 'concentrates', weightGrams: 1 })
    const customer = {
      email: 'limits@example.com',
      firstName: 'Lim',
      lastName: 'It',
      phone: '(213) 555-0188',
    }
    const result = await placeOrder(
      backend.anon,
      orderInput(
        [
          { productId: eighth.id, quantity: 9 },
          { productId: gram.id, quantity: 9 },
        ],
        { customer },
      ),
    )
    expect(result).toEqual({
      status: 'refused',
      reasons: [
        {
          productId: null,
          message:
            "Today's limit is 28.5 g of flower. This order holds 31.5 g, 3 g over the limit.",
        },
        {
          productId: null,
          message: "Today's limit is 8 g of concentrate. This order holds 9 g, 1 g over the limit.",
        },
      ],
    })
    expect(await stockOf(backend, eighth.id)).toBe(10)

    // At the limit exactly it goes through.
    const ok = await placeOrder(
      backend.anon,
      orderInput(
        [
          { productId: eighth.id, quantity: 8 },
          { productId: gram.id, quantity: 8 },
        ],
        { customer },
      ),
    )
    expect(ok.status).toBe('accepted')
  })

  it('never sells a consumer a unit above the day’s limit (the wholesale pound)', async () => {
    const pound = await createProduct(backend, {
      name: 'Bulk Flower (1 lb)',
      category: 'wholesale',
      weightGrams: 453.6,
      price: 900,
      limitClass: 'flower',
    })
    const bags = await createProduct(backend, {
      category: 'wholesale',
      price: 189.99,
      isCannabis: false,
      limitClass: null,
    })
    const result = await placeOrder(
      backend.anon,
      orderInput(
        [
          { productId: pound.id, quantity: 1 },
          { productId: bags.id, quantity: 1 },
        ],
        {
          customer: {
            email: 'bulk@example.com',
            firstName: 'B',
            lastName: 'K',
            phone: '2135550177',
          },
        },
      ),
    )
    expect(result).toEqual({
      status: 'refused',
      reasons: [
        {
          productId: pound.id,
          message:
            'Bulk Flower (1 lb) cannot be sold to a consumer: one unit holds 453.6 g of flower, more than the 28.5 g one customer may buy in a day.',
        },
      ],
    })
    // Packaging from the same menu is not cannabis and is sold.
    const ok = await placeOrder(backend.anon, orderInput([{ productId: bags.id, quantity: 1 }]))
    expect(accepted(ok).taxLines?.map((l) => l.kind)).toEqual(['sales'])
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
    // 30 + 9.99 delivery: excise 15% of 39.99 = 6.00, sales tax 9.75% of 45.99 = 4.48.
    expect(mine.data).toMatchObject({ id: a.id, status: 'pending', total: 50.47 })
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
