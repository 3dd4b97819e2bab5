import { describe, expect, it } from 'vitest'
import {
  formatMoney,
  formatThreshold,
  missingForFreeShipping,
  salePercent,
  shippingFor,
  taxOf,
  totalsFor,
} from './money'

describe('money rules', () => {
  it('charges the price asked, adds 8% tax and $9.99 shipping under $50', () => {
    expect(totalsFor([{ price: 19.99, quantity: 2 }])).toEqual({
      subtotal: 39.98,
      tax: 3.2,
      shipping: 9.99,
      discount: 0,
      total: 53.17,
    })
  })

  it('ships free from $50 and rounds every amount to cents', () => {
    const totals = totalsFor([{ price: 33.33, quantity: 3 }])
    expect(totals.subtotal).toBe(99.99)
    expect(totals.tax).toBe(8)
    expect(totals.shipping).toBe(0)
    expect(totals.total).toBe(107.99)
    expect(totalsFor([{ price: 65, quantity: 1 }]).tax).toBe(5.2)
  })

  it('prices express delivery at $19.99 and pickup at nothing', () => {
    expect(shippingFor(120, 'express')).toBe(19.99)
    expect(shippingFor(20, 'standard', 'pickup')).toBe(0)
    expect(shippingFor(0)).toBe(0)
  })

  it('says how much is missing for free shipping', () => {
    expect(missingForFreeShipping(42.5)).toBe(7.5)
    expect(missingForFreeShipping(50)).toBe(0)
    expect(missingForFreeShipping(0)).toBe(0)
  })

  it('computes the sale percent and formats dollars', () => {
    expect(salePercent(30, 40)).toBe(25)
    expect(salePercent(40, 30)).toBe(0)
    expect(salePercent(40, null)).toBe(0)
    expect(formatMoney(1299.999)).toBe('$1300.00')
    expect(formatMoney(null)).toBe('$0.00')
  })
})

describe('money rules set in Admin Settings', () => {
  const rules = {
    taxRate: 0.08875,
    freeShippingThreshold: 75,
    standardShipping: 7.5,
    expressDelivery: 24.99,
  }

  it('uses the given tax rate, fees and free-delivery threshold', () => {
    expect(totalsFor([{ price: 22, quantity: 3 }], 'standard', 'delivery', rules)).toEqual({
      subtotal: 66,
      tax: 5.86,
      shipping: 7.5,
      discount: 0,
      total: 79.36,
    })
    expect(shippingFor(80, 'standard', 'delivery', rules)).toBe(0)
    expect(shippingFor(80, 'express', 'delivery', rules)).toBe(24.99)
    expect(missingForFreeShipping(66, rules)).toBe(9)
  })

  it('rounds tax half up in cents as Postgres does', () => {
    // 22 * 0.08875 = 1.9525 exactly; a float multiplication would give 1.95249…
    expect(taxOf(22, 0.08875)).toBe(1.95)
    expect(taxOf(22.6, 0.08875)).toBe(2.01)
    expect(taxOf(0.5, 0.05)).toBe(0.03)
    expect(taxOf(99.99, 0.08)).toBe(8)
    expect(taxOf(10, 0)).toBe(0)
  })

  it('writes the threshold without cents when it is whole dollars', () => {
    expect(formatThreshold(50)).toBe('$50')
    expect(formatThreshold(49.5)).toBe('$49.50')
  })
})
