import { describe, expect, it } from 'vitest'
import { computeTaxes, taxCents } from './california-tax'
import { DEFAULT_COMPLIANCE_RULES } from './compliance-defaults'
import {
  dailyLimitsOn,
  formatRate,
  ruleOn,
  taxRatesOn,
  type ComplianceRule,
  type TaxRates,
} from './compliance-rules'

const CDTFA: TaxRates = {
  excise: 0.15,
  sales: 0.085,
  local: 0.1,
  localLabel: 'City cannabis business tax',
}

describe('computeTaxes', () => {
  it('reproduces CDTFA’s worked example to the cent ($35 + 10% city tax + $5 delivery → $54.28)', () => {
    const result = computeTaxes(
      { cannabis: 35, other: 0, deliveryFee: 5, salesTaxExempt: false },
      CDTFA,
    )
    expect(result.lines).toEqual([
      {
        kind: 'local',
        label: 'City cannabis business tax (10%)',
        rate: 0.1,
        base: 35,
        amount: 3.5,
      },
      { kind: 'excise', label: 'Cannabis excise tax (15%)', rate: 0.15, base: 43.5, amount: 6.53 },
      { kind: 'sales', label: 'Sales tax (8.5%)', rate: 0.085, base: 50.03, amount: 4.25 },
    ])
    expect(result.exciseBase).toBe(43.5)
    expect(result.salesBase).toBe(50.03)
    expect(35 + 5 + result.tax).toBeCloseTo(54.28, 10)
  })

  it('charges a non-cannabis item sales tax only, and keeps it out of the excise base', () => {
    const bag = computeTaxes(
      { cannabis: 0, other: 39.99, deliveryFee: 0, salesTaxExempt: false },
      CDTFA,
    )
    expect(bag.lines.map((l) => l.kind)).toEqual(['sales'])
    expect(bag.lines[0]!.amount).toBe(3.4) // 8.5% of 39.99 = 3.39915
    const mixed = computeTaxes(
      { cannabis: 35, other: 39.99, deliveryFee: 5, salesTaxExempt: false },
      CDTFA,
    )
    expect(mixed.exciseBase).toBe(43.5)
    expect(mixed.salesBase).toBe(90.02) // 50.03 + 39.99
  })

  it('exempts a valid MMIC order’s cannabis from sales tax; the excise still applies', () => {
    const result = computeTaxes(
      { cannabis: 35, other: 0, deliveryFee: 5, salesTaxExempt: true },
      CDTFA,
    )
    expect(result.lines.map((l) => l.kind)).toEqual(['local', 'excise'])
    expect(result.lines.find((l) => l.kind === 'excise')!.amount).toBe(6.53)
    expect(result.salesBase).toBe(0)
    // Merchandise bought with it still pays sales tax.
    const withBag = computeTaxes(
      { cannabis: 35, other: 20, deliveryFee: 5, salesTaxExempt: true },
      CDTFA,
    )
    expect(withBag.lines.find((l) => l.kind === 'sales')).toMatchObject({ base: 20, amount: 1.7 })
  })

  it('taxes the price after discounts, and free delivery adds nothing to the bases', () => {
    const discounted = computeTaxes(
      { cannabis: 28, other: 0, deliveryFee: 0, salesTaxExempt: false },
      {
        ...CDTFA,
        local: 0,
      },
    )
    expect(discounted.lines).toEqual([
      { kind: 'excise', label: 'Cannabis excise tax (15%)', rate: 0.15, base: 28, amount: 4.2 },
      { kind: 'sales', label: 'Sales tax (8.5%)', rate: 0.085, base: 32.2, amount: 2.74 },
    ])
  })

  it('leaves out a local tax the shop does not pass on, and lines of nothing', () => {
    const result = computeTaxes(
      { cannabis: 0, other: 0, deliveryFee: 0, salesTaxExempt: false },
      CDTFA,
    )
    expect(result.lines).toEqual([])
    expect(result.tax).toBe(0)
  })

  it('rounds each line half up to the cent with exact integer arithmetic', () => {
    expect(taxCents(4350, 0.15)).toBe(653) // 652.5
    expect(taxCents(2200, 0.08875)).toBe(195) // 195.25
    expect(taxCents(1, 0.5)).toBe(1) // 0.5 → 1
    expect(taxCents(123_456_789, 0.0975)).toBe(12_037_037) // 12,037,036.9...
  })
})

describe('rules in force on a date', () => {
  const rules = DEFAULT_COMPLIANCE_RULES

  it('uses the excise rate of the sale’s date: 15%, 19% from 2025-07-01, 15% again from 2025-10-01', () => {
    expect(ruleOn(rules, 'excise_rate', '2025-06-30')!.value).toBe(0.15)
    expect(ruleOn(rules, 'excise_rate', '2025-07-01')!.value).toBe(0.19)
    expect(ruleOn(rules, 'excise_rate', '2025-09-30')!.value).toBe(0.19)
    expect(ruleOn(rules, 'excise_rate', '2025-10-01')!.value).toBe(0.15)
  })

  it('switches to a rate entered ahead of time on the day it takes effect, not before', () => {
    const ahead: ComplianceRule[] = [
      ...rules,
      {
        id: 'x',
        rule: 'sales_tax_rate',
        value: 0.1025,
        effectiveFrom: '2027-01-01',
        passedOn: false,
        label: null,
        source: null,
      },
    ]
    expect(taxRatesOn(ahead, '2026-12-31', 'adult').sales).toBe(0.0975)
    expect(taxRatesOn(ahead, '2027-01-01', 'adult').sales).toBe(0.1025)
    const before = computeTaxes(
      { cannabis: 100, other: 0, deliveryFee: 0, salesTaxExempt: false },
      taxRatesOn(ahead, '2026-12-31', 'adult'),
    )
    const after = computeTaxes(
      { cannabis: 100, other: 0, deliveryFee: 0, salesTaxExempt: false },
      taxRatesOn(ahead, '2027-01-01', 'adult'),
    )
    expect(before.lines.find((l) => l.kind === 'sales')!.amount).toBe(11.21) // 9.75% of 115
    expect(after.lines.find((l) => l.kind === 'sales')!.amount).toBe(11.79) // 10.25% of 115
  })

  it('applies a local tax only when passed on, at the medical rate for medical sales', () => {
    expect(taxRatesOn(rules, '2026-11-28', 'adult').local).toBe(0)
    const passed = rules.map((r) => (r.rule === 'local_tax_rate' ? { ...r, passedOn: true } : r))
    expect(taxRatesOn(passed, '2026-11-28', 'adult').local).toBe(0.1)
    expect(taxRatesOn(passed, '2026-11-28', 'medical').local).toBe(0.05)
  })

  it('gives §15409’s limits by customer kind', () => {
    expect(dailyLimitsOn(rules, '2026-11-28', 'adult')).toEqual({
      flowerGrams: 28.5,
      concentrateGrams: 8,
    })
    expect(dailyLimitsOn(rules, '2026-11-28', 'medical')).toEqual({
      flowerGrams: 226.8,
      concentrateGrams: 8,
    })
    expect(dailyLimitsOn(rules, '2017-01-01', 'adult')).toEqual({
      flowerGrams: null,
      concentrateGrams: null,
    })
  })

  it('prints rates as receipts do', () => {
    expect([0.15, 0.085, 0.0975, 0.08875, 0.1].map(formatRate)).toEqual([
      '15%',
      '8.5%',
      '9.75%',
      '8.875%',
      '10%',
    ])
  })
})
