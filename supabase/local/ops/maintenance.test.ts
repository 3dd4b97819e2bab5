// @vitest-environment node
// The stand-in for autovacuum (maintenance.ts, docs/decisions/048-maintenance-instead-of-autovacuum.md): after a stream of orders the
// churned tables get vacuumed and analyzed (PGlite's single-user Postgres never does it), and a
// round leaves quiet tables alone.
import { afterEach, expect, it } from 'vitest'
import { DEFAULT_THRESHOLDS, startMaintenance, type MaintenanceRound } from './maintenance.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'
import { orderInput } from '../../../tests/integration/server-rules/rules-backend'

let backend: HumoBackend | null = null

afterEach(async () => {
  await backend?.close()
  backend = null
})

interface TableStats {
  dead: number
  modified: number
  vacuumed: boolean
  analyzed: boolean
}

async function tableStats(shop: HumoBackend, table: string): Promise<TableStats> {
  await shop.db.query('select pg_stat_force_next_flush()')
  const { rows } = await shop.db.query<TableStats>(
    `select n_dead_tup::int as dead, n_mod_since_analyze::int as modified,
            last_vacuum is not null or last_autovacuum is not null as vacuumed,
            last_analyze is not null or last_autoanalyze is not null as analyzed
       from pg_stat_all_tables where relid = $1::regclass`,
    [table],
  )
  return rows[0]!
}

/** Orders through the API, as shoppers place them: each updates products, the queue, the feed. */
async function placeOrders(shop: HumoBackend, count: number): Promise<void> {
  const { rows } = await shop.db.query<{ id: string }>(
    'select id from public.products where is_active and quantity_available > 100 limit 1',
  )
  for (let i = 0; i < count; i++) {
    const answer = await fetch(`${shop.url}/rest/v1/rpc/place_order`, {
      method: 'POST',
      headers: {
        apikey: shop.anonKey,
        Authorization: `Bearer ${shop.anonKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ p_order: orderInput([{ productId: rows[0]!.id, quantity: 1 }]) }),
    })
    expect(answer.status).toBe(200)
    await answer.text()
  }
  // The realtime server empties its queue within a second of the last order (no socket here).
  await expect
    .poll(
      async () =>
        (await shop.db.query<{ n: number }>('select count(*)::int as n from humo_realtime.changes'))
          .rows[0]!.n,
      { timeout: 10_000 },
    )
    .toBe(0)
}

const startShop = (maintenanceMs: number) =>
  startHumoBackend({
    dataDir: null,
    quiet: true,
    rateLimits: null,
    unacceptedOrderSweepMs: 0,
    maintenanceMs,
  })

it('vacuums and analyzes the tables a stream of orders churned, a few at a time', async () => {
  backend = await startShop(0)
  await placeOrders(backend, 80)
  const before = await tableStats(backend, 'humo_realtime.changes')
  // Every order's change rows were inserted, then deleted: dead rows that nothing reclaims.
  expect(before.dead).toBeGreaterThan(80)
  expect(before.vacuumed).toBe(false)
  expect((await tableStats(backend, 'public.orders')).analyzed).toBe(false)

  const maintenance = startMaintenance(backend.db, { intervalMs: 0 })
  const rounds: MaintenanceRound[] = []
  try {
    do rounds.push(await maintenance.runOnce())
    while (rounds.at(-1)!.left > 0 && rounds.length < 50)
  } finally {
    await maintenance.close()
  }
  // Small steps: one table a statement, at most four a round.
  for (const round of rounds) expect(round.steps.length).toBeLessThanOrEqual(4)
  expect(rounds.at(-1)!.left).toBe(0)
  const tables = rounds.flatMap((round) => round.steps.map((step) => step.table))
  expect(tables).toContain('humo_realtime.changes')
  expect(tables).toContain('public.orders')

  const after = await tableStats(backend, 'humo_realtime.changes')
  expect(after.dead).toBe(0)
  expect(after.vacuumed).toBe(true)
  const orders = await tableStats(backend, 'public.orders')
  expect(orders.analyzed).toBe(true)
  expect(orders.modified).toBe(0)
  // The planner now knows how many orders there are.
  const { rows } = await backend.db.query<{ reltuples: number }>(
    `select reltuples from pg_class where oid = 'public.orders'::regclass`,
  )
  expect(rows[0]!.reltuples).toBeGreaterThanOrEqual(80)
}, 120_000)

it('leaves quiet tables alone: a round right after another touches no table of the shop', async () => {
  backend = await startShop(0)
  await placeOrders(backend, 60)
  const maintenance = startMaintenance(backend.db, { intervalMs: 0, maxStepsPerRound: 1000 })
  try {
    const first = await maintenance.runOnce()
    expect(first.steps.length).toBeGreaterThan(0)
    // A settings table no order writes: never due.
    expect(first.steps.map((step) => step.table)).not.toContain('public.shop_settings')
    expect((await tableStats(backend, 'public.shop_settings')).vacuumed).toBe(false)
    // Only what the first round itself wrote (pg_statistic's rows) may be due again.
    const second = await maintenance.runOnce()
    expect(second.steps.filter((step) => !step.table.startsWith('pg_catalog.'))).toEqual([])
  } finally {
    await maintenance.close()
  }
}, 120_000)

it('runs in the server by itself, every maintenanceMs, and stops with it', async () => {
  backend = await startShop(200)
  await placeOrders(backend, 60)
  // Vacuumed by the server's own rounds, and no longer due: on a slow machine a round may come
  // while orders still arrive, and the dead rows after it, fewer than autovacuum's threshold (the
  // queue is empty, so its threshold is the base), are left for a later round, as autovacuum does.
  await expect
    .poll(
      async () => {
        const changes = await tableStats(backend!, 'humo_realtime.changes')
        return changes.vacuumed && changes.dead <= DEFAULT_THRESHOLDS.vacuumBase
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true)
  expect((await tableStats(backend, 'humo_realtime.changes')).vacuumed).toBe(true)
  await backend.close()
  backend = null
}, 120_000)
