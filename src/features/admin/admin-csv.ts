/**
 * CSV files of the back office (papaparse): products, orders and the sales report out, products
 * in. An import is checked row by row first; it is written only when every row is valid. No cell
 * goes out as a spreadsheet formula, and an exported file reads back to the same text
 * (docs/decisions/023-csv-cells.md).
 */
import Papa from 'papaparse'
import * as v from 'valibot'
import type { AdminOrderDoc } from '../../data/schemas/admin-order.schema'
import {
  customerKindLabel,
  orderNumber,
  orderStatusLabel,
  paymentLabel,
} from '../../lib/order-status'
import type { AdminProductRow, ProductFacts, SaveProductPayload } from './admin-product'
import { productFormSchema } from './admin.validation'
import { factCells, PRODUCT_FACT_COLUMNS, readFactCells } from './product-facts-csv'
import { taxesByKind, taxLinesText, type TaxesByKind } from './order-taxes'
import {
  METRC_PACKAGE_COLUMNS,
  metrcCells,
  readMetrcCells,
  type MetrcPackageFields,
} from './metrc/metrc-package-csv'

export const PRODUCT_CSV_COLUMNS = [
  'sku',
  'name',
  'description',
  'brand',
  'category',
  'product_type',
  'price',
  'original_price',
  'weight_grams',
  'quantity_available',
  'is_unlimited_quantity',
  'thc_percentage',
  'cbd_percentage',
  'total_cannabinoids_percentage',
  'smokeback_percentage',
  'is_on_sale',
  'is_active',
  'is_featured',
  'effects',
  'terpenes',
  'media',
  // Issue 31: optional in an imported file (product-facts-csv.ts).
  ...PRODUCT_FACT_COLUMNS,
  // Issue 32: optional in an imported file (metrc/metrc-package-csv.ts).
  ...METRC_PACKAGE_COLUMNS,
] as const

/**
 * OWASP's CSV injection rule: a cell starting with = + - @, a tab or a carriage return may be run
 * as a formula by a spreadsheet, so it goes out behind a single quote, in quotes. Papaparse's own
 * `escapeFormulae: true` tests /^[=+\-@\t\r].*$/, which misses any cell with a line break in it
 * (`.` stops at the break, `$` needs the end), so "=HYPERLINK(…)\n" went out as a formula. The
 * leading `'*` also quotes a cell someone began with quotes ("'=x"): the import takes exactly one
 * quote off, so every exported cell reads back to its own text.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/
/** A cell the export neutralized: one quote, then (maybe more quotes and) a formula character. */
const NEUTRALIZED = /^'+[=+\-@\t\r]/

/**
 * A cell of an export. Text is checked against FORMULA_START; numbers and booleans our code
 * writes are not (papaparse leaves them as they are), so a figure is never shown as '-1.
 */
export type CsvCell = string | number | boolean | null | undefined

/** Every CSV the app writes goes through here. */
export function toCsv(fields: readonly string[], data: readonly (readonly CsvCell[])[]): string {
  return Papa.unparse(
    { fields: [...fields], data: data.map((row) => [...row]) },
    { escapeFormulae: FORMULA_START },
  )
}

/** The import's side of FORMULA_START: an exported cell's own text. */
export function unneutralizeCell(text: string): string {
  return NEUTRALIZED.test(text) ? text.slice(1) : text
}

const cell = (n: number | null | undefined) => (n === null || n === undefined ? '' : n)

export function productsToCsv(rows: readonly AdminProductRow[]): string {
  return toCsv(
    PRODUCT_CSV_COLUMNS,
    rows.map((r) => [
      r.sku,
      r.name,
      r.description ?? '',
      r.brand?.name ?? '',
      r.category?.name ?? '',
      r.product_type?.name ?? '',
      cell(r.price),
      cell(r.original_price),
      cell(r.weight_grams),
      cell(r.quantity_available),
      String(r.is_unlimited_quantity),
      cell(r.thc_percentage),
      cell(r.cbd_percentage),
      cell(r.total_cannabinoids_percentage),
      cell(r.smokeback_percentage),
      String(r.is_on_sale),
      String(r.is_active),
      String(r.is_featured),
      r.product_effects.map((e) => e.effect_name).join('|'),
      r.terpene_profiles
        .map((t) => (t.percentage === null ? t.terpene_name : `${t.terpene_name}:${t.percentage}`))
        .join('|'),
      r.product_media.map((m) => m.media_url).join('|'),
      ...factCells(r),
      ...metrcCells(r),
    ]),
  )
}

/**
 * Orders out (the board's copy: never the ID number staff typed at a handoff, which the device
 * holds only until it is sent), each status in the order's own words (docs/decisions/018-order-after-checkout.md: a pickup order is never
 * "shipped"), with the stored code beside it for tools. A shopper's own text (a name
 * "=HYPERLINK(…)") is neutralized by toCsv. Money goes out with its two decimals as text; it is
 * never negative (the server checks >= 0), so no figure starts with a formula character.
 */
export function ordersToCsv(orders: readonly AdminOrderDoc[]): string {
  return toCsv(
    [
      // The first five as before this export spoke of pickup, for sheets that read them.
      'id',
      'created_at',
      'status',
      'customer_name',
      'customer_email',
      'order_number',
      'status_code',
      'fulfilment',
      'pickup_window_start',
      'pickup_window_end',
      'delivery_method',
      'payment_method',
      'items',
      'subtotal',
      'tax',
      'shipping',
      'discount',
      'total',
      // Issue 31: each tax by kind (an order from before counts its one tax as sales tax, as
      // the tax report does), the sale's kind, and the receipt's tax lines in words.
      'local_tax',
      'excise_tax',
      'sales_tax',
      'customer_kind',
      'sales_tax_exempt',
      'tax_lines',
    ],
    orders.map((o) => {
      const pickup = o.fulfilment === 'pickup'
      const taxes = taxesByKind(o)
      return [
        o.id,
        o.createdAt,
        orderStatusLabel(o.status, o.fulfilment),
        o.customerName,
        o.customerEmail,
        orderNumber(o.id),
        o.status,
        pickup ? 'pickup' : 'delivery',
        (pickup && o.pickupWindow?.start) || '',
        (pickup && o.pickupWindow?.end) || '',
        pickup ? '' : o.deliveryMethod,
        paymentLabel(o.paymentMethod, o.fulfilment),
        o.items.map((i) => `${i.quantity} x ${i.name}`).join('; '),
        o.subtotal.toFixed(2),
        o.tax.toFixed(2),
        o.shipping.toFixed(2),
        o.discount.toFixed(2),
        o.total.toFixed(2),
        taxes.local.toFixed(2),
        taxes.excise.toFixed(2),
        taxes.sales.toFixed(2),
        customerKindLabel(o.customerKind),
        String(o.salesTaxExempt === true),
        taxLinesText(o),
      ]
    }),
  )
}

/** What Generate Sales Report writes: the period's figures, then its top products. */
export type SalesReportFigures = {
  period: string
  totals: { orders: number; sales: number; revenue: number; averageOrderValue: number }
  /** Every tax together. */
  tax: number
  /** By kind: local cannabis business tax, cannabis excise, sales tax (order-taxes.ts). */
  taxes: TaxesByKind
  shipping: number
  discount: number
  byStatus: readonly { label: string; count: number }[]
  top: readonly { name: string; quantity: number; revenue: number }[]
}

/** The sales report's two tables, one after the other; product names are staff's own text. */
export function salesReportToCsv(report: SalesReportFigures): string {
  const summary = toCsv(
    ['metric', 'value'],
    [
      ['period', report.period],
      ['orders', report.totals.orders],
      ['sales (not cancelled)', report.totals.sales],
      ['revenue', report.totals.revenue.toFixed(2)],
      ['tax', report.tax.toFixed(2)],
      ['cannabis excise tax', report.taxes.excise.toFixed(2)],
      ['sales tax', report.taxes.sales.toFixed(2)],
      ['local cannabis business tax', report.taxes.local.toFixed(2)],
      ['delivery fees', report.shipping.toFixed(2)],
      ['discounts', report.discount.toFixed(2)],
      ['average order value', report.totals.averageOrderValue.toFixed(2)],
      ...report.byStatus.map((s) => [`orders ${s.label}`, s.count]),
    ],
  )
  const top = toCsv(
    ['product', 'units', 'revenue'],
    report.top.map((t) => [t.name, t.quantity, t.revenue.toFixed(2)]),
  )
  return `${summary}\r\n\r\n${top}`
}

export type Lookup = { id: string; name: string }
export type ImportRow = {
  /** The line in the file (the header is line 1). */
  line: number
  sku: string
  name: string
  action: 'create' | 'update'
  /** The facts only where the file has their columns (product-facts-csv.ts). */
  payload: Omit<
    SaveProductPayload,
    'id' | 'media' | 'metrc_package_tag' | 'metrc_unit' | keyof ProductFacts
  > &
    Partial<ProductFacts> &
    Partial<MetrcPackageFields> & {
      media:
        | {
            media_url: string
            media_type: 'image' | 'video'
            is_primary: boolean
            display_order: number
          }[]
        | undefined
    }
  existingId: string | null
  errors: string[]
}

const flag = (text: string | undefined, fallback: boolean) => {
  const t = (text ?? '').trim().toLowerCase()
  if (t === '') return fallback
  return ['true', 'yes', '1', 'y'].includes(t)
}

function resolve(
  name: string | undefined,
  list: readonly Lookup[],
  kind: string,
  errors: string[],
) {
  const wanted = (name ?? '').trim()
  if (!wanted) return null
  const found = list.find((item) => item.name.toLowerCase() === wanted.toLowerCase())
  if (!found) errors.push(`Unknown ${kind} "${wanted}"`)
  return found?.id ?? null
}

const orNull = (n: number | undefined) => (n === undefined || n === 0 ? null : n)
const VIDEO = /\.(mp4|webm|mov)$/i

/** admin_import_products takes at most this many rows in its one transaction. */
export const MAX_IMPORT_ROWS = 5000
/**
 * The largest file Import Products reads: the server takes a bulk import of 4 MB of JSON at most,
 * which a CSV of that size already fills (its rows go out with their column names).
 */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** Why a file is refused before it is read, or null. */
export function importFileError(file: { size: number }): string | null {
  if (file.size === 0) return 'The file is empty'
  if (file.size <= MAX_IMPORT_BYTES) return null
  return `The file is ${megabytes(file.size)}; Import Products reads files of up to ${megabytes(MAX_IMPORT_BYTES)} (${MAX_IMPORT_ROWS} products). Split it into smaller files.`
}

/**
 * Reads a products CSV with the export's columns. Rows whose SKU exists update that product;
 * others create one (and then need at least one media path in the `media` column). A cell the
 * export neutralized ("'=SUM(A1)") reads back as its own text ("=SUM(A1)"), which is stored as
 * text and neutralized again by the next export.
 */
export function parseProductsCsv(
  text: string,
  lookups: {
    brands: readonly Lookup[]
    categories: readonly Lookup[]
    productTypes: readonly Lookup[]
    existing: readonly { id: string; sku: string }[]
  },
): { rows: ImportRow[]; fileErrors: string[] } {
  // A file saved in another encoding (Excel's "CSV" on Windows is Windows-1252) or a file that
  // is not text at all decodes to replacement characters: refused, not imported as mangled names.
  if (/[\uFFFD\0]/.test(text)) {
    return {
      rows: [],
      fileErrors: ['The file is not UTF-8 text. Save it as "CSV UTF-8" and choose it again'],
    }
  }
  // trim() also drops a byte order mark at the start.
  const parsed = Papa.parse<Record<string, string | string[]>>(text.trim(), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim().toLowerCase(),
    transform: unneutralizeCell,
    // One row more than can be imported is enough to refuse the file, without reading it all.
    preview: MAX_IMPORT_ROWS + 1,
  })
  const fileErrors: string[] = []
  const fields = parsed.meta.fields ?? []
  for (const required of ['sku', 'name']) {
    if (!fields.includes(required)) fileErrors.push(`Missing column "${required}"`)
  }
  // Its row counts the header too; the rest of the file would otherwise be read as one cell.
  const unclosed = parsed.errors.find((e) => e.code === 'MissingQuotes')
  if (unclosed) {
    fileErrors.push(
      `A quoted cell on line ${(unclosed.row ?? 1) + 1} is never closed: a cell that starts with " must end with "`,
    )
  }
  if (parsed.data.length > MAX_IMPORT_ROWS) {
    fileErrors.push(
      `The file has more than ${MAX_IMPORT_ROWS} product rows; Import Products takes at most ${MAX_IMPORT_ROWS} at once. Split it into smaller files.`,
    )
  }
  if (fileErrors.length) return { rows: [], fileErrors }
  const seen = new Map<string, number>()
  const existingBySku = new Map(lookups.existing.map((p) => [p.sku, p]))
  const rows = parsed.data.map((cells, index): ImportRow => {
    const line = index + 2
    const errors: string[] = []
    // Cells past the header's columns (papaparse keeps them in a list): an unquoted comma in a
    // name would otherwise shift every later cell into the wrong column.
    const extra = cells.__parsed_extra
    if (Array.isArray(extra)) {
      errors.push(
        `${fields.length + extra.length} cells for ${fields.length} columns; a cell with a comma must be in double quotes`,
      )
    }
    const record = cells as Record<string, string | undefined>
    const form = v.safeParse(productFormSchema, {
      sku: record.sku ?? '',
      name: record.name ?? '',
      description: record.description ?? '',
      brand_id: '',
      category_id: '',
      product_type_id: '',
      price: record.price ?? '',
      original_price: record.original_price ?? '',
      weight_grams: record.weight_grams ?? '',
      quantity_available: record.quantity_available ?? '',
      thc_percentage: record.thc_percentage ?? '',
      cbd_percentage: record.cbd_percentage ?? '',
      total_cannabinoids_percentage: record.total_cannabinoids_percentage ?? '',
      smokeback_percentage: record.smokeback_percentage ?? '',
      is_unlimited_quantity: flag(record.is_unlimited_quantity, false),
      is_on_sale: flag(record.is_on_sale, false),
      is_active: flag(record.is_active, true),
      is_featured: flag(record.is_featured, false),
      // The facts are read on their own below (readFactCells): neutral values here.
      is_cannabis: true,
      limit_class: 'none',
      limit_grams: '',
      thc_mg: '',
      cbd_mg: '',
      servings: '',
      // The package is read on its own below (readMetrcCells): neutral values here.
      metrc_package_tag: '',
      metrc_unit: '',
      effects: (record.effects ?? '').split('|').filter((e) => e.trim()),
      terpenes: (record.terpenes ?? '')
        .split('|')
        .filter((t) => t.trim())
        .map((t) => {
          const [name = '', percentage = ''] = t.split(':')
          return { name, percentage }
        }),
    })
    if (!form.success) {
      for (const issue of form.issues) {
        const path = v.getDotPath(issue)
        errors.push(
          path && !['sku', 'name'].includes(path) ? `${path}: ${issue.message}` : issue.message,
        )
      }
    }
    const sku = (record.sku ?? '').trim()
    if (sku) {
      const earlier = seen.get(sku.toLowerCase())
      if (earlier) errors.push(`SKU ${sku} is also on line ${earlier}`)
      seen.set(sku.toLowerCase(), line)
    }
    const existing = existingBySku.get(sku) ?? null
    const brandId = resolve(record.brand, lookups.brands, 'brand', errors)
    const categoryId = resolve(record.category, lookups.categories, 'category', errors)
    const typeId = resolve(record.product_type, lookups.productTypes, 'product type', errors)
    const mediaPaths = (record.media ?? '')
      .split('|')
      .map((m) => m.trim())
      .filter(Boolean)
    if (!existing && mediaPaths.length === 0) {
      errors.push('Please upload at least one product image or video')
    }
    const out = form.success ? form.output : null
    const facts = readFactCells(record, fields, {
      creating: !existing,
      weightGrams: out?.weight_grams,
    })
    errors.push(...facts.errors)
    const metrc = readMetrcCells(record, fields)
    errors.push(...metrc.errors)
    return {
      line,
      sku,
      name: (record.name ?? '').trim(),
      action: existing ? 'update' : 'create',
      existingId: existing?.id ?? null,
      errors,
      payload: {
        sku,
        name: (record.name ?? '').trim(),
        description: out?.description || null,
        brand_id: brandId,
        category_id: categoryId,
        product_type_id: typeId,
        price: orNull(out?.price),
        original_price: orNull(out?.original_price),
        weight_grams: orNull(out?.weight_grams),
        quantity_available: out?.is_unlimited_quantity ? null : orNull(out?.quantity_available),
        is_unlimited_quantity: out?.is_unlimited_quantity ?? false,
        thc_percentage: orNull(out?.thc_percentage),
        cbd_percentage: orNull(out?.cbd_percentage),
        total_cannabinoids_percentage: orNull(out?.total_cannabinoids_percentage),
        smokeback_percentage: orNull(out?.smokeback_percentage),
        ...facts.facts,
        ...metrc.fields,
        is_on_sale: out?.is_on_sale ?? false,
        is_active: out?.is_active ?? true,
        is_featured: out?.is_featured ?? false,
        effects: out?.effects.map((e) => e.trim()).filter(Boolean) ?? [],
        terpenes:
          out?.terpenes
            .map((t) => ({ name: t.name.trim(), percentage: orNull(t.percentage) }))
            .filter((t) => t.name) ?? [],
        media: mediaPaths.length
          ? mediaPaths.map((path, i) => ({
              media_url: path,
              media_type: VIDEO.test(path) ? ('video' as const) : ('image' as const),
              is_primary: i === 0,
              display_order: i,
            }))
          : undefined,
      },
    }
  })
  if (rows.length === 0) fileErrors.push('The file has no product rows')
  return { rows, fileErrors }
}

/** Starts a real download of a text file. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

export const today = () => new Date().toISOString().slice(0, 10)
