import { describe, expect, it } from 'vitest'
import {
  applyAnswer,
  applyStatus,
  backoffMs,
  isFatalError,
  MAX_BACKOFF_MS,
  placeOrderPayload,
} from './order-outbox'
import type { OrderDoc } from '../schemas/order.schema'

const order: OrderDoc = {
  id: 'o1',
  secret: 's'.repeat(48),
  status: 'pending',
  sync: 'sending',
  attempts: 2,
  nextAttemptAt: 0,
  lastError: 'fetch failed',
  refusal: null,
  customer: { email: 'a@b.co', firstName: 'A', lastName: 'B', phone: '1' },
  fulfilment: 'delivery',
  deliveryMethod: 'standard',
  shippingAddress: null,
  billingAddress: null,
  paymentMethod: 'cash',
  customerKind: 'adult',
  cardLast4: null,
  items: [{ productId: 'p1', name: 'P', unitPrice: 10, quantity: 2 }],
  totals: { subtotal: 20, tax: 1.6, shipping: 9.99, discount: 0, total: 31.59 },
  totalsFrom: 'preview',
  statusHistory: [],
  pickupWindow: null,
  channel: null,
  statusCheckedAt: null,
  createdAt: '2026-11-22T00:00:00Z',
  updatedAt: '2026-11-22T00:00:00Z',
}

describe('order outbox rules', () => {
  it('treats data and permission errors as final, everything else as retryable', () => {
    expect(isFatalError({ code: '22023', message: 'bad input' })).toBe(true)
    expect(isFatalError({ code: '23505', message: 'duplicate' })).toBe(true)
    expect(isFatalError({ code: '42501', message: 'denied' })).toBe(true)
    expect(isFatalError({ code: 'P0001', message: 'raised' })).toBe(true)
    expect(isFatalError({ code: '', message: 'TypeError: fetch failed' })).toBe(false)
    expect(isFatalError({ code: 'PGRST000', message: 'server error' })).toBe(false)
  })

  it('backs off exponentially up to a minute', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([1000, 2000, 4000, 8000])
    expect(backoffMs(30)).toBe(MAX_BACKOFF_MS)
  })

  it('takes the server totals and unit prices of an accepted order', () => {
    const next = applyAnswer(
      order,
      {
        status: 'accepted',
        order: {
          id: 'o1',
          status: 'pending',
          subtotal: 18,
          tax: 1.44,
          shipping: 9.99,
          discount: 0,
          total: 29.43,
          items: [{ productId: 'p1', unitPrice: 9, quantity: 2 }],
        },
      },
      '2026-11-22T01:00:00Z',
    )
    expect(next.sync).toBe('accepted')
    expect(next.totalsFrom).toBe('server')
    expect(next.totals.total).toBe(29.43)
    expect(next.items[0]?.unitPrice).toBe(9)
    expect(next.lastError).toBeNull()
  })

  it('keeps the reasons of a refused order', () => {
    const next = applyAnswer(
      order,
      { status: 'refused', reasons: [{ productId: 'p1', message: 'Only 1 left in stock!' }] },
      '2026-11-22T01:00:00Z',
    )
    expect(next.sync).toBe('refused')
    expect(next.refusal).toEqual([{ productId: 'p1', message: 'Only 1 left in stock!' }])
    expect(next.totalsFrom).toBe('preview')
  })

  it('sends the pickup window and the payment method, never a card', () => {
    const window = { start: '2026-11-26T18:00:00.000Z', end: '2026-11-26T18:30:00.000Z' }
    const pickup = placeOrderPayload({ ...order, fulfilment: 'pickup', pickupWindow: window })
    expect(pickup.pickupWindow).toEqual(window)
    expect(pickup.paymentMethod).toBe('cash')
    expect(pickup).not.toHaveProperty('cardLast4')
    expect(placeOrderPayload({ ...order, pickupWindow: window }).pickupWindow).toBeNull()
  })

  it('keeps the window, topic and check time of an accepted order', () => {
    const next = applyAnswer(
      { ...order, fulfilment: 'pickup' },
      {
        status: 'accepted',
        order: {
          id: 'o1',
          status: 'pending',
          subtotal: 20,
          tax: 1.6,
          shipping: 0,
          discount: 0,
          total: 21.6,
          pickupWindow: { start: '2026-11-26T18:00:00Z', end: '2026-11-26T18:30:00Z' },
          channel: 'order:abc',
          statusHistory: [{ status: 'pending', at: '2026-11-22T01:00:00Z' }],
        },
      },
      '2026-11-22T01:00:01Z',
    )
    expect(next.pickupWindow).toEqual({
      start: '2026-11-26T18:00:00Z',
      end: '2026-11-26T18:30:00Z',
    })
    expect(next.channel).toBe('order:abc')
    expect(next.statusCheckedAt).toBe('2026-11-22T01:00:01Z')
  })

  it('applies a newer status and ignores an older answer that arrives late', () => {
    const accepted: OrderDoc = {
      ...order,
      sync: 'accepted',
      statusHistory: [{ status: 'pending', at: '2026-11-22T01:00:00Z' }],
    }
    const shipped = applyStatus(
      accepted,
      {
        status: 'shipped',
        statusHistory: [
          { status: 'pending', at: '2026-11-22T01:00:00Z' },
          { status: 'processing', at: '2026-11-22T01:05:00Z', by: 'staff@humo.test' },
          { status: 'shipped', at: '2026-11-22T01:10:00Z' },
        ],
        updatedAt: '2026-11-22T01:10:00Z',
      },
      '2026-11-22T01:10:01Z',
    )
    expect(shipped.status).toBe('shipped')
    expect(shipped.statusCheckedAt).toBe('2026-11-22T01:10:01Z')
    expect(JSON.stringify(shipped.statusHistory)).not.toContain('staff@')
    const late = applyStatus(
      shipped,
      {
        status: 'processing',
        statusHistory: shipped.statusHistory.slice(0, 2),
        updatedAt: '2026-11-22T01:05:00Z',
      },
      '2026-11-22T01:10:02Z',
    )
    expect(late.status).toBe('shipped')
    expect(applyStatus(shipped, { status: 'bogus' }, 'x')).toBe(shipped)
  })
})
