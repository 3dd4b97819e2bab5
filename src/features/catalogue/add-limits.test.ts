// The daily limit where the shopper adds (issue 31): what fits beside the cart and today's
// orders, the limit's message for a quantity past it, and a unit above the limit never sold.
import { describe, expect, it } from 'vitest'
import { DEFAULT_COMPLIANCE_RULES } from '../../lib/compliance-defaults'
import { dailyLimitsOn } from '../../lib/compliance-rules'
import { NO_GRAMS } from '../../lib/daily-limits'
import { addRefusal, addRoom, type CartLineLike, type DailyRoom } from './add-limits'

const adult = dailyLimitsOn(DEFAULT_COMPLIANCE_RULES, '2026-11-28', 'adult')
const medical = dailyLimitsOn(DEFAULT_COMPLIANCE_RULES, '2026-11-28', 'medical')

const eighth = {
  id: 'eighth',
  name: 'Humboldt Purple Kush',
  limitClass: 'flower',
  limitGrams: 3.5,
  weightGrams: 3.5,
}
const half = { ...eighth, id: 'half', name: 'Joshua Tree Desert Diesel', limitGrams: 14 }
const pound = {
  id: 'pound',
  name: 'Bulk Indoor Hybrid Mix (1 lb)',
  limitClass: 'flower',
  limitGrams: 453.6,
  weightGrams: 453.6,
}
const gummies = {
  id: 'gummies',
  name: 'Watermelon Sea Salt Gummies',
  limitClass: 'concentrate',
  limitGrams: 0.1,
  weightGrams: 50,
}
const bag = {
  id: 'bag',
  name: 'Travel Pouch',
  limitClass: null,
  limitGrams: null,
  weightGrams: null,
}

const line = (product: typeof eighth | typeof bag, quantity: number): CartLineLike => ({
  productId: product.id,
  quantity,
  product,
})
const room = (cartLines: CartLineLike[] = [], over: Partial<DailyRoom> = {}): DailyRoom => ({
  limits: adult,
  heldToday: NO_GRAMS,
  cartLines,
  ...over,
})

describe('adding within the daily limit', () => {
  it('lets 8 eighths of flower in (28 g) and refuses a ninth with the limit', () => {
    expect(addRoom(eighth, room())).toEqual({
      oversize: null,
      fit: 8,
      limitText: '28.5 g of flower',
    })
    expect(addRefusal(eighth, 8, room())).toBeNull()
    expect(addRefusal(eighth, 9, room())).toBe(
      "Today's limit is 28.5 g of flower. This order holds 31.5 g, 3 g over the limit.",
    )
  })

  it('counts what the cart holds already, this product included', () => {
    const cart = [line(half, 1), line(eighth, 2)]
    // 14 + 7 = 21 g: two more eighths fit (28 g), a third does not.
    expect(addRoom(eighth, room(cart)).fit).toBe(2)
    expect(addRefusal(eighth, 3, room(cart))).toBe(
      "Today's limit is 28.5 g of flower. This order holds 31.5 g, 3 g over the limit.",
    )
    expect(addRoom(half, room(cart)).fit).toBe(0)
  })

  it("counts this device's orders of the day, in the server's words", () => {
    const today = room([], { heldToday: { flower: 21, concentrate: 0 } })
    expect(addRoom(eighth, today).fit).toBe(2)
    expect(addRefusal(eighth, 3, today)).toBe(
      "Today's limit is 28.5 g of flower. Your orders today already hold 21 g, so this order can add up to 7.5 g.",
    )
  })

  it('counts an edible by the THC it holds, not its weight', () => {
    expect(addRoom(gummies, room()).fit).toBe(80)
    const cart = [line(gummies, 79)]
    expect(addRoom(gummies, room(cart)).fit).toBe(1)
    expect(addRefusal(gummies, 2, room(cart))).toBe(
      "Today's limit is 8 g of concentrate. This order holds 8.1 g, 0.1 g over the limit.",
    )
    // Flower in the cart does not take the concentrate's room.
    expect(addRoom(gummies, room([line(eighth, 8)])).fit).toBe(80)
  })

  it('never limits what counts toward no limit', () => {
    expect(addRoom(bag, room([line(eighth, 8)]))).toEqual({
      oversize: null,
      fit: Infinity,
      limitText: null,
    })
    expect(addRefusal(bag, 500, room([line(eighth, 8)]))).toBeNull()
  })

  it('sells no unit above the limit to a consumer, whatever the quantity', () => {
    const message =
      'Bulk Indoor Hybrid Mix (1 lb) cannot be sold to a consumer: one unit holds 453.6 g of flower, more than the 28.5 g one customer may buy in a day.'
    expect(addRoom(pound, room())).toMatchObject({ oversize: message, fit: 0 })
    expect(addRefusal(pound, 1, room())).toBe(message)
    // A medical patient's 8 ounces (226.8 g) are still less than a pound.
    expect(addRoom(pound, room([], { limits: medical })).oversize).toContain('226.8 g')
  })

  it('gives a medical patient the medical limit', () => {
    expect(addRoom(half, room([], { limits: medical })).fit).toBe(16)
  })

  it('lets a pound already in the cart take no one else’s room', () => {
    expect(addRoom(eighth, room([line(pound, 1)])).fit).toBe(8)
  })
})
