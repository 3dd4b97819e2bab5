// What the stand-in for autovacuum (supabase/local/ops/maintenance.ts, docs/decisions/048-maintenance-instead-of-autovacuum.md) does under
// a stream of orders: a durable shop of generated products takes place_order over HTTP from 8
// clients for a while, once with maintenance rounds (every 5 s here, to see several) and once
// without; then the shop left without them gets its whole backlog done in rounds on a quiet
// database, each step timed. Sizes are the change queue's and the database's at the end.
// Run: npm run bench -- maintenance   (or npx tsx tests/bench/maintenance-bench.ts [--seconds 20]
// [--products 2000])
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { startMaintenance, type MaintenanceStep } from '../../supabase/local/ops/maintenance.ts'
import { startHumoBackend, type HumoBackend } from '../../supabase/local/server.ts'
import { writeBenchFigures, type Figure } from './bench-figures.ts'
import { orderInput } from '../integration/server-rules/rules-backend'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    products: { type: 'string', default: '2000' },
  },
  strict: false,
})
const seconds = Number(values.seconds)
const products = Number(values.products)
const CLIENTS = 8
const MB = 1024 * 1024

const root = await mkdtemp(join(tmpdir(), 'humo-maintenance-bench-'))

interface Sizes {
  db: number
  changes: number
}

const sizes = async (backend: HumoBackend): Promise<Sizes> =>
  (
    await backend.db.query<Sizes>(
      `select pg_database_size(current_database())::float8 as db,
              pg_total_relation_size('humo_realtime.changes')::float8 as changes`,
    )
  ).rows[0]!

async function placeOrders(backend: HumoBackend, ms: number) {
  const { rows } = await backend.db.query<{ id: string }>(
    'select id from public.products where is_active and quantity_available > 100 limit 50',
  )
  const latencies: number[] = []
  const end = Date.now() + ms
  const one = async () => {
    const started = performance.now()
    const answer = await fetch(`${backend.url}/rest/v1/rpc/place_order`, {
      method: 'POST',
      headers: {
        apikey: backend.anonKey,
        Authorization: `Bearer ${backend.anonKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        p_order: orderInput([{ productId: rows[latencies.length % rows.length]!.id, quantity: 1 }]),
      }),
    })
    if (answer.status !== 200)
      throw new Error(`place_order ${answer.status}: ${await answer.text()}`)
    await answer.text()
    latencies.push(performance.now() - started)
  }
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) await one()
    }),
  )
  latencies.sort((a, b) => a - b)
  return {
    perSecond: latencies.length / (ms / 1000),
    p99: latencies[Math.floor(0.99 * (latencies.length - 1))]!,
  }
}

async function run(withRounds: boolean) {
  const backend = await startHumoBackend({
    dataDir: join(root, withRounds ? 'with' : 'without'),
    staticDir: null,
    quiet: true,
    rateLimits: null,
    unacceptedOrderSweepMs: 0,
    maintenanceMs: 0,
    seedProducts: products,
    backups: { dir: join(root, 'backups'), keep: 1, daily: false },
  })
  const maintenance = startMaintenance(backend.db, { intervalMs: withRounds ? 5_000 : 0 })
  const orders = await placeOrders(backend, seconds * 1000)
  await maintenance.close()
  return { backend, orders, sizes: await sizes(backend) }
}

try {
  const without = await run(false)
  // The backlog a shop without the job built up, done in rounds on a quiet database.
  const quiet = startMaintenance(without.backend.db, { intervalMs: 0 })
  const steps: MaintenanceStep[] = []
  const started = performance.now()
  for (let round = 0; round < 100; round++) {
    const done = await quiet.runOnce()
    steps.push(...done.steps)
    if (done.left === 0) break
  }
  const backlogMs = performance.now() - started
  await quiet.close()
  await without.backend.close()
  const withRounds = await run(true)
  await withRounds.backend.close()
  const longest = steps.reduce((a, b) => (b.ms > a.ms ? b : a), steps[0]!)

  const figures: Figure[] = [
    {
      label: 'change queue after the orders, with rounds',
      value: withRounds.sizes.changes / MB,
      unit: 'MB',
    },
    {
      label: 'change queue after the orders, without',
      value: without.sizes.changes / MB,
      unit: 'MB',
    },
    {
      label: 'database after the orders, with rounds',
      value: withRounds.sizes.db / MB,
      unit: 'MB',
    },
    { label: 'database after the orders, without', value: without.sizes.db / MB, unit: 'MB' },
    { label: 'orders per second, with rounds', value: withRounds.orders.perSecond, unit: '/s' },
    { label: 'orders per second, without', value: without.orders.perSecond, unit: '/s' },
    { label: 'place_order p99, with rounds', value: withRounds.orders.p99, unit: 'ms' },
    { label: 'place_order p99, without', value: without.orders.p99, unit: 'ms' },
    {
      label: `longest step of the backlog (${longest.table})`,
      value: longest.ms,
      unit: 'ms',
      goal: { op: '<', value: 100 },
    },
    { label: `whole backlog (${steps.length} steps)`, value: backlogMs, unit: 'ms' },
  ]
  for (const figure of figures)
    console.log(`${figure.label}: ${figure.value?.toFixed(1)} ${figure.unit}`)
  writeBenchFigures('maintenance-bench', {
    title:
      'Database maintenance (stand-in for autovacuum, docs/decisions/048-maintenance-instead-of-autovacuum.md)',
    figures,
    notes: [
      `${products} generated products, place_order over HTTP from ${CLIENTS} clients for ${seconds} s, in the same process`,
      'with rounds: one every 5 s (the server runs one a minute); a step is a VACUUM and/or an ANALYZE of one table, its time includes the commit fsync wait',
    ],
    details: { steps },
  })
} finally {
  await rm(root, { recursive: true, force: true })
}
