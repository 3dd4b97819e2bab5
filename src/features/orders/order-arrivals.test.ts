import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTestDatabase } from '../../../tests/fixtures/memory-database'
import type { HumoDatabase } from '../../data/database'
import type { OrderDoc } from '../../data/schemas/order.schema'
import { fromDeviceOrder } from './order-view-model'

const toasts = vi.hoisted(() => [] as { title?: unknown }[])
vi.mock('../../ui/toaster', () => ({
  toaster: { create: (options: { title?: unknown }) => void toasts.push(options) },
}))
const { watchOrderArrivals } = await import('./order-arrivals')

const order = (id: string, attempts: number): OrderDoc => ({
  id,
  secret: 's'.repeat(48),
  status: 'pending',
  sync: 'queued',
  attempts,
  nextAttemptAt: 0,
  lastError: attempts ? 'fetch failed' : null,
  refusal: null,
  customer: { email: 'a@b.co', firstName: 'A', lastName: 'B', phone: '1' },
  fulfilment: 'pickup',
  deliveryMethod: 'standard',
  shippingAddress: null,
  billingAddress: null,
  paymentMethod: 'cash',
  customerKind: 'adult',
  cardLast4: null,
  items: [{ productId: 'p1', name: 'P', unitPrice: 10, quantity: 2 }],
  totals: { subtotal: 20, tax: 1.6, shipping: 0, discount: 0, total: 21.6 },
  totalsFrom: 'preview',
  statusHistory: [{ status: 'pending', at: '2026-11-28T20:50:00Z' }],
  pickupWindow: null,
  channel: null,
  statusCheckedAt: null,
  createdAt: '2026-11-28T20:50:00Z',
  updatedAt: '2026-11-28T20:50:00Z',
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

let db: HumoDatabase
beforeEach(async () => {
  toasts.length = 0
  db = (await createTestDatabase()).db
})
afterEach(async () => {
  await db.close()
})

describe('an order waiting on the device (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md)', () => {
  it('is not received: the view has when it was saved, and no refusal', () => {
    const view = fromDeviceOrder(order('59f685ea-0000-4000-8000-000000000000', 1))
    expect(view.savedAt).toBe('2026-11-28T20:50:00Z')
    expect(view.refused).toBe(false)
    const sent = fromDeviceOrder({ ...order('a', 1), sync: 'accepted' })
    expect(sent.savedAt).toBeNull()
    const refused = fromDeviceOrder({ ...order('b', 1), sync: 'refused' })
    expect(refused).toMatchObject({ savedAt: null, refused: true })
  })

  it('says "Order #… reached the shop" once when it goes, not for one sent at the first try', async () => {
    const waited = '59f685ea-0000-4000-8000-000000000000'
    const firstTry = '1a2b3c4d-0000-4000-8000-000000000000'
    await db.orders.bulkInsert([order(waited, 2), order(firstTry, 0)])
    watchOrderArrivals(db)
    watchOrderArrivals(db) // a second screen asks too: still one watch
    await settle()
    expect(toasts).toEqual([])

    for (const id of [waited, firstTry])
      await (await db.orders.findOne(id).exec())!.incrementalPatch({ sync: 'accepted' })
    await settle()
    expect(toasts.map((t) => t.title)).toEqual(['Order #59F685EA reached the shop'])
  })

  it('says nothing of an order the shop refused', async () => {
    const id = '0badc0de-0000-4000-8000-000000000000'
    await db.orders.insert(order(id, 3))
    watchOrderArrivals(db)
    await settle()
    await (await db.orders.findOne(id).exec())!.incrementalPatch({ sync: 'refused' })
    await settle()
    expect(toasts).toEqual([])
  })
})
