/**
 * An order's money as every shopper screen prints it (cart, checkout, confirmation, order page,
 * Track Order): the subtotal, the delivery fee (or free pickup), any discount, then each tax on
 * its own line with the label the rules give it ("Cannabis excise tax (15%)"), in CDTFA's order
 * of computation, then the total; the lines add up to the total. An order priced before
 * California's taxes (no `taxLines`) keeps the one "Tax" line it was charged (docs/decisions/051-california-taxes-and-daily-limits.md).
 */
import { EXCISE_INCLUDED_TEXT, type TaxLine } from './california-tax'
import { formatMoney, type Fulfilment } from './money'

export { EXCISE_INCLUDED_TEXT }

export type ReceiptTotals = {
  subtotal: number
  tax: number
  shipping: number
  discount: number
  total: number
  /** As stored or sent: a device document's `kind` is a plain string. */
  taxLines?: readonly (Pick<TaxLine, 'label' | 'amount'> & { kind: string })[] | null
  salesTaxExempt?: boolean
}

export type ReceiptRow = { label: string; value: string }

/** Under the totals of the cart and checkout, before anything is charged. */
export const EXCISE_IN_TOTAL_TEXT = "Taxes include California's cannabis excise tax."

/**
 * Beside a medical order's totals when its MMIC exempts the cannabis (R&T Code §6363.7). Worded
 * "sales and use tax" so no line of the page reads like a sales tax charged.
 */
export const MMIC_EXEMPT_TEXT =
  'Medical patient with a valid MMIC: the cannabis is exempt from sales and use tax; the excise still applies.'

export function receiptRows(totals: ReceiptTotals, fulfilment: Fulfilment): ReceiptRow[] {
  const rows: ReceiptRow[] = [{ label: 'Subtotal', value: formatMoney(totals.subtotal) }]
  if (fulfilment === 'pickup') rows.push({ label: 'Pickup', value: 'Free' })
  else
    rows.push({
      label: 'Delivery fee',
      value: totals.shipping > 0 ? formatMoney(totals.shipping) : 'Free',
    })
  if (totals.discount > 0)
    rows.push({ label: 'Discount', value: `-${formatMoney(totals.discount)}` })
  if (totals.taxLines) {
    for (const line of totals.taxLines)
      rows.push({ label: line.label, value: formatMoney(line.amount) })
  } else {
    rows.push({ label: 'Tax', value: formatMoney(totals.tax) })
  }
  return rows
}

/** Whether the totals hold a cannabis excise line, which the receipt must say is included. */
export function hasExcise(totals: ReceiptTotals): boolean {
  return (totals.taxLines ?? []).some((line) => line.kind === 'excise')
}

/**
 * The notes under the total: that the excise is included (a receipt, once ordered, states it in
 * the Cannabis Tax Law's words; the cart and checkout say it plainly), and a medical patient's
 * exemption.
 */
export function receiptNotes(totals: ReceiptTotals, kind: 'receipt' | 'preview'): string[] {
  const notes: string[] = []
  if (hasExcise(totals))
    notes.push(kind === 'receipt' ? EXCISE_INCLUDED_TEXT : EXCISE_IN_TOTAL_TEXT)
  if (totals.salesTaxExempt) notes.push(MMIC_EXEMPT_TEXT)
  return notes
}
