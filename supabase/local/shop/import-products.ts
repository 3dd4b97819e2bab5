// Import Products over /rest/v1/rpc/admin_import_products without holding the shop
// (docs/decisions/033-staged-import.md). PGlite has one connection and runs transactions one at a time, first come
// first served, so one 5,000-row import in one transaction made every other request wait seconds.
// Here the call is run as the migration's three steps, each in a transaction of its own as the
// caller: open an import, check and stage the rows in chunks, apply them in one short set-based
// transaction. The answer, the refusals (same messages, same codes) and all-or-nothing are those
// of the one-call function.
//
// PGlite runs in this process and its queries resolve as promise continuations, so chaining one
// chunk after another would never give the event loop a turn: a request arriving meanwhile could
// not even be read until the import ended. Each chunk therefore waits for the event loop first,
// and a request that arrives during an import queues behind a chunk or two, not the import.
//
// Most of staging's cost was SQL reading every value of every row out of JSON (docs/decisions/047-import-checked-in-the-server-applied-in-steps.md): the
// checks that depend on a row alone (types, bounds, lists) are made here instead, in the same terms
// as the migration's product_import_stage_plain_rows, and a row that passes goes to the database as
// a typed record with its lists normalised and every id made; the database checks the rest (the
// SKU, slug and id nobody's, the references live) for the whole chunk at once. A row this module
// is not sure of takes the database's row-by-row check, which has every message.
import { randomUUID } from 'node:crypto'
import type { PGlite } from '@electric-sql/pglite'
import { withRequestRole, type RequestAuth, type RequestMeta } from '../request/request-context.ts'

/**
 * Rows checked per transaction: a request sent meanwhile waits at most about this many. 200 rather
 * than 100 since rows are checked in JavaScript first (docs/decisions/047-import-checked-in-the-server-applied-in-steps.md): a chunk's fixed cost is then
 * a good part of it, and 200 rows cost about 20 % less CPU than twice 100 (~25 ms at load 12).
 */
export const IMPORT_CHUNK_ROWS = 200
/**
 * product_import_apply_step's steps: checks; products, effects, terpenes and media, each in two
 * halves (migration 20261126170100); the feed and the answer.
 */
const IMPORT_APPLY_STEPS = 10
/** admin_import_products' own cap: larger imports are left to it to refuse. */
const MAX_IMPORT_ROWS = 5000

/**
 * Lets timers and I/O run before the next transaction is queued. A few milliseconds rather than
 * one turn (setImmediate): a request on its way (its JWT checked on the thread pool, its body
 * read) needs several turns to reach the database queue, and would otherwise wait a chunk more.
 */
export const IMPORT_PAUSE_MS = 3
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, IMPORT_PAUSE_MS))

/** Whether this call is one the chunked import runs (everything else goes to the function). */
export function isChunkedImport(
  name: string,
  args: Record<string, unknown>,
  auth: RequestAuth,
): args is { p_rows: unknown[] } {
  const rows = args.p_rows
  return (
    name === 'admin_import_products' &&
    auth.role !== 'anon' &&
    Object.keys(args).length === 1 &&
    Array.isArray(rows) &&
    rows.length > 0 &&
    rows.length <= MAX_IMPORT_ROWS
  )
}

/**
 * Runs the import and returns admin_import_products' result as JSON text, or throws the
 * database's refusal. A refused or failed import is dropped (nothing of it was applied).
 */
export async function runChunkedImport(
  db: PGlite,
  auth: RequestAuth,
  meta: RequestMeta,
  rows: unknown[],
  chunkRows = IMPORT_CHUNK_ROWS,
): Promise<string> {
  const write = { ...meta, readOnly: false }
  // The Metrc package (docs/decisions/054-metrc-sales-export.md) is written after the apply, in its transaction
  // (product_import_metrc_packages); the staging takes the rows without it.
  const given = rows
  rows = rows.map((row) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return row
    const { metrc_package_tag: _tag, metrc_unit: _unit, ...rest } = row as Record<string, unknown>
    return rest
  })
  const opened = await withRequestRole(db, auth, write, (tx) =>
    tx.query<{ id: string }>('select public.admin_import_begin() as id'),
  )
  const id = opened.rows[0]!.id
  try {
    for (let first = 0; first < rows.length; first += chunkRows) {
      await nextTurn()
      const chunk = rows.slice(first, first + chunkRows)
      const prepared = chunk.flatMap((row, i) => prepareImportRow(row, first + 1 + i) ?? [])
      // As the database owner (the function is not the API's), with the caller's claims: the
      // import is the caller's, and the checks above are what lets a row through.
      await db.transaction(async (tx) => {
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
          JSON.stringify(auth.claims),
        ])
        await tx.query(
          'select public.product_import_stage_prepared($1, $2, $3::text::json, $4::text::json)',
          [id, first + 1, JSON.stringify(chunk), JSON.stringify(prepared)],
        )
      })
    }
    await nextTurn()
    // One transaction, written in steps (docs/decisions/047-import-checked-in-the-server-applied-in-steps.md): between them the event loop turns, so
    // answers that need no database (the catalogue cache, which this import does not empty until
    // it commits) go out while it writes. Everything else waits for the commit, as before.
    return await db.transaction(async (tx) => {
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify(auth.claims),
      ])
      let body = ''
      for (let step = 1; step <= IMPORT_APPLY_STEPS; step++) {
        if (step > 1) await nextTurn()
        const done = await tx.query<{ body: string | null }>(
          'select public.product_import_apply_step($1, $2, $3)::text as body',
          [id, rows.length, step],
        )
        body = done.rows[0]?.body ?? ''
      }
      await tx.query('select public.product_import_metrc_packages($1::text::jsonb)', [
        JSON.stringify(given),
      ])
      return body
    })
  } catch (error) {
    // Its staged rows go now rather than when the next import drops abandoned ones.
    await withRequestRole(db, auth, write, (tx) =>
      tx.query('select public.admin_import_abort($1)', [id]),
    ).catch(() => undefined)
    throw error
  }
}

/** A row found plainly valid on its own, as product_import_stage_prepared takes it. */
export interface PreparedImportRow {
  n: number
  product_id: string
  given_id: boolean
  /** SKU and name trimmed; the text the slug is made from (the slug given, else the name). */
  sku: string
  name: string
  slug_source: string
  description: string | null
  price: number | null
  original_price: number | null
  quantity_available: number | null
  is_unlimited_quantity: boolean | null
  is_active: boolean | null
  is_on_sale: boolean | null
  is_featured: boolean | null
  thc_percentage: number | null
  cbd_percentage: number | null
  total_cannabinoids_percentage: number | null
  smokeback_percentage: number | null
  weight_grams: number | null
  brand_id: string | null
  category_id: string | null
  product_type_id: string | null
  effects: string[] | null
  effect_ids: string[] | null
  terpenes: { id: string; name: string; percentage: number | null }[] | null
  media: {
    id: string
    media_url: string
    media_type: string
    is_primary: boolean
    display_order: number
  }[]
  /** The product's facts (migration 20261128100500); null where the row leaves them out. */
  is_cannabis: boolean | null
  limit_class: 'flower' | 'concentrate' | null
  limit_grams: number | null
  thc_mg: number | null
  cbd_mg: number | null
  servings: number | null
}

// The migration's own patterns. Postgres' `.` also matches a line break; `$` is the text's end.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const VIDEO_URL = /\.(mp4|webm|mov)(\?[\s\S]*)?$/i

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const absent = (value: unknown) => value === undefined || value === null
const isFlag = (value: unknown) => absent(value) || typeof value === 'boolean'
/** Postgres' trim(text): spaces only, not every white space as String.trim. */
const pgTrim = (text: string) => text.replace(/^ +/, '').replace(/ +$/, '')

/**
 * product_import_number_ok: absent, or a number from 0 to max (or below `below`), whole if asked.
 * The database reads the number from this process' own JSON, so the comparisons agree.
 */
function numberOk(value: unknown, max: number | null, whole: boolean, below: number): boolean {
  if (absent(value)) return true
  if (typeof value !== 'number' || !Number.isFinite(value)) return false
  return (
    value >= 0 && value <= (max ?? below) && value < below && (!whole || Number.isInteger(value))
  )
}

const orNull = <T>(value: T | undefined | null): T | null => value ?? null

/**
 * The row as product_import_stage_prepared takes it, or null when it must take the row-by-row
 * check: anything but a new product whose every value admin_save_product takes as it is. Where the
 * database would read a value differently from JavaScript (a SKU given as a number, a text longer
 * than its limit in UTF-16 but maybe not in characters, a list entry that is not text), the row is
 * left to the database.
 */
export function prepareImportRow(row: unknown, n: number): PreparedImportRow | null {
  if (!isObject(row)) return null
  let productId: string
  let givenId: boolean
  if (typeof row.id !== 'string') {
    if (!isFlag(row.is_new)) return null
    productId = randomUUID()
    givenId = false
  } else {
    if (!UUID.test(row.id) || row.is_new !== true) return null
    productId = row.id
    givenId = true
  }
  if (typeof row.sku !== 'string' || pgTrim(row.sku) === '') return null
  if (typeof row.name !== 'string' || pgTrim(row.name) === '') return null
  if (!absent(row.slug) && typeof row.slug !== 'string') return null

  const unlimited = row.is_unlimited_quantity
  if (!isFlag(unlimited)) return null
  if (unlimited !== true && !numberOk(row.quantity_available, null, true, 2147483648)) return null
  const description = row.description
  if (!absent(description) && (typeof description !== 'string' || description.length > 50000))
    return null
  for (const key of ['price', 'original_price', 'weight_grams'])
    if (!numberOk(row[key], null, false, 99999999)) return null
  for (const key of [
    'thc_percentage',
    'cbd_percentage',
    'total_cannabinoids_percentage',
    'smokeback_percentage',
  ])
    if (!numberOk(row[key], 100, false, 101)) return null
  for (const key of ['is_active', 'is_on_sale', 'is_featured']) if (!isFlag(row[key])) return null
  const facts = factsOf(row)
  if (!facts) return null
  const refs: Record<string, string | null> = {}
  for (const key of ['brand_id', 'category_id', 'product_type_id']) {
    const value = row[key]
    if (absent(value) || value === '') refs[key] = null
    else if (typeof value === 'string' && UUID.test(value)) refs[key] = value
    else return null
  }

  let effects: string[] | null = null
  if (Array.isArray(row.effects)) {
    if (!row.effects.every((e) => typeof e === 'string')) return null
    effects = [...new Set(row.effects.map(pgTrim).filter((e) => e !== ''))]
  }

  let terpenes: PreparedImportRow['terpenes'] = null
  if (Array.isArray(row.terpenes)) {
    terpenes = []
    const seen = new Set<string>()
    for (const t of row.terpenes) {
      if (!isObject(t)) continue
      const raw = t.name ?? t.terpene_name ?? ''
      if (typeof raw !== 'string') return null
      const name = pgTrim(raw)
      if (name === '') continue
      if (!numberOk(t.percentage, 100, false, 101)) return null
      if (seen.has(name)) continue
      seen.add(name)
      terpenes.push({ id: randomUUID(), name, percentage: orNull(t.percentage as number) })
    }
  }

  if (!Array.isArray(row.media) || row.media.length === 0) return null
  const media: PreparedImportRow['media'] = []
  for (const [at, m] of row.media.entries()) {
    if (!isObject(m) || typeof m.media_url !== 'string') return null
    const url = pgTrim(m.media_url)
    if (url === '' || m.media_url.length > 1000 || typeof m.id === 'string') return null
    const type = m.media_type
    if (!absent(type) && typeof type !== 'string') return null
    if (!['image', 'video'].includes(typeof type === 'string' && type !== '' ? type : 'image'))
      return null
    if (!isFlag(m.is_primary) || !numberOk(m.display_order, null, true, 2147483648)) return null
    media.push({
      id: randomUUID(),
      media_url: url,
      media_type:
        typeof type === 'string' && type !== '' ? type : VIDEO_URL.test(url) ? 'video' : 'image',
      is_primary: m.is_primary ?? false,
      display_order: (m.display_order as number | null | undefined) ?? at,
    })
  }
  if (new Set(media.map((m) => m.media_url)).size !== media.length) return null

  return {
    n,
    product_id: productId,
    given_id: givenId,
    sku: pgTrim(row.sku),
    name: pgTrim(row.name),
    slug_source:
      typeof row.slug === 'string' && pgTrim(row.slug) !== '' ? row.slug : pgTrim(row.name),
    description: orNull(description as string | null),
    price: orNull(row.price as number | null),
    original_price: orNull(row.original_price as number | null),
    quantity_available: unlimited === true ? null : orNull(row.quantity_available as number | null),
    is_unlimited_quantity: orNull(unlimited as boolean | null),
    is_active: orNull(row.is_active as boolean | null),
    is_on_sale: orNull(row.is_on_sale as boolean | null),
    is_featured: orNull(row.is_featured as boolean | null),
    thc_percentage: orNull(row.thc_percentage as number | null),
    cbd_percentage: orNull(row.cbd_percentage as number | null),
    total_cannabinoids_percentage: orNull(row.total_cannabinoids_percentage as number | null),
    smokeback_percentage: orNull(row.smokeback_percentage as number | null),
    weight_grams: orNull(row.weight_grams as number | null),
    brand_id: refs.brand_id!,
    category_id: refs.category_id!,
    product_type_id: refs.product_type_id!,
    effects,
    effect_ids: effects?.map(() => randomUUID()) ?? null,
    terpenes,
    media,
    ...facts,
  }
}

type Facts = Pick<
  PreparedImportRow,
  'is_cannabis' | 'limit_class' | 'limit_grams' | 'thc_mg' | 'cbd_mg' | 'servings'
>

/**
 * The row's facts as the migration's plain test takes them, or null when the row must take the
 * row-by-row check: each value as admin_save_product takes it, and a daily limit only for cannabis
 * with grams to count. Grams are asked to be at least what the columns keep (0.001 g of limit
 * grams, 0.01 g of weight) rather than above zero once rounded: a row in between goes to the
 * database, which rounds as the columns do.
 */
function factsOf(row: Json): Facts | null {
  if (!isFlag(row.is_cannabis)) return null
  const limitClass = row.limit_class
  if (
    !absent(limitClass) &&
    limitClass !== '' &&
    limitClass !== 'flower' &&
    limitClass !== 'concentrate'
  )
    return null
  for (const key of ['limit_grams', 'thc_mg', 'cbd_mg'])
    if (!numberOk(row[key], 100000, false, 100001)) return null
  if (!numberOk(row.servings, 1000, true, 1001)) return null
  if (!absent(row.servings) && (row.servings as number) < 1) return null
  const grams = row.limit_grams as number | null | undefined
  const weight = row.weight_grams as number | null | undefined
  if (limitClass === 'flower' || limitClass === 'concentrate') {
    if (row.is_cannabis === false) return null
    if (absent(grams) ? !(typeof weight === 'number' && weight >= 0.01) : (grams ?? 0) < 0.001)
      return null
  }
  return {
    is_cannabis: orNull(row.is_cannabis as boolean | null),
    limit_class: limitClass === 'flower' || limitClass === 'concentrate' ? limitClass : null,
    limit_grams: orNull(grams),
    thc_mg: orNull(row.thc_mg as number | null),
    cbd_mg: orNull(row.cbd_mg as number | null),
    servings: orNull(row.servings as number | null),
  }
}
