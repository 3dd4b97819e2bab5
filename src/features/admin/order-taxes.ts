/**
 * An order's taxes by kind for the exports and the sales report (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md):
 * the local cannabis business tax passed on, the cannabis excise tax and sales tax, each as the
 * order's receipt states it. An order placed before the taxes were itemised has one "Tax" line:
 * it counts as sales tax, as the server's tax report counts it (SPEC.md's 8% was a sales tax).
 * Sums are made in whole cents, so a period's figures are exact to the cent.
 */
import type { TaxKind } from '../../lib/california-tax'

export type TaxedOrder = {
  tax: number
  taxLines?: readonly { kind?: string; label?: string; amount?: number }[] | null
}

export type TaxesByKind = Record<TaxKind, number>

export const TAX_KINDS: readonly TaxKind[] = ['local', 'excise', 'sales']

export const cents = (dollars: number) => Math.round(dollars * 100)

const isKind = (kind: unknown): kind is TaxKind =>
  typeof kind === 'string' && (TAX_KINDS as readonly string[]).includes(kind)

function centsByKind(order: TaxedOrder): TaxesByKind {
  const out: TaxesByKind = { local: 0, excise: 0, sales: 0 }
  if (!order.taxLines) {
    out.sales = cents(order.tax)
    return out
  }
  for (const line of order.taxLines) {
    // A kind this device does not know yet is still tax: counted with sales tax, not lost.
    out[isKind(line.kind) ? line.kind : 'sales'] += cents(line.amount ?? 0)
  }
  return out
}

const toDollars = (c: TaxesByKind): TaxesByKind => ({
  local: c.local / 100,
  excise: c.excise / 100,
  sales: c.sales / 100,
})

/** One order's taxes by kind, in dollars. */
export function taxesByKind(order: TaxedOrder): TaxesByKind {
  return toDollars(centsByKind(order))
}

/** Several orders' taxes by kind, summed to the cent. */
export function sumTaxesByKind(orders: readonly TaxedOrder[]): TaxesByKind {
  const total: TaxesByKind = { local: 0, excise: 0, sales: 0 }
  for (const order of orders) {
    const c = centsByKind(order)
    for (const kind of TAX_KINDS) total[kind] += c[kind]
  }
  return toDollars(total)
}

/** "Cannabis excise tax (15%): 6.53; Sales tax (8.5%): 4.25", or "Tax: 3.20" for an older order. */
export function taxLinesText(order: TaxedOrder): string {
  if (!order.taxLines) return `Tax: ${order.tax.toFixed(2)}`
  return order.taxLines
    .map((line) => `${line.label ?? 'Tax'}: ${(line.amount ?? 0).toFixed(2)}`)
    .join('; ')
}
