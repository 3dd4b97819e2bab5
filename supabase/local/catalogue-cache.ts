// A cache for the catalogue pulls anonymous shoppers make on their first visit (pull_products,
// pull_categories, pull_brands, pull_product_types): every first visit asks for the same rows,
// so the answer is read and compressed once per version of the catalogue, not once per shopper
// (docs/decisions/029). Only anonymous calls are cached, so an entry holds nothing but what the
// anon role may read. An entry is valid for one version of the catalogue_changes table, which
// every write to a catalogue table bumps (statement-level triggers); the version is read before
// each cached call, so a committed change reaches the next visitor as fast as without a cache.
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PGlite } from '@electric-sql/pglite'
import { compressors, MIN_COMPRESS_BYTES, pickEncoding } from './compression.ts'

/** The functions whose anonymous answers depend on nothing but the catalogue and the arguments. */
export const CACHED_PULLS = new Set([
  'pull_products',
  'pull_categories',
  'pull_brands',
  'pull_product_types',
])

// NOTE: one full first-visit pull is about 0.5 MB of JSON plus its two encodings; a few dozen
// shapes of arguments (devices at different checkpoints) fit.
const DEFAULT_MAX_ENTRIES = 64
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024

export interface CachedAnswer {
  version: string
  status: number
  headers: Record<string, string>
  body: Buffer
  br: Buffer | null
  gzip: Buffer | null
  etag: string
  bytes: number
}

/** The catalogue's version: every catalogue table's last change, in one tiny read. */
export async function catalogueVersion(db: PGlite): Promise<string> {
  const result = await db.query<{ version: string | null }>(
    `select string_agg(table_name || '@' || changed_at::text, ',' order by table_name) as version
       from public.catalogue_changes`,
  )
  return result.rows[0]?.version ?? ''
}

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

export class CatalogueCache {
  private readonly entries = new Map<string, CachedAnswer>()
  private readonly loading = new Map<string, Promise<CachedAnswer>>()
  private bytes = 0
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
   * The answer for a key at a catalogue version: from the cache, from a load already under way
   * (fifty shoppers arriving at once start one read), or from `produce`. Failures are not kept.
   */
  async load(
    key: string,
    version: string,
    produce: () => Promise<{ status: number; headers: Record<string, string>; body: string }>,
  ): Promise<CachedAnswer> {
    const cached = this.entries.get(key)
    if (cached && cached.version === version) {
      this.entries.delete(key)
      this.entries.set(key, cached)
      this.hits++
      return cached
    }
    const loadKey = `${version}\n${key}`
    const running = this.loading.get(loadKey)
    if (running) {
      this.hits++
      return running
    }
    this.misses++
    const promise = (async () => {
      const answer = await produce()
      const entry = await buildEntry(version, answer)
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
    const old = this.entries.get(key)
    if (old) {
      // NOTE: a load of an older version finishing late may replace a newer entry; it is then
      // simply not used (every use compares versions), so no one is served a stale answer.
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

async function buildEntry(
  version: string,
  answer: { status: number; headers: Record<string, string>; body: string },
): Promise<CachedAnswer> {
  const body = Buffer.from(answer.body)
  const large = body.length >= MIN_COMPRESS_BYTES
  const [br, gzip] = large
    ? await Promise.all([compressors.br(body), compressors.gzip(body)])
    : [null, null]
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
  return {
    version,
    status: answer.status,
    headers: answer.headers,
    body,
    br,
    gzip,
    etag,
    bytes: body.length + (br?.length ?? 0) + (gzip?.length ?? 0),
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
export function sendCached(req: IncomingMessage, res: ServerResponse, entry: CachedAnswer): void {
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
  const encoding = entry.br ? pickEncoding(req.headers['accept-encoding']) : null
  const data = encoding === 'br' ? entry.br! : encoding === 'gzip' ? entry.gzip! : entry.body
  res.writeHead(entry.status, {
    ...entry.headers,
    ...common,
    ...(encoding ? { 'Content-Encoding': encoding } : {}),
    'Content-Length': data.length,
  })
  res.end(req.method === 'HEAD' ? undefined : data)
}
