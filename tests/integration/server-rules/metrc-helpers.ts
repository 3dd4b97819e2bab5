// What the Metrc tests share (issue 32, docs/decisions/054-metrc-sales-export.md): the column layout as the decision
// records it (read from its table, so the export is checked against the record, not against the
// code's own list), the CSV of a day as the admin downloads it, and a pickup order's input.
import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { pickupSlots } from '../../../src/lib/pickup-windows'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../../src/lib/shop-hours'
import { metrcSalesToCsv } from '../../../src/features/admin/metrc/metrc-csv'
import { metrcSalesDayOf, type MetrcSalesDay } from '../../../src/features/admin/metrc/metrc-sales'
import { orderInput, rpc, type OrderInput, type RulesBackend, type TestUser } from './rules-backend'

const DECISION = new URL('../../../docs/decisions/054-metrc-sales-export.md', import.meta.url)

/** The "Metrc sales" columns in the order docs/decisions/054-metrc-sales-export.md records them. */
export function recordedLayout(): string[] {
  const text = readFileSync(DECISION, 'utf8')
  const section = text.split('### The layout')[1]!.split('\n## ')[0]!.split('\n### ')[0]!
  return section
    .split('\n')
    .map((line) => /^\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => match[2]!)
}

export type CsvRecord = Record<string, string>

/** The day's receipts through the real API, and its CSV read back as rows by the recorded header. */
export async function metrcDay(
  staff: TestUser,
  day: string,
): Promise<{ day: MetrcSalesDay; header: string[]; rows: CsvRecord[]; csv: string }> {
  const { data, error } = await rpc<unknown>(staff.client, 'admin_metrc_sales', { p_day: day })
  if (error) throw new Error(`admin_metrc_sales: ${error.code} ${error.message}`)
  const parsed = metrcSalesDayOf(data)
  const csv = metrcSalesToCsv(parsed)
  const table = Papa.parse<string[]>(csv.trim(), { skipEmptyLines: true }).data
  const header = table[0]!
  const rows = table
    .slice(1)
    .map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]!])))
  return { day: parsed, header, rows, csv }
}

/** A pickup order in the earliest window on offer (the seeded opening hours). */
export function pickupInput(
  items: { productId: string; quantity: number }[],
  overrides: Partial<OrderInput> = {},
): OrderInput & { pickupWindow: { start: string; end: string } } {
  const slot = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES)[0]!
  return {
    ...orderInput(items, {
      fulfilment: 'pickup',
      shippingAddress: null,
      paymentMethod: 'cash',
      cardLast4: null,
      ...overrides,
    }),
    pickupWindow: { start: slot.start, end: slot.end },
  }
}

/** A test product is made without media; the admin save needs one image to save it. */
export async function giveImage(backend: RulesBackend, productId: string): Promise<void> {
  await backend.db.query(
    `insert into public.product_media (product_id, media_url, media_type, is_primary, display_order)
     values ($1::uuid, $1::text || '/cover.webp', 'image', true, 0)`,
    [productId],
  )
}
