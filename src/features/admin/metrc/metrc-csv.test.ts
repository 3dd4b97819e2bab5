import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { validateProductForm, emptyProductForm } from '../admin.validation'
import { checkReturnForm } from '../orders/order-returns'
import { metrcGapsOf, metrcSalesToCsv, metrcFileName } from './metrc-csv'
import { METRC_SALES_COLUMNS } from './metrc-layout'
import { metrcSalesDayOf, type MetrcSalesDay } from './metrc-sales'
import { readMetrcCells } from './metrc-package-csv'
import { csvSalesReporter } from './sales-reporter'

const TAG_A = '1A4FF0100000022000000123'
const TAG_B = '1A4060300020081000006609'

const day: MetrcSalesDay = metrcSalesDayOf({
  day: '2026-11-27',
  complete: true,
  lastExport: null,
  receipts: [
    {
      kind: 'sale',
      orderId: '8d1f2a3b-0000-4000-8000-000000000001',
      receiptNumber: '8D1F2A3B',
      salesDateTime: '2026-11-27T14:05:00',
      customerType: 'Consumer',
      patientLicenseNumber: null,
      fulfilment: 'delivery',
      recipient: { city: '=HYPERLINK("x")', county: null, postalCode: '90012' },
      lines: [
        {
          productName: 'Gummies',
          packageLabel: TAG_A,
          quantity: 2,
          unitOfMeasure: 'Each',
          totalAmount: 40,
        },
        {
          productName: 'Shake',
          packageLabel: TAG_B,
          quantity: 3.123456,
          unitOfMeasure: 'Grams',
          totalAmount: 12.5,
        },
      ],
    },
    {
      kind: 'return',
      orderId: '8d1f2a3b-0000-4000-8000-000000000001',
      receiptNumber: '8D1F2A3B-R1',
      salesDateTime: '2026-11-27T18:00:00',
      customerType: 'Patient',
      patientLicenseNumber: 'MMIC9876',
      fulfilment: 'pickup',
      recipient: null,
      lines: [
        {
          productName: 'Gummies',
          packageLabel: TAG_A,
          quantity: -1,
          unitOfMeasure: 'Each',
          totalAmount: -20,
        },
      ],
    },
  ],
})

const rowsOf = (csv: string) => Papa.parse<string[]>(csv.trim()).data

describe('the Metrc sales CSV', () => {
  it('writes the recorded columns in order, one row per package line, the receipt repeated on each', () => {
    const [header, ...rows] = rowsOf(metrcSalesToCsv(day))
    expect(header).toEqual([...METRC_SALES_COLUMNS])
    expect(rows).toHaveLength(3)
    const cell = (row: string[], column: (typeof METRC_SALES_COLUMNS)[number]) =>
      row[METRC_SALES_COLUMNS.indexOf(column)]
    expect(rows.map((r) => cell(r, 'Receipt Number'))).toEqual([
      '8D1F2A3B',
      '8D1F2A3B',
      '8D1F2A3B-R1',
    ])
    expect(rows.map((r) => cell(r, 'Package Label'))).toEqual([TAG_A, TAG_B, TAG_A])
    expect(rows.map((r) => cell(r, 'Quantity'))).toEqual(['2', '3.1235', '-1'])
    expect(rows.map((r) => cell(r, 'Total Amount'))).toEqual(['40', '12.5', '-20'])
    expect(cell(rows[2]!, 'Sales Customer Type')).toBe('Patient')
    expect(cell(rows[2]!, 'Patient License Number')).toBe('MMIC9876')
    expect(cell(rows[0]!, 'Recipient Address Postal Code')).toBe('90012')
    expect(cell(rows[2]!, 'Recipient Address City')).toBe('')
  })

  it('never writes a formula, and leaves a return’s negative figures as numbers', () => {
    const csv = metrcSalesToCsv(day)
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`)
    expect(csv).toContain(',-1,Each,-20,')
    expect(csv).not.toContain("'-")
  })

  it('counts what staff must finish in Metrc by hand', () => {
    expect(metrcGapsOf(day)).toEqual({ linesWithoutPackage: 0, deliveriesWithoutCounty: 1 })
    const legacy = metrcSalesDayOf({
      receipts: [
        { kind: 'sale', lines: [{ productName: 'Old', packageLabel: null, quantity: 1 }] },
      ],
    })
    expect(metrcGapsOf(legacy).linesWithoutPackage).toBe(1)
    expect(metrcFileName('2026-11-27')).toBe('metrc-sales-2026-11-27.csv')
  })

  it('reads a short or odd server answer as empty rather than failing', () => {
    expect(metrcSalesDayOf(null)).toEqual({
      day: '',
      complete: false,
      receipts: [],
      lastExport: null,
    })
    const odd = metrcSalesDayOf({ receipts: [{ lines: 'x', customerType: 'Alien' }] })
    expect(odd.receipts[0]).toMatchObject({ kind: 'sale', customerType: 'Consumer', lines: [] })
  })

  it('reports through the one interface: the file to save, then the day marked on the server', async () => {
    const saved: [string, string][] = []
    const calls: [string, unknown][] = []
    const supabase = {
      rpc: (fn: string, args: unknown) => {
        calls.push([fn, args])
        return Promise.resolve({ data: { receipts: 2 }, error: null })
      },
    } as unknown as Parameters<typeof csvSalesReporter>[0]
    const reporter = csvSalesReporter(supabase, (name, text) => saved.push([name, text]))
    expect(await reporter.report(day)).toEqual({
      channel: 'csv-file',
      receipts: 2,
      fileName: 'metrc-sales-2026-11-27.csv',
    })
    expect(saved[0]![1]).toBe(metrcSalesToCsv(day))
    expect(calls).toEqual([['admin_mark_metrc_exported', { p_day: '2026-11-27' }]])
  })
})

describe('the product form’s Metrc package', () => {
  const form = (over: Partial<typeof emptyProductForm>) =>
    validateProductForm({ ...emptyProductForm, sku: 'S', name: 'N', ...over })

  it('takes a tag as typed (spaces, lower case) and stores it in capitals', () => {
    const result = form({ metrc_package_tag: ' 1a4ff01000000220000 00123 ', metrc_unit: 'Each' })
    expect(result.ok && result.output.metrc_package_tag).toBe(TAG_A)
  })

  it('says what is wrong with a tag, a missing unit, a weighed unit without weight, merchandise', () => {
    const errors = (over: Partial<typeof emptyProductForm>) => {
      const result = form(over)
      return result.ok ? {} : result.errors
    }
    expect(errors({ metrc_package_tag: '1A4FF01', metrc_unit: 'Each' }).metrc_package_tag).toMatch(
      /24-character UID/,
    )
    expect(errors({ metrc_package_tag: TAG_A }).metrc_unit).toMatch(/unit of measure/)
    expect(errors({ metrc_package_tag: TAG_A, metrc_unit: 'Grams' }).metrc_unit).toBe(
      "A package counted in Grams needs the product's weight in grams",
    )
    expect(errors({ metrc_package_tag: TAG_A, metrc_unit: 'Grams', weight_grams: '3.5' })).toEqual(
      {},
    )
    expect(
      errors({ metrc_package_tag: TAG_A, metrc_unit: 'Each', is_cannabis: false })
        .metrc_package_tag,
    ).toMatch(/not cannabis/)
    expect(errors({})).toEqual({})
  })
})

describe('the return form', () => {
  const returnable = [
    { itemId: 'a', name: 'Gummies', isCannabis: true, sold: 2, returnable: 2 },
    { itemId: 'b', name: 'Tote', isCannabis: false, sold: 1, returnable: 1 },
  ]

  it('sends the lines that came back, cannabis never back to stock', () => {
    const result = checkReturnForm(
      {
        lines: { a: { quantity: '1', restock: true }, b: { quantity: '1', restock: true } },
        reason: ' Damaged ',
        refund: '25.50',
      },
      returnable,
      60,
    )
    expect(result).toEqual({
      ok: true,
      request: {
        lines: [
          { itemId: 'a', quantity: 1, restock: false },
          { itemId: 'b', quantity: 1, restock: true },
        ],
        reason: 'Damaged',
        refund: 25.5,
      },
    })
  })

  it('refuses nothing returned, too many, no reason and a refund above what was paid', () => {
    const result = checkReturnForm(
      { lines: { a: { quantity: '3', restock: false } }, reason: '', refund: '61' },
      returnable,
      60,
    )
    expect(result).toEqual({
      ok: false,
      errors: {
        'line-a': 'Gummies: 1 to 2',
        reason: 'Say why the goods came back',
        refund: 'At most 60.00: what the customer paid less earlier refunds',
      },
    })
    const empty = checkReturnForm({ lines: {}, reason: 'x', refund: '1.234' }, returnable, 60)
    expect(empty).toEqual({
      ok: false,
      errors: {
        lines: 'Say how many of at least one line came back',
        refund: 'Dollars and cents only (like 12.50)',
      },
    })
  })
})

describe('the Metrc package in Export and Import Products', () => {
  it('reads the package only where the file has its columns, in capitals, empty as none', () => {
    const columns = ['sku', 'metrc_package_tag', 'metrc_unit']
    expect(
      readMetrcCells(
        { metrc_package_tag: '1a4ff0100000022000000123 ', metrc_unit: 'Grams' },
        columns,
      ),
    ).toEqual({ fields: { metrc_package_tag: TAG_A, metrc_unit: 'Grams' }, errors: [] })
    expect(readMetrcCells({ metrc_package_tag: '', metrc_unit: '' }, columns)).toEqual({
      fields: { metrc_package_tag: null, metrc_unit: null },
      errors: [],
    })
    expect(readMetrcCells({}, ['sku'])).toEqual({ fields: {}, errors: [] })
    const bad = readMetrcCells({ metrc_package_tag: 'XYZ', metrc_unit: 'Bushels' }, columns)
    expect(bad.errors).toEqual([
      expect.stringMatching(/^metrc_package_tag: Metrc package tag must be/),
      expect.stringMatching(/^metrc_unit: Metrc unit of measure must be one of/),
    ])
  })
})
