/**
 * A sale's taxes as California defines them (CDTFA, "Tax Facts for Cannabis Businesses — Gross
 * Receipts Subject to Cannabis Excise Tax"; docs/decisions/051-california-taxes-and-daily-limits.md), in CDTFA's order of computation:
 *
 * 1. the local cannabis business tax the shop passes on separately stated, on the cannabis sold;
 * 2. the cannabis excise tax on the gross receipts of the cannabis: its price after discounts,
 *    the local tax, and the delivery fee (the shop delivers in its own vehicle);
 * 3. sales tax on everything charged, the excise and local tax included — except the cannabis
 *    of a medical patient with a valid MMIC (R&T Code §6363.7), whose share (with its delivery)
 *    pays no sales tax.
 *
 * Money is in whole cents and each tax line is rounded to the cent, half up (CDTFA's example:
 * 15% of $43.50 is $6.525 → $6.53), exactly as Postgres's round(numeric, 2) in `order_taxes`.
 */
import { formatRate, type TaxRates } from './compliance-rules'

export type TaxKind = 'local' | 'excise' | 'sales'

export type TaxLine = {
  kind: TaxKind
  /** As the receipt prints it: "Cannabis excise tax (15%)". */
  label: string
  rate: number
  base: number
  amount: number
}

export type TaxInput = {
  /** Cannabis goods, after discounts (excise applies). */
  cannabis: number
  /** Accessories and merchandise, after discounts (sales tax only). */
  other: number
  /** The delivery fee charged; 0 for pickup and free delivery. */
  deliveryFee: number
  /** A medical order with an MMIC valid on the sale's date. */
  salesTaxExempt: boolean
}

export type TaxResult = {
  lines: TaxLine[]
  /** Gross receipts subject to the cannabis excise tax. */
  exciseBase: number
  /** Gross receipts subject to sales tax. */
  salesBase: number
  /** All tax lines together. */
  tax: number
}

const cents = (dollars: number) => Math.round(dollars * 100)
const dollars = (value: number) => value / 100

/** A rate (at most five decimals) of an amount in cents, rounded half up to the cent. */
export function taxCents(baseCents: number, rate: number): number {
  const r = Math.round(rate * 100_000)
  return Math.floor((baseCents * r + 50_000) / 100_000)
}

export function taxLabel(kind: TaxKind, rate: number, localLabel: string): string {
  const name =
    kind === 'excise' ? 'Cannabis excise tax' : kind === 'sales' ? 'Sales tax' : localLabel
  return `${name} (${formatRate(rate)})`
}

export function computeTaxes(input: TaxInput, rates: TaxRates): TaxResult {
  const cannabis = Math.max(0, cents(input.cannabis))
  const other = Math.max(0, cents(input.other))
  const fee = Math.max(0, cents(input.deliveryFee))
  // The fee of an order with cannabis is part of the cannabis's gross receipts (the stricter
  // reading: the whole fee, not a share); an order of merchandise only pays sales tax on it.
  const feeWithCannabis = cannabis > 0 ? fee : 0
  const local = taxCents(cannabis, rates.local)
  const exciseBase = cannabis > 0 ? cannabis + local + feeWithCannabis : 0
  const excise = taxCents(exciseBase, rates.excise)
  const salesBase = input.salesTaxExempt
    ? other + (cannabis > 0 ? 0 : fee)
    : cannabis + local + excise + other + fee
  const sales = taxCents(salesBase, rates.sales)

  const lines: TaxLine[] = []
  const add = (kind: TaxKind, rate: number, base: number, amount: number) => {
    if (base <= 0 || rate <= 0) return
    lines.push({
      kind,
      label: taxLabel(kind, rate, rates.localLabel),
      rate,
      base: dollars(base),
      amount: dollars(amount),
    })
  }
  add('local', rates.local, cannabis, local)
  add('excise', rates.excise, exciseBase, excise)
  add('sales', rates.sales, salesBase, sales)
  return {
    lines,
    exciseBase: dollars(exciseBase),
    salesBase: dollars(salesBase),
    tax: dollars(local + excise + sales),
  }
}

/** The receipt's statement that the excise collected is part of the total (Cannabis Tax Law). */
export const EXCISE_INCLUDED_TEXT =
  'The cannabis excise taxes are included in the total amount of this invoice.'
