// The shopper's order outbox against the embedded backend: an order placed while the backend is
// unreachable survives a "reload" (a new RxDB instance on the same storage) and reaches the
// server exactly once with the server's totals; a refused order carries its reason; a pickup
// order carries its window and payment, and its status is read back with the time it was known.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startTestBackend, type TestBackend } from '../fixtures/backend'
import { createTestDatabase } from '../fixtures/memory-database'
import { replicateProducts } from '../../src/data/replication/catalogue-replication'
import { startOrderOutbox, placeOrderPayload } from '../../src/data/outbox/order-outbox'
import { addToCart } from '../../src/features/cart/cart.actions'
import { placeOrder } from '../../src/features/checkout/checkout.actions'
import type { CheckoutDraft } from '../../src/features/checkout/checkout.validation'
import type { HumoDatabase } from '../../src/data/database'
import type { ProductDoc } from '../../src/data/schemas/product.schema'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../src/lib/shop-hours'
import { pickupSlots } from '../../src/lib/pickup-windows'
import { createHash } from 'node:crypto'

let backend: TestBackend

const draft: CheckoutDraft = {
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Reyes',
  phone: '5105550100',
  address1: '12 Grand Ave',
  address2: '',
  city: 'Oakland',
  zipCode: '94612',
  fulfilment: 'delivery',
  deliveryMethod: 'standard',
  paymentMethod: 'cash',
  pickupWindow: null,
  customerKind: 'adult',
  mmicNumber: '',
  mmicExpiry: '',
}

beforeAll(async () => {
  backend = await startTestBackend()
})
afterAll(async () => {
  await backend?.close()
})

async function syncedDatabase(name?: string): Promise<{ db: HumoDatabase; name: string }> {
  const opened = await createTestDatabase(name)
  const pull = replicateProducts(backend.anon, opened.db, {
    live: false,
    identifier: 'outbox-test',
  })
  await pull.awaitInitialReplication()
  await pull.cancel()
  return opened
}

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > until) throw new Error(`timed out; last value: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function serverOrders(id: string) {
  const { data, error } = await backend.service
    .from('orders')
    .select('id, total, subtotal, tax, shipping')
    .eq('id', id)
  if (error) throw new Error(error.message)
  return data as { id: string; total: number; subtotal: number; tax: number; shipping: number }[]
}

const inStock = (products: ProductDoc[]) =>
  products.filter((p) => (p.unlimited || (p.stock ?? 0) > 5) && p.categorySlug === 'edibles')

/** A device holding one order, and a network on which every send fails (so it is retried). */
async function deviceWithQueuedOrder() {
  const { db } = await syncedDatabase()
  const [a] = inStock((await db.products.find().exec()).map((d) => d.toJSON() as ProductDoc))
  await addToCart(db, a!, 1)
  await placeOrder(db, {
    draft,
    lines: (await db.cart_lines.find().exec()).map((l) => l.toJSON()),
  })
  const counts = { calls: 0, stopped: false, callsAfterStop: 0 }
  const down = {
    rpc: () => {
      counts.calls++
      if (counts.stopped) counts.callsAfterStop++
      return Promise.resolve({
        data: null,
        error: { code: '', message: 'TypeError: fetch failed' },
        status: 0,
      })
    },
  } as unknown as Parameters<typeof startOrderOutbox>[1]
  return { db, down, counts }
}

/**
 * The device's database, whose storage answers the outbox's first `answers` "when is the next
 * retry?" questions (findOne with a query) 300 ms late.
 */
function slowNextWakeUp(db: HumoDatabase, answers: number) {
  let left = answers
  let afterClose = 0
  const bound = (target: object, prop: PropertyKey) => {
    const value = Reflect.get(target, prop, target) as unknown
    return typeof value === 'function'
      ? (value as (...a: unknown[]) => unknown).bind(target)
      : value
  }
  const orders = db.orders
  const slowOrders = new Proxy(orders, {
    get(target, prop) {
      if (prop !== 'findOne') return bound(target, prop)
      return (query: Parameters<typeof orders.findOne>[0]) => {
        const found = target.findOne(query)
        if (typeof query !== 'object' || left <= 0) return found
        left--
        return {
          exec: () =>
            new Promise((r) => setTimeout(r, 300)).then(() => {
              if (db.closed) afterClose++
              return found.exec()
            }),
        }
      }
    },
  })
  const slowDb = new Proxy(db, {
    get: (target, prop) => (prop === 'orders' ? slowOrders : bound(target, prop)),
  })
  return { db: slowDb, left: () => left, afterClose: () => afterClose }
}

/** What was rejected with no one listening while `run` ran (an outbox working on after its stop). */
async function unhandledRejectionsDuring(run: () => Promise<void>): Promise<unknown[]> {
  const rejections: unknown[] = []
  const onRejection = (reason: unknown) => rejections.push(reason)
  process.on('unhandledRejection', onRejection)
  try {
    await run()
  } finally {
    process.off('unhandledRejection', onRejection)
  }
  return rejections
}

describe('order outbox', () => {
  it('keeps an order placed offline across a reload and sends it exactly once when back', async () => {
    const first = await syncedDatabase()
    const products = (await first.db.products.find().exec()).map((d) => d.toJSON() as ProductDoc)
    const [a, b] = inStock(products)
    await addToCart(first.db, a!, 2)
    await addToCart(first.db, b!, 1)
    const lines = (await first.db.cart_lines.find().exec()).map((l) => l.toJSON())
    const order = await placeOrder(first.db, { draft, lines })
    expect(await first.db.cart_lines.count().exec()).toBe(0)

    // The backend is unreachable: a client on a port nothing listens on.
    const unreachable = client('http://127.0.0.1:9', backend.anonKey)
    const offline = startOrderOutbox(first.db, unreachable)
    const failed = await waitFor(
      () => first.db.orders.findOne(order.id).exec(),
      (doc) => (doc?.attempts ?? 0) >= 1,
    )
    expect(failed?.sync).toBe('queued')
    expect(failed?.lastError).toBeTruthy()
    offline.stop()
    await first.db.close()

    // "Reload": a new database instance on the same storage, the backend reachable again.
    const again = await createTestDatabase(first.name)
    const online = startOrderOutbox(again.db, backend.anon, { now: () => Date.now() + 120_000 })
    const accepted = await waitFor(
      () => again.db.orders.findOne(order.id).exec(),
      (doc) => doc?.sync === 'accepted',
    )
    online.stop()

    const rows = await serverOrders(order.id)
    expect(rows).toHaveLength(1)
    const expectedSubtotal = Math.round((a!.price * 2 + b!.price) * 100) / 100
    expect(Number(rows[0]!.subtotal)).toBeCloseTo(expectedSubtotal, 2)
    expect(accepted?.totalsFrom).toBe('server')
    expect(accepted?.totals.total).toBeCloseTo(Number(rows[0]!.total), 2)
    await again.db.close()
  })

  it('never makes a second order when the first answer was lost', async () => {
    const { db } = await syncedDatabase()
    const [a] = inStock((await db.products.find().exec()).map((d) => d.toJSON() as ProductDoc))
    await addToCart(db, a!, 1)
    const order = await placeOrder(db, {
      draft,
      lines: (await db.cart_lines.find().exec()).map((l) => l.toJSON()),
    })
    // The request reached the server, but its answer never came back to the device.
    await backend.anon.rpc('place_order', { p_order: placeOrderPayload(order) })
    const outbox = startOrderOutbox(db, backend.anon)
    await waitFor(
      () => db.orders.findOne(order.id).exec(),
      (doc) => doc?.sync === 'accepted',
    )
    outbox.stop()
    expect(await serverOrders(order.id)).toHaveLength(1)
    await db.close()
  })

  it('records the reason when the server refuses an order (out of stock)', async () => {
    const { db } = await syncedDatabase()
    const products = (await db.products.find().exec()).map((d) => d.toJSON() as ProductDoc)
    const soldOut = products.find((p) => !p.unlimited && p.stock === 0)
    expect(soldOut).toBeDefined()
    await addToCart(db, soldOut!, 1)
    const order = await placeOrder(db, {
      draft,
      lines: (await db.cart_lines.find().exec()).map((l) => l.toJSON()),
    })
    const outbox = startOrderOutbox(db, backend.anon)
    const refused = await waitFor(
      () => db.orders.findOne(order.id).exec(),
      (doc) => doc?.sync === 'refused',
    )
    outbox.stop()
    expect(refused?.refusal?.[0]?.message).toBe(`${soldOut!.name} is out of stock`)
    expect(await serverOrders(order.id)).toHaveLength(0)
    await db.close()
  })

  it('sends a pickup order with its window and payment, and reads its status back', async () => {
    const { db } = await syncedDatabase()
    const [a] = inStock((await db.products.find().exec()).map((d) => d.toJSON() as ProductDoc))
    await addToCart(db, a!, 1)
    const slot = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES)[0]!
    const order = await placeOrder(db, {
      draft: {
        ...draft,
        fulfilment: 'pickup',
        paymentMethod: 'debit',
        pickupWindow: { start: slot.start, end: slot.end },
      },
      lines: (await db.cart_lines.find().exec()).map((l) => l.toJSON()),
    })
    const outbox = startOrderOutbox(db, backend.anon)
    const accepted = await waitFor(
      () => db.orders.findOne(order.id).exec(),
      (doc) => doc?.sync !== 'queued' && doc?.sync !== 'sending',
    )
    expect(accepted?.refusal ?? null).toBeNull()
    expect(accepted?.sync).toBe('accepted')
    expect(Date.parse(accepted!.pickupWindow!.start)).toBe(Date.parse(slot.start))
    const topic = `order:${createHash('sha256').update(order.secret).digest('hex')}`
    expect(accepted?.channel).toBe(topic)
    expect(accepted?.statusCheckedAt).toBeTruthy()
    const { data: row } = await backend.service
      .from('orders')
      .select('payment_method')
      .eq('id', order.id)
      .single()
    expect(row?.payment_method).toBe('debit')

    const moved = await backend.service.rpc('set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'processing',
    })
    expect(moved.error).toBeNull()
    const before = accepted!.statusCheckedAt!
    await new Promise((r) => setTimeout(r, 5))
    await outbox.refreshStatuses()
    const refreshed = await db.orders.findOne(order.id).exec()
    outbox.stop()
    expect(refreshed?.status).toBe('processing')
    expect(refreshed?.statusHistory.map((h) => h.status)).toEqual(['pending', 'processing'])
    expect(Date.parse(refreshed!.statusCheckedAt!)).toBeGreaterThan(Date.parse(before))
    await db.close()
  })

  it('refuses a pickup window outside the hours with a reason the shopper can read', async () => {
    const { db } = await syncedDatabase()
    const [a] = inStock((await db.products.find().exec()).map((d) => d.toJSON() as ProductDoc))
    await addToCart(db, a!, 1)
    const slot = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES)[0]!
    // 3:00 AM in Los Angeles on the slot's day: the shop is closed then.
    const night = new Date(Date.parse(slot.start))
    night.setUTCHours(11, 0, 0, 0)
    if (night.getTime() < Date.parse(slot.start)) night.setUTCDate(night.getUTCDate() + 1)
    const order = await placeOrder(db, {
      draft: {
        ...draft,
        fulfilment: 'pickup',
        pickupWindow: {
          start: night.toISOString(),
          end: new Date(night.getTime() + 30 * 60_000).toISOString(),
        },
      },
      lines: (await db.cart_lines.find().exec()).map((l) => l.toJSON()),
    })
    const outbox = startOrderOutbox(db, backend.anon)
    const refused = await waitFor(
      () => db.orders.findOne(order.id).exec(),
      (doc) => doc?.sync === 'refused',
    )
    outbox.stop()
    expect(refused?.refusal?.[0]?.message).toMatch(/pickup/i)
    expect(await serverOrders(order.id)).toHaveLength(0)
    await db.close()
  })

  it('leaves no retry timer behind when stopped, however its flushes overlapped', async () => {
    const { db, down, counts } = await deviceWithQueuedOrder()
    // The first "when is the next retry?" question is answered slowly, so a second flush chooses
    // its wake-up while the first is still choosing.
    const slow = slowNextWakeUp(db, 1)
    const rejections = await unhandledRejectionsDuring(async () => {
      const outbox = startOrderOutbox(slow.db, down)
      await waitFor(
        () => Promise.resolve(counts.calls),
        (n) => n >= 1,
      )
      await new Promise((r) => setTimeout(r, 50))
      await outbox.flush()
      await new Promise((r) => setTimeout(r, 400))
      outbox.stop()
      counts.stopped = true
      await db.close()
      // Past the first retry's back-off: a timer left behind would fire now on the closed database.
      await new Promise((r) => setTimeout(r, 1_500))
    })
    expect(slow.left()).toBe(0)
    expect(rejections).toEqual([])
    expect(counts.callsAfterStop).toBe(0)
  })

  it('settles what it has under way after stop(), so the database can close under it', async () => {
    const { db, down, counts } = await deviceWithQueuedOrder()
    // The send fails; choosing the next try's time is still waiting on the storage at the stop.
    const slow = slowNextWakeUp(db, 1)
    const rejections = await unhandledRejectionsDuring(async () => {
      const outbox = startOrderOutbox(slow.db, down)
      await waitFor(
        () => Promise.resolve(counts.calls),
        (n) => n >= 1,
      )
      await waitFor(
        () => Promise.resolve(slow.left()),
        (n) => n === 0,
      )
      outbox.stop()
      await outbox.settled()
      await db.close()
      await new Promise((r) => setTimeout(r, 500))
    })
    // Its question was answered before the close, not asked of a closed database after it.
    expect(slow.afterClose()).toBe(0)
    expect(rejections).toEqual([])
  })

  it('sends an order waiting out its back-off at once when the network comes back', async () => {
    const { db } = await syncedDatabase()
    const [a] = inStock((await db.products.find().exec()).map((d) => d.toJSON() as ProductDoc))
    await addToCart(db, a!, 1)
    const order = await placeOrder(db, {
      draft,
      lines: (await db.cart_lines.find().exec()).map((l) => l.toJSON()),
    })
    // Offline a while: several failed sends, the next one a long back-off away.
    const unreachable = client('http://127.0.0.1:9', backend.anonKey)
    const offline = startOrderOutbox(db, unreachable)
    await waitFor(
      () => db.orders.findOne(order.id).exec(),
      (doc) => (doc?.attempts ?? 0) >= 1,
    )
    offline.stop()
    const waiting = await db.orders.findOne(order.id).exec()
    await waiting!.incrementalPatch({ attempts: 6, nextAttemptAt: Date.now() + 60_000 })

    const online = startOrderOutbox(db, backend.anon)
    await online.flush()
    // Nothing is due: an ordinary flush leaves the back-off alone.
    expect((await db.orders.findOne(order.id).exec())?.sync).toBe('queued')
    await online.flush(true)
    const sent = await db.orders.findOne(order.id).exec()
    online.stop()
    expect(sent?.sync).toBe('accepted')
    expect(await serverOrders(order.id)).toHaveLength(1)
    await db.close()
  })
})
