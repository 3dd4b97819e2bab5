// A cache for what anonymous shoppers read of the catalogue: the pulls of their first visit
// (pull_products, pull_categories, pull_brands, pull_product_types) and REST reads of the
// catalogue tables. Every visitor asks for the same rows, so an answer is read and compressed once
// per version of the catalogue, not once per shopper (docs/decisions/029 and 032). Only anonymous
// calls are cached, so an entry holds nothing but what the anon role may read. The version is kept
// in memory and moved by the NOTIFY that every committed write to a catalogue table sends
// (migration 20261126130100): Postgres delivers it with the commit's answer, before the writer
// hears back, so a change reaches the next visitor as fast as without a cache, and a cached answer
// costs no query at all. A change of nothing but some products' stock (an order) names those
// products (migration 20261126150000) and drops only the answers that hold them or whose rows it
// could reorder (docs/decisions/045); every other change drops everything.
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PGlite } from '@electric-sql/pglite'
import { compressors, MIN_COMPRESS_BYTES, pickEncoding, type Encoding } from './compression.ts'

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
}

/** The notification payload of a change of some products' stock only: 'stock:<id>,<id>…'. */
const STOCK_PAYLOAD = 'stock:'

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
  private readonly loading = new Map<string, Promise<CachedAnswer>>()
  private bytes = 0
  /** Moved by every committed catalogue change. */
  private version = 0
  /** The version of the last change that dropped everything: older answers are never kept. */
  private droppedAllAt = 0
  /** The stock changes since then (at most STOCK_LOG_SIZE), oldest first. */
  private stockLog: { version: number; ids: ReadonlySet<string> }[] = []
  hits = 0
  misses = 0

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
   * The catalogue changed: nothing kept so far is served again, or with a 'stock:' payload (only
   * those products' stock changed), nothing that shows or could reorder those products.
   */
  invalidate(payload = ''): void {
    this.version++
    if (payload.startsWith(STOCK_PAYLOAD)) {
      const ids = new Set(payload.slice(STOCK_PAYLOAD.length).split(','))
      this.stockLog.push({ version: this.version, ids })
      if (this.stockLog.length > STOCK_LOG_SIZE) this.stockLog.shift()
      for (const [key, entry] of this.entries) {
        if (!showsStockOf(entry, ids)) continue
        this.entries.delete(key)
        this.bytes -= entry.bytes
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

  /** Whether an answer read at its version has been changed by a change since. */
  private outdated(entry: CachedAnswer): boolean {
    if (entry.version === this.version) return false
    if (entry.version < this.droppedAllAt) return true
    // Changes after it that are no longer remembered: it may show one of them.
    if ((this.stockLog[0]?.version ?? Infinity) > entry.version + 1) return true
    return this.stockLog.some(
      (change) => change.version > entry.version && showsStockOf(entry, change.ids),
    )
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
    const running = this.loading.get(`${this.version}\n${key}`)
    if (running) this.hits++
    return running ?? null
  }

  /**
   * The answer for a key: from the cache, from a load already under way (fifty shoppers arriving
   * at once start one read), or from `produce`. Failures are not kept. An answer is kept under
   * the version `produce` says it read at (`currentVersion` inside its transaction), else the
   * version before it began, which is never newer than what it read: under load a read waits
   * behind orders that each move the version, and one kept under the version it waited from
   * would be thrown away every time.
   */
  async load(key: string, produce: () => Promise<ProducedAnswer>): Promise<CachedAnswer> {
    const found = this.lookup(key)
    if (found) return found
    const version = this.version
    const loadKey = `${version}\n${key}`
    this.misses++
    const promise = (async () => {
      const answer = await produce()
      const entry = buildEntry(answer.readAt ?? version, answer)
      this.store(key, entry)
      return entry
    })()
    this.loading.set(loadKey, promise)
    try {
      return await promise
    } finally {
      this.loading.delete(loadKey)
    }
  }

  private store(key: string, entry: CachedAnswer): void {
    // A read that began before a change finished after it: served to those who asked before the
    // change, never kept (unless the change was another product's stock).
    if (this.outdated(entry)) return
    const old = this.entries.get(key)
    if (old) {
      this.entries.delete(key)
      this.bytes -= old.bytes
    }
    if (entry.bytes > this.maxBytes) return
    this.entries.set(key, entry)
    this.bytes += entry.bytes
    for (const [oldest, value] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break
      this.entries.delete(oldest)
      this.bytes -= value.bytes
    }
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
