// A cache for what anonymous shoppers read of the catalogue: the pulls of their first visit
// (pull_products, pull_categories, pull_brands, pull_product_types) and REST reads of the
// catalogue tables. Every visitor asks for the same rows, so an answer is read and compressed once
// per version of the catalogue, not once per shopper (docs/decisions/029-catalogue-cache.md and 032). Only anonymous
// calls are cached, so an entry holds nothing but what the anon role may read. The version is kept
// in memory and moved by the NOTIFY that every committed write to a catalogue table sends
// (migration 20261126130100): Postgres delivers it with the commit's answer, before the writer
// hears back, so a change reaches the next visitor as fast as without a cache, and a cached answer
// costs no query at all. A change of nothing but some products' stock (an order) names those
// products (migration 20261126150000) and touches only the answers that hold them (docs/decisions/045-order-path-costs.md):
// with their new stock in the notification (migration 20261127100000), an answer that shows them
// is patched in place, else dropped (docs/decisions/049-patch-cached-pages-with-new-stock.md). Every other change drops everything.
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PGlite } from '@electric-sql/pglite'
import {
  compressors,
  MIN_COMPRESS_BYTES,
  pickEncoding,
  type Encoding,
} from '../http/compression.ts'
import { patchRows, type PatchShape, type RowPatch } from './json-row-patch.ts'

/** The channel every committed write to a catalogue table notifies (once per transaction). */
export const CATALOGUE_CHANNEL = 'humo_catalogue'

/** The functions whose anonymous answers depend on nothing but the catalogue and the arguments. */
export const CACHED_PULLS = new Set([
  'pull_products',
  'pull_categories',
  'pull_brands',
  'pull_product_types',
])

/**
 * The tables whose anonymous REST reads are cached: the catalogue, whose rows (and the policies
 * that show them) depend on nothing but these tables, each of which notifies on every change.
 */
export const CATALOGUE_TABLES = new Set([
  'products',
  'product_media',
  'product_effects',
  'terpene_profiles',
  'categories',
  'brands',
  'product_types',
])

// NOTE: one full first-visit pull is about 0.5 MB of JSON plus its two encodings; a few dozen
// shapes of arguments (devices at different checkpoints) fit, and a few hundred REST pages.
const DEFAULT_MAX_ENTRIES = 256
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024

/** An answer as read from the database, with the catalogue version it was read at if known. */
export interface ProducedAnswer {
  status: number
  headers: Record<string, string>
  body: string
  readAt?: number | undefined
  /** See CachedAnswer.stockIds; left out, any stock change drops the answer. */
  stockIds?: ReadonlySet<string> | null | undefined
  /** See CachedAnswer.stockPatch. */
  stockPatch?: PatchShape | null | undefined
}

/** The notification payload of a change of some products' stock only: 'stock:<id>,<id>…'. */
const STOCK_PAYLOAD = 'stock:'
/**
 * The same with the products' new values: 'stockrows:{"<id>": {"quantity_available": 3,
 * "_modified": "…", "updated_at": "…"}, …}' (migration 20261127100000).
 */
const STOCK_ROWS_PAYLOAD = 'stockrows:'

/** A change of nothing but some products' stock, with their new values when the payload had them. */
interface StockChange {
  version: number
  ids: ReadonlySet<string>
  rows: ReadonlyMap<string, RowPatch> | null
}

function parseStockChange(payload: string, version: number): StockChange | null {
  if (payload.startsWith(STOCK_PAYLOAD)) {
    const ids = new Set(payload.slice(STOCK_PAYLOAD.length).split(','))
    return { version, ids, rows: null }
  }
  if (!payload.startsWith(STOCK_ROWS_PAYLOAD)) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(payload.slice(STOCK_ROWS_PAYLOAD.length))
  } catch {
    parsed = null
  }
  // Not what the migration sends: treated as a change of anything.
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null
  const rows = new Map<string, RowPatch>()
  for (const [id, values] of Object.entries(parsed as Record<string, unknown>)) {
    if (!values || typeof values !== 'object') return null
    rows.set(
      id,
      Object.fromEntries(
        Object.entries(values as Record<string, unknown>).map(([k, v]) => [k, JSON.stringify(v)]),
      ),
    )
  }
  return { version, ids: new Set(rows.keys()), rows }
}

export interface CachedAnswer {
  version: number
  status: number
  headers: Record<string, string>
  body: Buffer
  /** Whether the answer is large enough to compress at all. */
  compressible: boolean
  /**
   * Its encodings, each made when first asked for: under a stream of orders every order empties
   * the cache, and a refill compressed only the way its first reader accepts costs half.
   */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>
  etag: string
  bytes: number
  /**
   * The products whose stock the answer shows, when a stock change of any other product cannot
   * change it (no filter or order on stock, a complete or id-ordered page); empty for answers
   * that show no product. Null: every stock change drops it.
   */
  stockIds: ReadonlySet<string> | null
  /**
   * Which stock members its rows show, under their own names, when a stock change of the products
   * it shows may be patched into it (a 200 JSON answer of rows with a plain "id"); null: such a
   * change drops it.
   */
  stockPatch: PatchShape | null
}

/** Whether a change of these products' stock changes the answer. */
function showsStockOf(entry: CachedAnswer, ids: ReadonlySet<string>): boolean {
  if (!entry.stockIds) return true
  for (const id of ids) if (entry.stockIds.has(id)) return true
  return false
}

/** Stock changes remembered for answers being read while they happen (see store). */
const STOCK_LOG_SIZE = 256

/** JSON with object keys sorted, so the same arguments in another order share an entry. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * The key of an anonymous read: GET (HEAD is a GET without the body) or POST, the path and query
 * string as sent, and what shapes the answer: the negotiated Accept (single object, nulls
 * stripped), the Prefer values, and for a POST pull its arguments. Accept-Encoding is not in it:
 * an entry holds every encoding.
 */
export function cacheKey(
  req: IncomingMessage,
  url: URL,
  shape: object,
  prefer: Iterable<string>,
  body: unknown = null,
): string {
  return canonicalJson([
    req.method === 'POST' ? 'POST' : 'GET',
    url.pathname,
    url.search,
    shape,
    [...prefer].sort(),
    req.headers['accept-profile'] ?? null,
    body,
  ])
}

export class CatalogueCache {
  private readonly entries = new Map<string, CachedAnswer>()
  /** Loads under way by key, with the version each began at. */
  private readonly loading = new Map<string, { version: number; promise: Promise<CachedAnswer> }>()
  private bytes = 0
  /** Moved by every committed catalogue change. */
  private version = 0
  /** The version of the last change that dropped everything: older answers are never kept. */
  private droppedAllAt = 0
  /** The stock changes since then (at most STOCK_LOG_SIZE), oldest first. */
  private stockLog: StockChange[] = []
  hits = 0
  misses = 0
  /** Kept answers brought up to date by a stock change rather than dropped. */
  patched = 0

  constructor(
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  get size(): number {
    return this.entries.size
  }

  /**
   * The version now. Taken inside the transaction that reads an answer, it is exactly the version
   * of what that transaction sees: PGlite runs one transaction at a time, and every commit before
   * it has already moved the version (its notification arrives with its commit's answer).
   */
  get currentVersion(): number {
    return this.version
  }

  /**
   * The catalogue changed: nothing kept so far is served again, or with a stock payload (only
   * those products' stock changed), nothing that shows those products unless it is patched.
   */
  invalidate(payload = ''): void {
    this.version++
    const change = parseStockChange(payload, this.version)
    if (change) {
      this.stockLog.push(change)
      if (this.stockLog.length > STOCK_LOG_SIZE) this.stockLog.shift()
      for (const [key, entry] of this.entries) {
        if (!showsStockOf(entry, change.ids)) continue
        const patched = this.patch(entry, [change])
        this.bytes -= entry.bytes
        if (patched) {
          // Same place in the eviction order: a patch is not a use.
          this.entries.set(key, patched)
          this.bytes += patched.bytes
        } else this.entries.delete(key)
      }
      return
    }
    this.droppedAllAt = this.version
    this.stockLog = []
    this.entries.clear()
    this.bytes = 0
  }

  /**
   * Listens for the catalogue's change notifications (the single PGlite connection delivers them
   * as its commits answer); returns what stops listening.
   */
  async listen(db: PGlite): Promise<() => Promise<void>> {
    return db.listen(CATALOGUE_CHANNEL, (payload) => this.invalidate(payload))
  }

  /**
   * An answer with these stock changes (oldest first) written into its rows, as of the version
   * now; null when one of them came without values or the answer cannot be patched.
   */
  private patch(entry: CachedAnswer, changes: StockChange[]): CachedAnswer | null {
    // Without stockIds a stock change may move rows into or out of the answer: read it again.
    if (!entry.stockPatch || !entry.stockIds || entry.status !== 200) return null
    const rows = new Map<string, RowPatch>()
    for (const change of changes) {
      if (!change.rows) return null
      for (const [id, values] of change.rows) rows.set(id, { ...rows.get(id), ...values })
    }
    const body = patchRows(entry.body.toString(), rows, entry.stockPatch)
    if (body === null) return null
    this.patched++
    return buildEntry(this.version, {
      status: entry.status,
      headers: entry.headers,
      body,
      stockIds: entry.stockIds,
      stockPatch: entry.stockPatch,
    })
  }

  /**
   * An answer read at its version, brought up to date with the changes since (patched with the
   * stock changes that show in it), or null when a change since may show in it otherwise.
   */
  private upToDate(entry: CachedAnswer): CachedAnswer | null {
    if (entry.version === this.version) return entry
    if (entry.version < this.droppedAllAt) return null
    // Changes after it that are no longer remembered: it may show one of them.
    if ((this.stockLog[0]?.version ?? Infinity) > entry.version + 1) return null
    const shown = this.stockLog.filter(
      (change) => change.version > entry.version && showsStockOf(entry, change.ids),
    )
    return shown.length === 0 ? entry : this.patch(entry, shown)
  }

  /** The answer for a key if it is kept or being read now; null otherwise. No database work. */
  lookup(key: string): Promise<CachedAnswer> | CachedAnswer | null {
    const cached = this.entries.get(key)
    if (cached) {
      this.entries.delete(key)
      this.entries.set(key, cached)
      this.hits++
      return cached
    }
    const running = this.loading.get(key)
    if (running?.version !== this.version) return null
    this.hits++
    return running.promise
  }

  /**
   * The answer for a key: from the cache, from a load already under way (fifty shoppers arriving
   * at once start one read), or from `produce`. Failures are not kept. An answer is kept under
   * the version `produce` says it read at (`currentVersion` inside its transaction), else the
   * version before it began, which is never newer than what it read: under load a read waits
   * behind orders that each move the version, and one kept under the version it waited from
   * would be thrown away every time.
   *
   * A load that began before a change is still joined: its answer is brought up to date once it
   * is in (the stock changes that show in it patched in), and read again only if it cannot be.
   * Under a stream of orders each read of a page outlives a few of them, and every shopper who
   * came after one used to start a read of their own: a storm of reads that fed itself.
   */
  async load(key: string, produce: () => Promise<ProducedAnswer>): Promise<CachedAnswer> {
    for (;;) {
      const cached = this.lookup(key)
      if (cached) return cached
      const running = this.loading.get(key)
      if (!running) break
      this.hits++
      const entry = this.upToDate(await running.promise)
      if (entry) return entry
      // Not brought up to date: read again (joining a newer read if one began meanwhile).
      if (this.loading.get(key) === running) break
    }
    const version = this.version
    this.misses++
    const running = {
      version,
      promise: (async () => {
        const answer = await produce()
        const read = buildEntry(answer.readAt ?? version, answer)
        // Those who asked before a change that the read cannot be brought past get it as read.
        return this.store(key, read) ?? read
      })(),
    }
    this.loading.set(key, running)
    try {
      return await running.promise
    } finally {
      if (this.loading.get(key) === running) this.loading.delete(key)
    }
  }

  /** Keeps an answer (brought up to date) and returns what was kept; null if it was not. */
  private store(key: string, read: CachedAnswer): CachedAnswer | null {
    // A read that began before a change finished after it: served to those who asked before the
    // change, and kept only if the change was another product's stock or could be patched in.
    const entry = this.upToDate(read)
    if (!entry) return null
    const old = this.entries.get(key)
    if (old) {
      this.entries.delete(key)
      this.bytes -= old.bytes
    }
    // Too large to keep, but up to date: those waiting for it get it.
    if (entry.bytes > this.maxBytes) return entry
    this.entries.set(key, entry)
    this.bytes += entry.bytes
    for (const [oldest, value] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break
      this.entries.delete(oldest)
      this.bytes -= value.bytes
    }
    return entry
  }
}

function buildEntry(version: number, answer: ProducedAnswer): CachedAnswer {
  const body = Buffer.from(answer.body)
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
  return {
    version,
    status: answer.status,
    headers: answer.headers,
    body,
    compressible: body.length >= MIN_COMPRESS_BYTES,
    encoded: {},
    etag,
    // JSON compresses to well under a quarter with either encoding: an upper bound for both.
    bytes: body.length + Math.ceil(body.length / 2),
    stockIds: answer.stockIds ?? null,
    stockPatch: answer.stockPatch ?? null,
  }
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*')
}

/** Sends a cached answer: 304 when the client holds it, else the encoding it accepts. */
export async function sendCached(
  req: IncomingMessage,
  res: ServerResponse,
  entry: CachedAnswer,
): Promise<void> {
  const common = {
    ETag: entry.etag,
    Vary: 'Accept-Encoding',
    // The shopper's browser may keep it but must ask again; a change shows on the next visit.
    'Cache-Control': 'no-cache',
  }
  if (entry.status === 200 && matchesEtag(req.headers['if-none-match'], entry.etag)) {
    res.writeHead(304, common)
    res.end()
    return
  }
  let encoding = entry.compressible ? pickEncoding(req.headers['accept-encoding']) : null
  let data = entry.body
  if (encoding) {
    const made = (entry.encoded[encoding] ??= compressors[encoding](entry.body))
    try {
      data = await made
    } catch {
      // Not kept: this answer goes out uncompressed, the next one tries again.
      if (entry.encoded[encoding] === made) delete entry.encoded[encoding]
      encoding = null
    }
  }
  res.writeHead(entry.status, {
    ...entry.headers,
    ...common,
    ...(encoding ? { 'Content-Encoding': encoding } : {}),
    'Content-Length': data.length,
  })
  res.end(req.method === 'HEAD' ? undefined : data)
}
