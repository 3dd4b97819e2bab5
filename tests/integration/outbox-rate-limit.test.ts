// The outboxes and the server's rate limits (issue 23, finding 4; docs/decisions/026-rate-limits-and-unaccepted-orders.md): a 429 is "come
// back later", never a refusal. The order stays queued (the cart is not restored, nothing is
// dropped), is not sent again before the Retry-After the server named, and is accepted once the
// window has passed; a contact message likewise. The server here allows one order and one
// message per person per 3 seconds, so the second of each is limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRateLimits } from '../../supabase/local/http/rate-limits'
import { startTestBackend, type TestBackend } from '../fixtures/backend'
import { createTestDatabase } from '../fixtures/memory-database'
import { replicateProducts } from '../../src/data/replication/catalogue-replication'
import { rateLimitNotice } from '../../src/data/outbox/held-back-text'
import { startOrderOutbox } from '../../src/data/outbox/order-outbox'
import { startContactOutbox } from '../../src/data/outbox/contact-outbox'
import { addToCart } from '../../src/features/cart/cart.actions'
import { placeOrder } from '../../src/features/checkout/checkout.actions'
import { queueContactMessage } from '../../src/features/content/contact.actions'
import type { CheckoutDraft } from '../../src/features/checkout/checkout.validation'
import type { HumoDatabase } from '../../src/data/database'
import type { ProductDoc } from '../../src/data/schemas/product.schema'
import type { OrderDoc } from '../../src/data/schemas/order.schema'

const WINDOW_SECONDS = 3
let backend: TestBackend

beforeAll(async () => {
  backend = await startTestBackend({
    rateLimits: parseRateLimits(
      `place_order_device=1/${WINDOW_SECONDS},contact_device=1/${WINDOW_SECONDS}`,
    ),
  })
})
afterAll(async () => {
  await backend?.close()
})

const draft: CheckoutDraft = {
  email: 'limit@example.com',
  firstName: 'Lim',
  lastName: 'Ited',
  phone: '5105550177',
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

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 20_000
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > until) throw new Error(`timed out; last value: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function orderFromCart(db: HumoDatabase, product: ProductDoc): Promise<OrderDoc> {
  await addToCart(db, product, 1)
  const lines = (await db.cart_lines.find().exec()).map((l) => l.toJSON())
  return placeOrder(db, { draft, lines })
}

describe('a rate-limited order', () => {
  it('stays queued with the reason, waits for Retry-After and is then accepted', async () => {
    const { db } = await createTestDatabase()
    const pull = replicateProducts(backend.anon, db, { live: false, identifier: 'rate-limit' })
    await pull.awaitInitialReplication()
    await pull.cancel()
    const product = (await db.products.find().exec())
      .map((d) => d.toJSON() as ProductDoc)
      .find((p) => p.unlimited || (p.stock ?? 0) > 5)!

    const first = await orderFromCart(db, product)
    const outbox = startOrderOutbox(db, backend.anon)
    await waitFor(
      () => db.orders.findOne(first.id).exec(),
      (doc) => doc?.sync === 'accepted',
    )

    const second = await orderFromCart(db, product)
    const limitedAt = Date.now()
    await outbox.flush()
    const limited = (await db.orders.findOne(second.id).exec())!.toJSON() as OrderDoc
    expect(limited.sync).toBe('queued')
    expect(limited.refusal ?? null).toBeNull()
    expect(rateLimitNotice(limited.lastError)).toMatch(
      /^Too many orders with these contact details\. Please wait \d+ seconds? and try again\.$/,
    )
    // Not before the server's Retry-After (whole seconds, so at least the window less a second).
    expect(limited.nextAttemptAt).toBeGreaterThanOrEqual(limitedAt + (WINDOW_SECONDS - 1) * 1000)
    // Nothing was given back to the cart: the order is still on its way.
    expect(await db.cart_lines.count().exec()).toBe(0)
    expect(limited.cartRestoredAt ?? null).toBeNull()

    // An early flush (another order, coming back online) does not send it before its time.
    await outbox.flush()
    expect((await db.orders.findOne(second.id).exec())?.attempts).toBe(limited.attempts)

    const accepted = await waitFor(
      () => db.orders.findOne(second.id).exec(),
      (doc) => doc?.sync === 'accepted',
    )
    expect(accepted?.lastError ?? null).toBeNull()
    expect(Date.now()).toBeGreaterThanOrEqual(limited.nextAttemptAt)
    outbox.stop()
    const { data } = await backend.service.from('orders').select('id').eq('id', second.id)
    expect(data).toHaveLength(1)
    await db.close()
  })
})

describe('a rate-limited contact message', () => {
  it('stays queued, is not refused, and is sent after Retry-After', async () => {
    const { db } = await createTestDatabase(undefined, ['contact_messages'])
    const outbox = startContactOutbox(db, backend.anon)
    const message = {
      firstName: 'Lupe',
      lastName: 'Ortiz',
      email: 'lupe-limit@example.com',
      phone: '',
      subject: 'Hello',
      message: 'First message',
      newsletter: false,
    }
    await queueContactMessage(db, message)
    await waitFor(
      () => db.contact_messages.find({ selector: { sync: 'sent' } }).exec(),
      (docs) => docs.length === 1,
    )
    await queueContactMessage(db, { ...message, message: 'Second message' })
    const limited = await waitFor(
      () => db.contact_messages.findOne({ selector: { message: 'Second message' } }).exec(),
      (doc) => (doc?.attempts ?? 0) >= 1,
    )
    expect(limited?.sync).toBe('queued')
    expect(rateLimitNotice(limited?.lastError)).toMatch(
      /^Too many messages with these contact details\./,
    )
    await waitFor(
      async () => {
        await outbox.flush()
        return db.contact_messages.findOne({ selector: { message: 'Second message' } }).exec()
      },
      (doc) => doc?.sync === 'sent',
    )
    outbox.stop()
    const { data } = await backend.service
      .from('contact_messages')
      .select('message')
      .eq('email', 'lupe-limit@example.com')
      .order('message')
    expect(data).toEqual([{ message: 'First message' }, { message: 'Second message' }])
    await db.close()
  })
})
