// Issue 23's stall figures (finding 9), printed (never asserted): how long a plain anonymous read
// (GET /rest/v1/categories) waits while the worst anonymous requests we found run in a loop.
// PGlite serves one statement at a time and ignores statement_timeout, so one slow statement
// makes every other request wait; the server bounds what an anonymous request may ask for
// instead (docs/decisions/027-request-limits.md). Goal: p95 and max under 100 ms.
// Runs on the demo catalogue, then on --products generated ones (0: the demo catalogue only).
// Run: npx tsx tests/bench/stall-bench.ts [--products 2000] [--seconds 3]
//        [--attackers 2] [--only <words of one attack's label>]
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Worker } from 'node:worker_threads'
import { startHumoBackend } from '../../supabase/local/server.ts'
import { writeBenchFigures, type Figure } from './bench-figures.ts'

// Not strict: `npm run bench` passes the same options to every benchmark.
const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '3' },
    attackers: { type: 'string', default: '2' },
    only: { type: 'string' },
  },
  strict: false,
  allowPositionals: true,
})
const productCount = Number(values.products)
const seconds = Number(values.seconds)
const attackers = Number(values.attackers)

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

interface Attack {
  label: string
  path: string
  method?: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
  /** Connections sending it at once (default --attackers). */
  concurrency?: number
}

const big = (n: number, unit = 'a') => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)
const many = (n: number, item: (i: number) => string, sep = ',') =>
  Array.from({ length: n }, (_, i) => item(i)).join(sep)

/** The worst anonymous requests we found; each is sent as fast as the server answers. */
const ATTACKS: Attack[] = [
  {
    label: 'rpc/slugify with a 255 KB string',
    path: '/rest/v1/rpc/slugify',
    method: 'POST',
    body: JSON.stringify({ p_text: big(255 * 1024, 'A& b-') }),
  },
  {
    label: 'rpc/slugify with a 9 MB string (finding 9)',
    path: '/rest/v1/rpc/slugify',
    method: 'POST',
    body: JSON.stringify({ p_text: big(9 * 1024 * 1024, 'Ä& ') }),
  },
  {
    label: 'products with a long ilike pattern of wildcards',
    path: `/rest/v1/products?description=ilike.${encodeURIComponent(many(2000, () => '*a', ''))}*b`,
  },
  {
    label: 'products with a backtracking regex (match)',
    path: `/rest/v1/products?description=match.${encodeURIComponent('^(.*a){20}(.*)\\2$')}`,
  },
  {
    label: 'products with the most ilike patterns allowed (4 × 64 characters, 4 wildcards)',
    path: `/rest/v1/products?or=(${many(4, (i) => `description.ilike.${'*a'.repeat(4)}${'b'.repeat(54)}${i}`)})`,
  },
  {
    label: 'products with an allowed regular expression',
    path: `/rest/v1/products?description=imatch.${encodeURIComponent('^[a-z <>/]*(lab|tested|grown|mints).*[0-9x]$')}`,
  },
  {
    label: 'products with or= of 500 ilike branches',
    path: `/rest/v1/products?or=(${many(500, (i) => `description.ilike.*${i}x*`)})`,
  },
  {
    label: 'products ordered by description with a huge offset',
    path: '/rest/v1/products?order=description.desc,name&offset=100000000&limit=1',
  },
  {
    label: 'every product with every embed, count=exact',
    path: '/rest/v1/products?select=*,brand:brands(*),category:categories(*),product_media(*),product_effects(*),terpene_profiles(*)',
    headers: { Prefer: 'count=exact' },
  },
  {
    label: 'every product with every embed from 20 connections at once',
    path: '/rest/v1/products?select=*,brand:brands(*),category:categories(*),product_media(*),product_effects(*),terpene_profiles(*)',
    concurrency: 20,
  },
  {
    label: 'products embedding their brand embedding all its products, twice',
    path: '/rest/v1/products?select=*,brand:brands(*,products(*,brand:brands(*,products(*))))',
  },
  {
    label: 'rpc/place_order with a 100 KB body of 2,000 lines',
    path: '/rest/v1/rpc/place_order',
    method: 'POST',
    body: JSON.stringify({
      p_order: {
        id: '00000000-0000-4000-8000-000000000001',
        customer_name: 'x'.repeat(1000),
        customer_phone: '555',
        items: Array.from({ length: 2000 }, (_, i) => ({
          product_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          quantity: 1,
        })),
      },
    }),
  },
  {
    label: 'rpc/submit_contact_message with a 250 KB message',
    path: '/rest/v1/rpc/submit_contact_message',
    method: 'POST',
    body: JSON.stringify({
      p: { name: 'x', email: 'x@example.com', message: big(250 * 1024) },
    }),
  },
  {
    label: 'rpc/pull_products with an absurd page size',
    path: '/rest/v1/rpc/pull_products?max_rows=100000000',
  },
  {
    label: 'products in (...) of 5,000 ids',
    path: `/rest/v1/products?id=in.(${many(5000, (i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)})`,
  },
]

/** The attacker: `attackers` loops sending the request until told to stop, then its statistics. */
const ATTACKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { url, init, attackers } = workerData
let stop = false
parentPort.once('message', () => { stop = true })
const statuses = new Map()
const durations = []
const loop = async () => {
  while (!stop) {
    const t = performance.now()
    try {
      const res = await fetch(url, init)
      await res.arrayBuffer()
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    } catch {
      statuses.set(0, (statuses.get(0) ?? 0) + 1)
    }
    durations.push(performance.now() - t)
  }
}
Promise.all(Array.from({ length: attackers }, loop)).then(() =>
  parentPort.postMessage({ statuses: [...statuses], durations }),
)
`

const figures: Figure[] = []

/** Runs every attack against one catalogue: 0 products is the demo catalogue `npm start` serves. */
async function runSuite(generated: number): Promise<void> {
  const started = performance.now()
  const backend = await startHumoBackend({
    dataDir: null,
    port: 0,
    quiet: true,
    ...(generated > 0 ? { seedProducts: generated } : {}),
  })
  const catalogue = generated > 0 ? `${generated} products` : 'the demo catalogue'
  console.log(
    `Seeded ${catalogue} into an in-memory backend in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  const headers = { apikey: backend.anonKey, Authorization: `Bearer ${backend.anonKey}` }

  // The plain reader is another shopper: it connects from another loopback address than the
  // attackers (the server shares the database fairly between client addresses).
  const readOnce = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(
        `${backend.url}/rest/v1/categories?select=id,name`,
        { headers, localAddress: '127.0.0.2', agent: false },
        (res) => {
          res.resume()
          res.once('end', resolve)
          res.once('error', reject)
        },
      )
      req.once('error', reject)
    })

  /** Plain reads one after another for `ms`, each timed. */
  async function plainReads(ms: number): Promise<number[]> {
    const times: number[] = []
    const until = performance.now() + ms
    while (performance.now() < until) {
      const t = performance.now()
      await readOnce()
      times.push(performance.now() - t)
      await new Promise((done) => setTimeout(done, 5))
    }
    return times.sort((a, b) => a - b)
  }

  function report(label: string, times: number[], extra = ''): void {
    const p50 = percentile(times, 50)
    const p95 = percentile(times, 95)
    const max = times.at(-1) ?? NaN
    console.log(
      `stall: plain read p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms while ${label}${extra}`,
    )
    if (label !== 'any of the attacks above runs' && label !== 'nothing else runs') return
    figures.push(
      {
        label: `${catalogue}: plain read p95 while ${label}`,
        value: +p95.toFixed(1),
        unit: 'ms',
        goal: { op: '<', value: 100 },
      },
      { label: `${catalogue}: plain read max while ${label}`, value: +max.toFixed(1), unit: 'ms' },
    )
  }

  try {
    report('nothing else runs', await plainReads(1000))
    const worst: number[] = []
    for (const attack of ATTACKS) {
      if (typeof values.only === 'string' && !attack.label.includes(values.only)) continue
      // The attack runs in a worker thread, as another client would: sending a 9 MB body is
      // work of its own that must not be counted against the server's event loop.
      const worker = new Worker(ATTACKER, {
        eval: true,
        workerData: {
          url: `${backend.url}${attack.path}`,
          init: {
            method: attack.method ?? 'GET',
            headers: {
              ...headers,
              ...(attack.body ? { 'Content-Type': 'application/json' } : {}),
              ...attack.headers,
            },
            ...(attack.body ? { body: attack.body } : {}),
          },
          attackers: attack.concurrency ?? attackers,
        },
      })
      const result = new Promise<{ statuses: [number, number][]; durations: number[] }>(
        (resolve, reject) => {
          worker.once('message', resolve)
          worker.once('error', reject)
        },
      )
      // Let the attack get going before timing reads.
      await new Promise((done) => setTimeout(done, 100))
      const times = await plainReads(seconds * 1000)
      worker.postMessage('stop')
      const { statuses: statusList, durations } = await result
      await worker.terminate()
      const statuses = new Map(statusList)
      durations.sort((a, b) => a - b)
      const answered = [...statuses].map(([status, n]) => `${n}× ${status}`).join(', ')
      report(
        attack.label,
        times,
        ` (attack answered ${answered}, median ${percentile(durations, 50).toFixed(0)} ms each)`,
      )
      worst.push(...times)
    }
    worst.sort((a, b) => a - b)
    report('any of the attacks above runs', worst)
  } finally {
    await backend.close()
  }
}

async function main(): Promise<void> {
  // The demo catalogue, then a large one (unless --products 0).
  await runSuite(0)
  if (productCount > 0) await runSuite(productCount)
  writeBenchFigures('stall-bench', {
    title: 'Stalls (issue 23): a plain read while the worst anonymous requests run',
    figures,
  })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
