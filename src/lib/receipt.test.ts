import { describe, expect, it } from 'vitest'
import { EXCISE_INCLUDED_TEXT } from './california-tax'
import {
  EXCISE_IN_TOTAL_TEXT,
  hasExcise,
  MMIC_EXEMPT_TEXT,
  receiptNotes,
  receiptRows,
  type ReceiptTotals,
} from './receipt'

const priced: ReceiptTotals = {
  subtotal: 22,
  shipping: 9.99,
  discount: 0,
  tax: 8.39,
  total: 40.38,
  taxLines: [
    { kind: 'excise', label: 'Cannabis excise tax (15%)', amount: 4.8 },
    { kind: 'sales', label: 'Sales tax (9.75%)', amount: 3.59 },
  ],
}

const cents = (value: string) => Math.round(Number(value.replace(/^-?\$/, '')) * 100)

describe('the receipt’s lines', () => {
  it('print each tax on its own line after the delivery fee, and add up to the total', () => {
    const rows = receiptRows(priced, 'delivery')
    expect(rows).toEqual([
      { label: 'Subtotal', value: '$22.00' },
      { label: 'Delivery fee', value: '$9.99' },
      { label: 'Cannabis excise tax (15%)', value: '$4.80' },
      { label: 'Sales tax (9.75%)', value: '$3.59' },
    ])
    expect(rows.reduce((sum, r) => sum + cents(r.value), 0)).toBe(4038)
  })

  it('say free delivery or pickup, and take a discount off', () => {
    const free = receiptRows({ ...priced, shipping: 0, discount: 10 }, 'delivery')
    expect(free).toContainEqual({ label: 'Delivery fee', value: 'Free' })
    expect(free).toContainEqual({ label: 'Discount', value: '-$10.00' })
    expect(receiptRows({ ...priced, shipping: 0 }, 'pickup')[1]).toEqual({
      label: 'Pickup',
      value: 'Free',
    })
    expect(receiptRows(priced, 'pickup').map((r) => r.label)).not.toContain('Delivery fee')
  })

  it('keep one "Tax" line for an order priced before California’s taxes', () => {
    const old = { subtotal: 22, shipping: 9.99, discount: 0, tax: 1.76, total: 33.75 }
    expect(receiptRows(old, 'delivery').at(-1)).toEqual({ label: 'Tax', value: '$1.76' })
    expect(receiptRows({ ...old, taxLines: null }, 'delivery').at(-1)?.label).toBe('Tax')
    expect(hasExcise(old)).toBe(false)
    expect(receiptNotes(old, 'receipt')).toEqual([])
  })

  it('say the excise is included, in the law’s words on a receipt, and a patient’s exemption', () => {
    expect(receiptNotes(priced, 'receipt')).toEqual([EXCISE_INCLUDED_TEXT])
    expect(receiptNotes(priced, 'preview')).toEqual([EXCISE_IN_TOTAL_TEXT])
    const exempt = { ...priced, taxLines: priced.taxLines!.slice(0, 1), salesTaxExempt: true }
    expect(receiptNotes(exempt, 'receipt')).toEqual([EXCISE_INCLUDED_TEXT, MMIC_EXEMPT_TEXT])
    // Nothing on a patient's page reads like a sales tax charged.
    expect(MMIC_EXEMPT_TEXT.toLowerCase()).not.toContain('sales tax')
  })
})
