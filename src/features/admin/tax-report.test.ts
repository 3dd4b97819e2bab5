import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import {
  adminOrderRowToDoc,
  type AdminOrderRow,
} from '../../data/replication/admin-orders-replication'
import { ordersToCsv, salesReportToCsv } from './admin-csv'
import { sumTaxesByKind, taxesByKind, taxLinesText } from './order-taxes'
import { monthPeriods, quarterPeriods, taxReportOf, taxReportToCsv } from './tax-report'

const cellsOf = (csv: string) =>
  Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data

// CDTFA's worked example: $35 of cannabis, a 10% city tax passed on, $5 delivery, 15% excise,
// 8.5% sales tax: $54.28.
const CDTFA_LINES = [
  { kind: 'local', label: 'City cannabis business tax (10%)', rate: 0.1, base: 35, amount: 3.5 },
  { kind: 'excise', label: 'Cannabis excise tax (15%)', rate: 0.15, base: 43.5, amount: 6.53 },
  { kind: 'sales', label: 'Sales tax (8.5%)', rate: 0.085, base: 50.03, amount: 4.25 },
]

function orderRow(over: Partial<AdminOrderRow> = {}): AdminOrderRow {
  return {
    id: '1a2b3c4d-0000-4000-8000-000000000031',
    _modified: '2026-11-28T19:00:00.000Z',
    _deleted: false,
    status: 'delivered',
    customerName: 'Casey Diaz',
    customerEmail: 'casey@example.com',
    fulfilment: 'delivery',
    deliveryMethod: 'standard',
    paymentMethod: 'cash',
    subtotal: 35,
    tax: 14.28,
    taxLines: CDTFA_LINES,
    salesTaxExempt: false,
    customerKind: 'adult',
    shipping: 5,
    discount: 0,
    total: 54.28,
    statusHistory: [{ status: 'pending', at: '2026-11-28T19:00:00.000Z', by: null }],
    items: [{ productId: 'p1', name: 'Gelato Shatter', unitPrice: 35, quantity: 1, lineTotal: 35 }],
    createdAt: '2026-11-28T19:00:00.000Z',
    ...over,
  }
}

describe('taxes by kind', () => {
  it("splits CDTFA's example into its three taxes", () => {
    const order = adminOrderRowToDoc(orderRow())
    expect(taxesByKind(order)).toEqual({ local: 3.5, excise: 6.53, sales: 4.25 })
    expect(taxLinesText(order)).toBe(
      'City cannabis business tax (10%): 3.50; Cannabis excise tax (15%): 6.53; Sales tax (8.5%): 4.25',
    )
  })

  it('counts the one tax of an order placed before as sales tax', () => {
    const old = adminOrderRowToDoc(orderRow({ taxLines: null, tax: 3.2 }))
    expect(old.taxLines).toBeNull()
    expect(taxesByKind(old)).toEqual({ local: 0, excise: 0, sales: 3.2 })
    expect(taxLinesText(old)).toBe('Tax: 3.20')
  })

  it('sums to the cent, where adding dollars would drift', () => {
    const dime = { tax: 0.1, taxLines: [{ kind: 'excise', amount: 0.1 }] }
    const orders = Array.from({ length: 3 }, () => dime)
    // 0.1 + 0.1 + 0.1 is 0.30000000000000004 in binary floats.
    expect(sumTaxesByKind(orders).excise).toBe(0.3)
    expect(sumTaxesByKind([...orders, { tax: 0.2, taxLines: null }])).toEqual({
      local: 0,
      excise: 0.3,
      sales: 0.2,
    })
  })
})

describe('Export Orders and the sales report', () => {
  it('give each tax its own column, and the sale’s kind', () => {
    const medical = adminOrderRowToDoc(
      orderRow({
        id: '2b2b3c4d-0000-4000-8000-000000000032',
        customerKind: 'medical',
        salesTaxExempt: true,
        mmic: { number: 'MMIC1234', expiry: '2027-06-30', checked: true },
        tax: 6.53,
        total: 46.53,
        taxLines: [CDTFA_LINES[1]!],
        shipping: 5,
        subtotal: 35,
      }),
    )
    const [adult, patient] = cellsOf(ordersToCsv([adminOrderRowToDoc(orderRow()), medical]))
    expect(adult).toMatchObject({
      subtotal: '35.00',
      shipping: '5.00',
      tax: '14.28',
      local_tax: '3.50',
      excise_tax: '6.53',
      sales_tax: '4.25',
      total: '54.28',
      customer_kind: 'Adult use (21+)',
      sales_tax_exempt: 'false',
    })
    expect(patient).toMatchObject({
      local_tax: '0.00',
      excise_tax: '6.53',
      sales_tax: '0.00',
      customer_kind: 'Medical patient (18+)',
      sales_tax_exempt: 'true',
      tax_lines: 'Cannabis excise tax (15%): 6.53',
    })
    // The card's number stays on the board (staff only), not in a file that travels.
    expect(ordersToCsv([medical])).not.toContain('MMIC1234')
  })

  it('never writes the ID number typed at a handoff', () => {
    const handedOver = { ...adminOrderRowToDoc(orderRow()), idNumber: 'D7654321', idChecked: true }
    expect(ordersToCsv([handedOver])).not.toContain('D7654321')
  })

  it('the sales report names each tax', () => {
    const csv = salesReportToCsv({
      period: 'Last 30 days',
      totals: { orders: 1, sales: 1, revenue: 54.28, averageOrderValue: 54.28 },
      tax: 14.28,
      taxes: { local: 3.5, excise: 6.53, sales: 4.25 },
      shipping: 5,
      discount: 0,
      byStatus: [{ label: 'Delivered', count: 1 }],
      top: [],
    })
    expect(csv).toContain('cannabis excise tax,6.53')
    expect(csv).toContain('sales tax,4.25')
    expect(csv).toContain('local cannabis business tax,3.50')
    expect(csv).toContain('delivery fees,5.00')
  })
})

describe('the tax report', () => {
  it('offers months and quarters of the shop calendar, the current one first', () => {
    expect(monthPeriods('2028-03-15', 3)).toEqual([
      { value: '2028-03', label: 'March 2028', from: '2028-03-01', to: '2028-03-31' },
      { value: '2028-02', label: 'February 2028', from: '2028-02-01', to: '2028-02-29' },
      { value: '2028-01', label: 'January 2028', from: '2028-01-01', to: '2028-01-31' },
    ])
    expect(monthPeriods('2027-01-02', 2)[1]).toMatchObject({ from: '2026-12-01', to: '2026-12-31' })
    expect(quarterPeriods('2026-11-28', 3)).toEqual([
      { value: '2026-Q4', label: 'Q4 2026 (Oct–Dec)', from: '2026-10-01', to: '2026-12-31' },
      { value: '2026-Q3', label: 'Q3 2026 (Jul–Sep)', from: '2026-07-01', to: '2026-09-30' },
      { value: '2026-Q2', label: 'Q2 2026 (Apr–Jun)', from: '2026-04-01', to: '2026-06-30' },
    ])
    expect(quarterPeriods('2027-02-01', 2)[1]!.value).toBe('2026-Q4')
  })

  it('reads the server’s answer and writes it to the cent', () => {
    const report = taxReportOf({
      from: '2026-10-01',
      to: '2026-12-31',
      orders: 2,
      grossReceipts: 80,
      cannabisSales: 70,
      otherSales: 0,
      deliveryFees: 10,
      exciseBase: 87,
      exciseTax: 13.06,
      salesTaxBase: 50.03,
      salesTax: '4.25',
      exemptMedicalSales: 35,
      exemptMedicalOrders: 1,
      localTax: 3.5,
      totalCollected: 100.81,
    })
    expect(report.salesTax).toBe(4.25)
    const rows = cellsOf(taxReportToCsv(report, 'Q4 2026 (Oct–Dec)'))
    const byKey = Object.fromEntries(rows.map((r): [string, string] => [r.key!, r.value!]))
    expect(byKey).toMatchObject({
      period: 'Q4 2026 (Oct–Dec)',
      from: '2026-10-01',
      to: '2026-12-31',
      orders: '2',
      grossReceipts: '80.00',
      exciseTax: '13.06',
      salesTax: '4.25',
      exemptMedicalSales: '35.00',
      exemptMedicalOrders: '1',
      localTax: '3.50',
      totalCollected: '100.81',
    })
    expect(rows.find((r) => r.key === 'exciseTax')!.metric).toBe('Cannabis excise tax collected')
  })

  it('reads a missing figure as 0 and refuses an empty answer', () => {
    expect(taxReportOf({ from: '2026-11-01', to: '2026-11-30' }).exciseTax).toBe(0)
    expect(() => taxReportOf(null)).toThrow('The server sent no tax report')
  })
})
