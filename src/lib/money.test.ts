import { describe, expect, it } from 'vitest'
import type { ComplianceRule } from './compliance-rules'
import {
  DEFAULT_MONEY_RULES,
  formatMoney,
  formatThreshold,
  missingForFreeShipping,
  salePercent,
  shippingFor,
} from './money'
import { totalsFor, type TaxContext } from './order-totals'

const rule = (rule: ComplianceRule['rule'], value: number, passedOn = false): ComplianceRule => ({
  id: rule,
  rule,
  value,
  effectiveFrom: '2020-01-01',
  passedOn,
  label: null,
  source: null,
})

/** CDTFA's worked example: 15% excise, 8.5% sales tax, a 10% city tax passed on. */
const CDTFA: TaxContext = {
  rules: [
    rule('excise_rate', 0.15),
    rule('sales_tax_rate', 0.085),
    rule('local_tax_rate', 0.1, true),
  ],
  day: '2026-11-28',
  kind: 'adult',
  salesTaxExempt: false,
}

describe('money rules', () => {
  it('prices CDTFA’s example order: $35 of cannabis delivered for $5 comes to $54.28', () => {
    const totals = totalsFor(
      [{ price: 35, quantity: 1, cannabis: true }],
      'standard',
      'delivery',
      { ...DEFAULT_MONEY_RULES, standardShipping: 5, freeShippingThreshold: 100 },
      CDTFA,
    )
    expect(totals.taxLines.map((l) => [l.label, l.amount])).toEqual([
      ['City cannabis business tax (10%)', 3.5],
      ['Cannabis excise tax (15%)', 6.53],
      ['Sales tax (8.5%)', 4.25],
    ])
    expect(totals).toMatchObject({ subtotal: 35, shipping: 5, tax: 14.28, total: 54.28 })
  })

  it('ships free from $50, so the excise base has no fee, and rounds every amount to cents', () => {
    const totals = totalsFor(
      [{ price: 33.33, quantity: 3, cannabis: true }],
      'standard',
      'delivery',
      DEFAULT_MONEY_RULES,
      CDTFA,
    )
    expect(totals.subtotal).toBe(99.99)
    expect(totals.shipping).toBe(0)
    expect(totals.taxLines.find((l) => l.kind === 'excise')!.base).toBe(109.99) // 99.99 + 10.00
    expect(totals.total).toBe(roundTo(99.99 + totals.tax))
  })

  it('prices express delivery at $19.99 and pickup at nothing', () => {
    expect(shippingFor(120, 'express')).toBe(19.99)
    expect(shippingFor(20, 'standard', 'pickup')).toBe(0)
    expect(shippingFor(0)).toBe(0)
  })

  it('says how much is missing for free delivery', () => {
    expect(missingForFreeShipping(42.5)).toBe(7.5)
    expect(missingForFreeShipping(50)).toBe(0)
    expect(missingForFreeShipping(0)).toBe(0)
  })

  it('computes the sale percent and formats dollars', () => {
    expect(salePercent(30, 40)).toBe(25)
    expect(salePercent(40, 30)).toBe(0)
    expect(salePercent(40, null)).toBe(0)
    expect(formatMoney(1299.999)).toBe('$1,300.00')
    expect(formatMoney(1820.32)).toBe('$1,820.32')
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89')
    expect(formatMoney(-5)).toBe('-$5.00')
    expect(formatMoney(-0.001)).toBe('$0.00')
    expect(formatMoney(null)).toBe('$0.00')
  })
})

describe('money rules set in Admin Settings', () => {
  const rules = { freeShippingThreshold: 75, standardShipping: 7.5, expressDelivery: 24.99 }

  it('uses the given fees and free-delivery threshold', () => {
    const totals = totalsFor(
      [{ price: 22, quantity: 3, cannabis: false }],
      'standard',
      'delivery',
      rules,
      CDTFA,
    )
    // A bag pays sales tax only, on itself and its delivery: 8.5% of 73.50.
    expect(totals.taxLines).toEqual([
      { kind: 'sales', label: 'Sales tax (8.5%)', rate: 0.085, base: 73.5, amount: 6.25 },
    ])
    expect(totals.total).toBe(79.75)
    expect(shippingFor(80, 'standard', 'delivery', rules)).toBe(0)
    expect(shippingFor(80, 'express', 'delivery', rules)).toBe(24.99)
    expect(missingForFreeShipping(66, rules)).toBe(9)
  })

  it('writes the threshold without cents when it is whole dollars', () => {
    expect(formatThreshold(50)).toBe('$50')
    expect(formatThreshold(49.5)).toBe('$49.50')
  })
})

function roundTo(value: number) {
  return Math.round(value * 100) / 100
}
