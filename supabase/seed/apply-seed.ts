// Loads the demo catalogue into a database and its cover images into the storage folder. Used
// by the embedded backend on first start and by `npm run seed`. Runs as the database owner
// (not through the API), in one transaction, so a failed seed leaves no half catalogue.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { buildCatalogue, seedUuid, type CatalogueRows } from './build-catalogue.ts'
import { orders as demoOrders, reviews as demoReviews } from './catalogue.ts'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../src/lib/shop-hours.ts'
import { pickupSlots, type PickupWindow } from '../../src/lib/pickup-windows.ts'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../local/db/private-files.ts'

export const MEDIA_BUCKET = 'product_media'

export interface SeedSummary {
  products: number
  files: number
  orders: number
}

/** Who the demo's status changes are recorded as (status_history's `by`). */
const SEED_STAFF_EMAIL = 'staff@humo.example'

const IDENT = /^[a-z_][a-z0-9_]*$/

async function insertRows(
  tx: Transaction,
  table: string,
  rows: Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return
  const columns = Object.keys(rows[0]!)
  for (const name of [table, ...columns])
    if (!IDENT.test(name)) throw new Error(`Unexpected identifier ${name}`)
  const list = columns.map((c) => `"${c}"`).join(', ')
  // One statement per table: the rows travel as a single JSON parameter typed by the table itself.
  await tx.query(
    `insert into public."${table}" (${list}) select ${list} from jsonb_populate_recordset(null::public."${table}", $1::jsonb)`,
    [JSON.stringify(rows)],
  )
}

export async function applySeed(
  db: PGlite,
  storageDir: string,
  options: { products?: number; orders?: boolean } = {},
): Promise<SeedSummary> {
  const rows: CatalogueRows = buildCatalogue(options)
  let orders = 0
  const bucketDir = join(storageDir, MEDIA_BUCKET)
  // Rendered together: sharp spreads the covers over its threads.
  const files = await Promise.all(
    rows.files.map(async (file) => ({
      ...file,
      contents: typeof file.contents === 'function' ? await file.contents() : file.contents,
    })),
  )
  for (const file of files) {
    const target = join(bucketDir, ...file.path.split('/'))
    // The shop's data folder is its user's only (docs/decisions/052-private-data-folder.md).
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE })
    await writeFile(target, file.contents, { mode: PRIVATE_FILE_MODE })
  }
  await db.transaction(async (tx) => {
    await insertRows(tx, 'categories', rows.categories)
    await insertRows(tx, 'brands', rows.brands)
    await insertRows(tx, 'product_types', rows.productTypes)
    await insertRows(tx, 'products', rows.products)
    await insertRows(tx, 'product_media', rows.media)
    await insertRows(tx, 'product_effects', rows.effects)
    await insertRows(tx, 'terpene_profiles', rows.terpenes)
    await tx.query(
      `insert into storage.objects (bucket_id, name, metadata)
       select $1, f->>'path', jsonb_build_object('mimetype', f->>'contentType', 'size', (f->>'size')::bigint, 'cacheControl', 'max-age=3600')
         from jsonb_array_elements($2::jsonb) f
       on conflict (bucket_id, name) do nothing`,
      [
        MEDIA_BUCKET,
        JSON.stringify(
          files.map((f) => ({
            path: f.path,
            contentType: f.contentType,
            size: Buffer.byteLength(f.contents),
          })),
        ),
      ],
    )
    if (options.orders ?? true) {
      orders = await placeDemoOrders(tx, rows)
      await reviewDemoOrders(tx, rows)
    }
  })
  return { products: rows.products.length, files: rows.files.length, orders }
}

/** The seeded shop's earliest pickup window from now (the seed's hours are the defaults). */
function earliestPickup(): PickupWindow | null {
  const slot = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES)[0]
  return slot ? { start: slot.start, end: slot.end } : null
}

const demoSecret = (key: string) =>
  `${seedUuid('order-secret', key)}${seedUuid('order-secret-2', key)}`

/**
 * The admin board's demo orders, made the way the app makes them: place_order (prices, stock
 * and limits decided by the server) and set_order_status (history, stock given back on
 * cancellation), then moved back in time so the board shows a few days of trade. Orders whose
 * products are not in a cut-down catalogue (`--products 5`) are skipped.
 */
async function placeDemoOrders(tx: Transaction, rows: CatalogueRows): Promise<number> {
  const productId = new Map(rows.products.map((p) => [p.name as string, p.id as string]))
  // set_order_status accepts the service role; the email is what status_history records.
  await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
    JSON.stringify({ role: 'service_role', email: SEED_STAFF_EMAIL }),
  ])
  let placed = 0
  for (const seed of demoOrders) {
    const items = seed.items.map(([name, quantity]) => ({
      productId: productId.get(name),
      quantity,
    }))
    if (items.some((item) => !item.productId)) continue
    const id = seedUuid('order', seed.key)
    const address = seed.address && { ...seed.address, state: 'CA' }
    const input = {
      id,
      secret: demoSecret(seed.key),
      customer: seed.customer,
      fulfilment: seed.fulfilment,
      deliveryMethod: seed.deliveryMethod,
      shippingAddress: seed.fulfilment === 'delivery' ? address : null,
      billingAddress: null,
      paymentMethod: seed.paymentMethod,
      // The earliest window open now (not moved back in time below: the order is still to collect).
      pickupWindow: seed.fulfilment === 'pickup' ? earliestPickup() : null,
      items,
    }
    const { rows: answer } = await tx.query<{ result: { status: string } }>(
      'select public.place_order($1::jsonb) as result',
      [JSON.stringify(input)],
    )
    if (answer[0]?.result.status !== 'accepted')
      throw new Error(`Demo order ${seed.key} was refused: ${JSON.stringify(answer[0]?.result)}`)
    let from = 'pending'
    for (const to of seed.statuses) {
      // Handing an order over needs the buyer's ID checked (docs/decisions/018-order-after-checkout.md) and its number entered
      // (docs/decisions/051-california-taxes-and-daily-limits.md: kept only as a keyed hash); the demo staff did both.
      const handoff = to === 'delivered'
      const { rows: moved } = await tx.query<{ answer: { applied: boolean; message?: string } }>(
        'select public.set_order_status($1, $2, $3, $4, $5) as answer',
        [id, from, to, handoff, handoff ? `D${seedUuid('id-number', seed.key).slice(0, 7)}` : null],
      )
      if (!moved[0]?.answer.applied)
        throw new Error(`Demo order ${seed.key} did not move to ${to}: ${moved[0]?.answer.message}`)
      from = to
    }
    // Back in time: placed hoursAgo, each later status about a quarter of the way since.
    await tx.query(
      `update public.orders o set
         created_at = o.created_at - $2::interval,
         tracking_number = $3,
         -- The handoff with its history entry (the last one), so a demo sale counts on the day
         -- its history says (the tax report, Metrc sales and their reminder, docs/decisions/054-metrc-sales-export.md).
         handed_off_at = o.handed_off_at
           - $2::interval * (1 - (jsonb_array_length(o.status_history) - 1) / 4.0),
         estimated_delivery = o.estimated_delivery
           - ((o.created_at at time zone 'America/Los_Angeles')::date
              - ((o.created_at - $2::interval) at time zone 'America/Los_Angeles')::date),
         status_history = (
           select jsonb_agg(
             jsonb_set(h, '{at}', to_jsonb((h ->> 'at')::timestamptz - $2::interval * (1 - (n - 1) / 4.0)))
             order by n)
           from jsonb_array_elements(o.status_history) with ordinality as e (h, n)
         )
       where o.id = $1`,
      [id, `${seed.hoursAgo} hours`, seed.trackingNumber ?? null],
    )
    placed++
  }
  await tx.query(`select set_config('request.jwt.claims', '', true)`)
  return placed
}

/**
 * The demo's reviews, left through submit_product_review with their orders' secrets as a shopper's
 * order page leaves them (the server checks the handoff and keeps the products' averages), each
 * dated a few hours after its order's handoff. Skipped when their order or product was.
 */
async function reviewDemoOrders(tx: Transaction, rows: CatalogueRows): Promise<void> {
  const productId = new Map(rows.products.map((p) => [p.name as string, p.id as string]))
  const placed = new Set(
    demoOrders
      .filter((order) => order.items.every(([name]) => productId.has(name)))
      .map((order) => order.key),
  )
  for (const [n, review] of demoReviews.entries()) {
    const product = productId.get(review.product)
    if (!product || !placed.has(review.orderKey)) continue
    const orderId = seedUuid('order', review.orderKey)
    const { rows: left } = await tx.query<{ review: { id: string } }>(
      'select public.submit_product_review($1, $2, $3, $4, $5, $6) as review',
      [
        orderId,
        demoSecret(review.orderKey),
        product,
        review.rating,
        review.body,
        review.displayName,
      ],
    )
    await tx.query(
      `update public.product_reviews r
          set created_at = least(now(), o.handed_off_at + $2::interval)
         from public.orders o
        where r.id = $1 and o.id = r.order_id`,
      [left[0]!.review.id, `${3 + n} hours`],
    )
  }
}
