/**
 * CSV files of the back office (papaparse): products and orders out, products in. An import is
 * checked row by row first; it is written only when every row is valid.
 */
import Papa from 'papaparse'
import * as v from 'valibot'
import type { AdminOrderDoc } from '../../data/schemas/admin-order.schema'
import { orderNumber, orderStatusLabel, paymentLabel } from '../../lib/order-status'
import type { AdminProductRow, SaveProductPayload } from './admin-product'
import { productFormSchema } from './admin.validation'

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
] as const

const cell = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n))

export function productsToCsv(rows: readonly AdminProductRow[]): string {
  return Papa.unparse({
    fields: [...PRODUCT_CSV_COLUMNS],
    data: rows.map((r) => [
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
    ]),
  })
}

/**
 * Orders out, each status in the order's own words (docs/decisions/018: a pickup order is never
 * "shipped"), with the stored code beside it for tools. Not read back in, so cells a spreadsheet
 * would run as a formula (a customer's name "=HYPERLINK(…)") are escaped.
 */
export function ordersToCsv(orders: readonly AdminOrderDoc[]): string {
  return Papa.unparse(
    {
      fields: [
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
      ],
      data: orders.map((o) => {
        const pickup = o.fulfilment === 'pickup'
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
        ]
      }),
    },
    { escapeFormulae: true },
  )
}

export type Lookup = { id: string; name: string }
export type ImportRow = {
  /** The line in the file (the header is line 1). */
  line: number
  sku: string
  name: string
  action: 'create' | 'update'
  payload: Omit<SaveProductPayload, 'id' | 'media'> & {
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

/**
 * Reads a products CSV with the export's columns. Rows whose SKU exists update that product;
 * others create one (and then need at least one media path in the `media` column).
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
  const parsed = Papa.parse<Record<string, string>>(text.trim(), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim().toLowerCase(),
  })
  const fileErrors: string[] = []
  const fields = parsed.meta.fields ?? []
  for (const required of ['sku', 'name']) {
    if (!fields.includes(required)) fileErrors.push(`Missing column "${required}"`)
  }
  if (fileErrors.length) return { rows: [], fileErrors }
  const seen = new Map<string, number>()
  const rows = parsed.data.map((record, index): ImportRow => {
    const line = index + 2
    const errors: string[] = []
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
    const existing = lookups.existing.find((p) => p.sku === sku) ?? null
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
