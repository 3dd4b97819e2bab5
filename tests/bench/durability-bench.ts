// What durable commits cost (issue 24, docs/decisions/034-durable-commits.md): place_order over HTTP on a shop in a
// data folder, with commits synced to the disk (the default) and with PGlite's fsync off
// (HUMO_DURABLE=off), closed loop at 1 and 10 shoppers, rounds alternated so load on the machine
// falls on both alike. Also the disk's own fsync latency, and how many fsyncs an order makes.
// Run: npm run bench -- durability   (or npx tsx tests/bench/durability-bench.ts [--seconds 5]
// [--rounds 2])
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { fsyncCount } from '../../supabase/local/db/database.ts'
import { startHumoBackend, type HumoBackend } from '../../supabase/local/server.ts'
import { writeBenchFigures, type Figure } from './bench-figures.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
  },
  strict: false,
})
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)

const root = await mkdtemp(join(tmpdir(), 'humo-durability-bench-'))
const dataDir = join(root, 'shop')

async function start(durable: boolean): Promise<HumoBackend> {
  // openDatabase reads HUMO_DURABLE when the backend opens its folder.
  process.env.HUMO_DURABLE = durable ? 'on' : 'off'
  const backend = await startHumoBackend({
    dataDir,
    staticDir: null,
    quiet: true,
    rateLimits: null,
    backups: { dir: join(root, 'backups'), keep: 1, daily: false },
  })
  delete process.env.HUMO_DURABLE
  return backend
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN

/** Places orders with `concurrency` shoppers for `seconds`; their latencies in ms. */
async function load(backend: HumoBackend, productIds: string[], concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  const latencies: number[] = []
  const until = performance.now() + seconds * 1000
  let failures = 0
  const order = (n: number) =>
    new Promise<number>((resolve, reject) => {
      const id = crypto.randomUUID()
      const body = JSON.stringify({
        p_order: {
          id,
          secret: `bench-secret-${id}`,
          customer: {
            email: `bench-${id.slice(0, 8)}@example.com`,
            firstName: 'Bea',
            lastName: 'Bench',
            phone: '(707) 555-0173',
          },
          fulfilment: 'delivery',
          deliveryMethod: 'standard',
          shippingAddress: {
            address1: '500 Valencia St',
            city: 'San Francisco',
            state: 'CA',
            zipCode: '94110',
          },
          billingAddress: null,
          paymentMethod: 'card',
          cardLast4: '4242',
          items: [{ productId: productIds[n % productIds.length], quantity: 1 }],
        },
      })
      const req = http.request(
        `${backend.url}/rest/v1/rpc/place_order`,
        {
          method: 'POST',
          agent,
          headers: {
            apikey: backend.anonKey,
            Authorization: `Bearer ${backend.anonKey}`,
            'Content-Type': 'application/json',
          },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = worker; performance.now() < until; i += concurrency) {
        const t0 = performance.now()
        const status = await order(i)
        if (status !== 200) failures++
        else latencies.push(performance.now() - t0)
      }
    }),
  )
  agent.destroy()
  return { latencies, failures }
}

/** The disk under the data folder: one 8 KiB write and its fsync, as a WAL flush does. */
function diskFsyncMs(): number[] {
  const file = join(root, 'fsync-probe')
  const fd = openSync(file, 'w')
  const page = Buffer.alloc(8192, 7)
  const times: number[] = []
  try {
    for (let i = 0; i < 200; i++) {
      writeSync(fd, page, 0, page.length, (i % 16) * 8192)
      const t0 = performance.now()
      fsyncSync(fd)
      times.push(performance.now() - t0)
    }
  } finally {
    closeSync(fd)
  }
  return times.sort((a, b) => a - b)
}

const samples: Record<string, number[]> = {}
const failures: Record<string, number> = {}
const fsyncsPerOrder: number[] = []
try {
  // The first start creates and seeds the shop; bench products with stock that never runs out.
  const first = await start(true)
  const { rows } = await first.db.query<{ id: string }>(
    `insert into public.products (name, slug, sku, price, quantity_available, description, category_id)
     select 'Durable ' || i, 'durable-bench-' || i, 'DURABLE-' || i, 10 + i, 10000000,
            'A bench product.', c.id
       from generate_series(1, 20) i, (select id from public.categories limit 1) c
     returning id`,
  )
  const productIds = rows.map((r) => r.id)
  await first.close()

  for (let round = 0; round < rounds; round++)
    for (const durable of round % 2 ? [false, true] : [true, false]) {
      const backend = await start(durable)
      try {
        for (const concurrency of [1, 10]) {
          const key = `${durable ? 'durable' : 'fsync off'} c${concurrency}`
          const before = fsyncCount(backend.db)
          const result = await load(backend, productIds, concurrency)
          ;(samples[key] ??= []).push(...result.latencies)
          failures[key] = (failures[key] ?? 0) + result.failures
          if (durable && before !== null && result.latencies.length)
            fsyncsPerOrder.push((fsyncCount(backend.db)! - before) / result.latencies.length)
          console.log(
            `round ${round + 1} ${key}: ${result.latencies.length} orders, ` +
              `p50 ${percentile(
                [...result.latencies].sort((a, b) => a - b),
                50,
              ).toFixed(1)} ms`,
          )
        }
      } finally {
        await backend.close()
      }
    }

  const stats = (key: string) => {
    const sorted = [...(samples[key] ?? [])].sort((a, b) => a - b)
    const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length
    return {
      mean,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      perSecond: sorted.length / (seconds * rounds),
    }
  }
  const on1 = stats('durable c1')
  const off1 = stats('fsync off c1')
  const on10 = stats('durable c10')
  const off10 = stats('fsync off c10')
  const disk = diskFsyncMs()
  const round1 = (n: number) => Math.round(n * 100) / 100
  const figures: Figure[] = [
    { label: 'place_order c1 mean, durable commits', value: round1(on1.mean), unit: 'ms' },
    { label: 'place_order c1 mean, fsync off', value: round1(off1.mean), unit: 'ms' },
    {
      label: 'Per-order cost of durable commits (c1 mean, durable minus fsync off)',
      value: round1(on1.mean - off1.mean),
      unit: 'ms',
    },
    { label: 'place_order c1 p99, durable commits', value: round1(on1.p99), unit: 'ms' },
    {
      label: 'place_order c10 p99, durable commits',
      value: round1(on10.p99),
      unit: 'ms',
      goal: { op: '<', value: 100 },
    },
    { label: 'place_order c10 p99, fsync off', value: round1(off10.p99), unit: 'ms' },
    { label: 'place_order c10, durable commits', value: round1(on10.perSecond), unit: 'orders/s' },
    { label: 'place_order c10, fsync off', value: round1(off10.perSecond), unit: 'orders/s' },
    {
      label: 'fsyncs per order (durable)',
      value: round1(fsyncsPerOrder.reduce((a, b) => a + b, 0) / (fsyncsPerOrder.length || 1)),
      unit: 'fsyncs',
    },
    { label: "This disk's fsync of an 8 KiB write, p50", value: round1(disk[100]!), unit: 'ms' },
  ]
  for (const f of figures) console.log(`${f.label}: ${f.value} ${f.unit}`)
  const failed = Object.entries(failures).filter(([, n]) => n > 0)
  if (failed.length) console.log(`Orders refused: ${JSON.stringify(Object.fromEntries(failed))}`)
  writeBenchFigures('durability-bench', {
    title: 'Durable commits: what syncing each commit to the disk costs an order',
    figures,
    notes: [
      `place_order over HTTP on a data folder, closed loop, ${seconds} s per step, ${rounds} rounds alternating durable and fsync off (HUMO_DURABLE=off).`,
      'Durable: Postgres with fsync on and wal_sync_method=fsync; the filesystem fsync wired to fs.fsyncSync (supabase/local/db/database.ts).',
      'Timings on a shared machine are noisy: compare with the load average printed by npm run bench.',
    ],
    details: { failures, disk: { p50: disk[100], p99: disk[198] } },
  })
} finally {
  await rm(root, { recursive: true, force: true })
}
