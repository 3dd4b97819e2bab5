/**
 * An order's taxes and total as the device previews them: the subtotal and delivery fee of
 * ./money.ts, then California's taxes (./california-tax.ts) from the rules in force on the sale's
 * day for its buyer (docs/decisions/051-california-taxes-and-daily-limits.md). The server's `place_order` computes the same and decides.
 */
import { computeTaxes, type TaxLine } from './california-tax'
import { shopDate, taxRatesOn, type ComplianceRule, type CustomerKind } from './compliance-rules'
import {
  roundMoney,
  shippingFor,
  subtotalOf,
  type DeliveryMethod,
  type Fulfilment,
  type MoneyRules,
  type PricedLine,
} from './money'

/** Who buys, when, and the rules in force then: what a sale's taxes depend on. */
export type TaxContext = {
  rules: readonly ComplianceRule[]
  /** The sale's day in the shop's calendar (YYYY-MM-DD). */
  day: string
  kind: CustomerKind
  /** A medical order with an MMIC valid on `day`. */
  salesTaxExempt: boolean
}

export type Totals = {
  subtotal: number
  /** All tax lines together. */
  tax: number
  /** Each tax on its own line, as the receipt prints them. */
  taxLines: TaxLine[]
  shipping: number
  discount: number
  total: number
}

export function totalsFor(
  lines: readonly PricedLine[],
  method: DeliveryMethod,
  fulfilment: Fulfilment,
  rules: MoneyRules,
  context: TaxContext,
): Totals {
  const subtotal = subtotalOf(lines)
  const shipping = shippingFor(subtotal, method, fulfilment, rules)
  const discount = 0
  const taxes = computeTaxes(
    {
      cannabis: subtotalOf(lines.filter((line) => line.cannabis)),
      other: subtotalOf(lines.filter((line) => !line.cannabis)),
      deliveryFee: shipping,
      salesTaxExempt: context.salesTaxExempt,
    },
    taxRatesOn(context.rules, context.day, context.kind),
  )
  return {
    subtotal,
    tax: taxes.tax,
    taxLines: taxes.lines,
    shipping,
    discount,
    total: roundMoney(subtotal + taxes.tax + shipping - discount),
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** An MMIC exempts a sale from sales tax on the days up to and including its expiry date. */
export function mmicValidOn(expiry: string | null | undefined, day: string): boolean {
  return typeof expiry === 'string' && DAY.test(expiry) && expiry >= day
}

/** The tax context of a sale made now (`at`) by a customer of `kind`, with their MMIC if any. */
export function taxContextOf(
  rules: readonly ComplianceRule[],
  kind: CustomerKind,
  mmicExpiry: string | null,
  at: Date = new Date(),
): TaxContext {
  const day = shopDate(at)
  return { rules, day, kind, salesTaxExempt: kind === 'medical' && mmicValidOn(mmicExpiry, day) }
}
