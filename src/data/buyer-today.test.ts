import { describe, expect, it } from 'vitest'
import { buyerOf, handoverOf, heldToday } from './buyer-today'
import type { OrderDoc } from './schemas/order.schema'

describe('the buyer the checkout draft describes', () => {
  it('is an adult-use buyer until told otherwise, or what the age gate was told', () => {
    expect(buyerOf(undefined)).toMatchObject({ kind: 'adult', mmicExpiry: null })
    expect(buyerOf(undefined, 'medical').kind).toBe('medical')
    expect(buyerOf({ email: 'a@b.co' }, 'medical').kind).toBe('medical')
    // A choice made at checkout wins over the gate's answer.
    expect(buyerOf({ customerKind: 'adult' }, 'medical').kind).toBe('adult')
    expect(buyerOf({ customerKind: 'nonsense' }).kind).toBe('adult')
  })

  it('has an MMIC only when a patient gave a whole card, read as the server reads it', () => {
    const medical = { customerKind: 'medical', mmicNumber: 'ab-1234', mmicExpiry: '2027-01-31' }
    expect(buyerOf(medical).mmicExpiry).toBe('2027-01-31')
    expect(buyerOf({ ...medical, mmicNumber: 'A1' }).mmicExpiry).toBeNull()
    expect(buyerOf({ ...medical, mmicExpiry: '' }).mmicExpiry).toBeNull()
    expect(buyerOf({ ...medical, customerKind: 'adult' }).mmicExpiry).toBeNull()
  })

  it('takes pickup or delivery from the draft, standard delivery before any choice', () => {
    expect(handoverOf(undefined)).toEqual({ fulfilment: 'delivery', deliveryMethod: 'standard' })
    expect(handoverOf({ fulfilment: 'pickup', deliveryMethod: 'express' })).toEqual({
      fulfilment: 'pickup',
      deliveryMethod: 'express',
    })
  })
})

describe('what the buyer’s orders on this device hold today', () => {
  const order = (
    createdAt: string,
    grams: number,
    customer: { email: string; phone: string },
    extra: Partial<OrderDoc> = {},
  ) =>
    ({
      createdAt,
      status: 'pending',
      sync: 'accepted',
      customer,
      items: [{ quantity: 1, limitClass: 'flower', limitGrams: grams, weightGrams: grams }],
      ...extra,
    }) as unknown as OrderDoc
  const ana = { email: 'ana@example.com', phone: '(510) 555-0100' }
  // 20:00 UTC is noon in Los Angeles on Nov 28.
  const now = new Date('2026-11-28T20:00:00Z')

  it('counts the same person’s orders of the shop’s day, by email or phone however written', () => {
    const orders = [
      order('2026-11-28T17:00:00Z', 14, ana),
      order('2026-11-28T18:00:00Z', 7, { email: 'ANA@example.com ', phone: '' }),
      order('2026-11-28T18:30:00Z', 3.5, { email: 'other@example.com', phone: '+1 510-555-0100' }),
      // Another person, another day (Nov 27 in Los Angeles), refused and cancelled orders: none.
      order('2026-11-28T19:00:00Z', 28, { email: 'bo@example.com', phone: '4155550199' }),
      order('2026-11-28T07:00:00Z', 28, ana),
      order('2026-11-28T19:10:00Z', 28, ana, { sync: 'refused' }),
      order('2026-11-28T19:20:00Z', 28, ana, { status: 'cancelled' }),
    ]
    expect(heldToday(orders, ana, now)).toEqual({ flower: 24.5, concentrate: 0 })
  })
})
