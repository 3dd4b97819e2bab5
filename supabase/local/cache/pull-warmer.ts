// Keeps the first pull of a new device ready in the catalogue cache (docs/decisions/046-first-sync-from-a-warm-cache.md): when the
// server starts, and once the catalogue has stayed unchanged for a moment after a change, it asks
// this server for the pages a new device's light client asks for (pull_products from no checkpoint
// to the last page, and the first page of the other catalogue pulls), as an anonymous caller with
// the anon key, as a browser does (brotli). The answers land in the cache (catalogue-cache.ts)
// with their brotli encoding, so a first visitor is served from memory instead of waiting, page
// after page, for the query and the compression (~100 ms of CPU a page of 1,000 products).
//
// A new device that arrives before that (right after a change) makes it start at once: while the
// device parses and stores a page, the server reads and compresses the next one (readAhead),
// instead of each page waiting for the device to ask.
//
// It serves nothing itself: the cache decides what is served, and a change empties it at once, as
// before. A read begun before a change is kept under the version it read (or not at all), so a
// warmed page is never one the catalogue has moved past. Nothing private: the calls are the anon
// role's, like any visitor's. While changes keep coming (every order lowers stock), it waits;
// a change during a warm-up stops it, and the next quiet moment starts it again.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { promisify } from 'node:util'
import { brotliDecompress, gunzip } from 'node:zlib'
import type { PGlite } from '@electric-sql/pglite'
import { CATALOGUE_CHANNEL } from './catalogue-cache.ts'

/** The light client's page size (PULL_BATCH_SIZE in src/data/replication/rpc-pull.ts). */
export const WARM_PAGE_ROWS = 1000
/** The other pulls of a first visit: one page each. */
const SMALL_PULLS = ['pull_categories', 'pull_brands', 'pull_product_types']
const DEFAULT_QUIET_MS = 1500

const decompress = { br: promisify(brotliDecompress), gzip: promisify(gunzip) }

export interface PullWarmerOptions {
  db: PGlite
  /** This server, e.g. http://127.0.0.1:3000 (https: its own certificate is not checked). */
  url: string
  anonKey: string
  /** How long the catalogue must stay unchanged before it is read again; default 1.5 s. */
  quietMs?: number
  warn?: (message: string) => void
}

export interface PullWarmer {
  /** A device began a first pull that the cache did not hold: warm now, without the quiet wait. */
  readAhead(): void
  /** Resolves once nothing is waiting or running (tests and benchmarks). */
  idle(): Promise<void>
  stop(): Promise<void>
}

type Page = { rows?: { id: string; _modified: string }[] }

export async function startPullWarmer(options: PullWarmerOptions): Promise<PullWarmer> {
  const { db, anonKey, quietMs = DEFAULT_QUIET_MS } = options
  const base = new URL(options.url)
  let version = 0
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null

  /** One GET as the app's light client makes it (createRpcClient: pulls as GET, args in order). */
  const get = async (fn: string, args: [string, string][]): Promise<Page> => {
    const url = new URL(`/rest/v1/rpc/${fn}?${new URLSearchParams(args).toString()}`, base)
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest
      send(
        url,
        {
          headers: {
            apikey: anonKey,
            authorization: `Bearer ${anonKey}`,
            accept: '*/*',
            'accept-encoding': 'br',
          },
          rejectUnauthorized: false,
        },
        resolve,
      )
        .on('error', reject)
        .end()
    })
    const chunks: Buffer[] = []
    for await (const chunk of response) chunks.push(chunk as Buffer)
    if (response.statusCode !== 200) throw new Error(`${fn} answered ${response.statusCode}`)
    const encoding = response.headers['content-encoding']
    let body = Buffer.concat(chunks)
    if (encoding === 'br' || encoding === 'gzip') body = await decompress[encoding](body)
    return JSON.parse(body.toString()) as Page
  }

  const warm = async (at: number) => {
    // The products first: a device reading ahead of it waits for those pages.
    let args: [string, string][] = [['max_rows', String(WARM_PAGE_ROWS)]]
    for (;;) {
      if (stopped || version !== at) return
      const rows = (await get('pull_products', args)).rows ?? []
      const last = rows.at(-1)
      // The short page is asked for too: the device asks for it before its tail.
      if (!last || rows.length < WARM_PAGE_ROWS) break
      args = [
        ['after_modified', last._modified],
        ['after_id', last.id],
        ['max_rows', String(WARM_PAGE_ROWS)],
      ]
    }
    for (const fn of SMALL_PULLS) {
      if (stopped || version !== at) return
      await get(fn, [['max_rows', String(WARM_PAGE_ROWS)]])
    }
  }

  const start = () => {
    timer = null
    if (stopped) return
    if (running) {
      // Still on an older version: it stops at its next page, then this one starts.
      void running.then(start)
      return
    }
    running = warm(version)
      .catch((error: unknown) => {
        if (!stopped) options.warn?.(`warming the first pull failed: ${String(error)}`)
      })
      .finally(() => {
        running = null
      })
  }
  const schedule = (delayMs: number) => {
    if (timer) clearTimeout(timer)
    if (!stopped) timer = setTimeout(start, delayMs)
  }

  const unlisten = await db.listen(CATALOGUE_CHANNEL, () => {
    version++
    schedule(quietMs)
  })
  schedule(0)

  return {
    readAhead() {
      if (stopped || running) return
      if (timer) clearTimeout(timer)
      start()
    },
    async idle() {
      while (!stopped && (timer || running))
        await (running ?? new Promise((r) => setTimeout(r, 10)))
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      await unlisten()
      await running
    },
  }
}
