// Issue 4's figures, printed (never asserted): in headless Chromium against the embedded backend
// with 10,000 products — time to pull the catalogue into RxDB from empty, five times over (issue
// 24: with where that time goes, docs/decisions/035-first-sync-breakdown.md; issue 39: each run and its gap, docs/decisions/050-first-sync-without-a-retry-wait.md;
// ./first-sync.ts); the menu query on the device (median, p95); the same query done SPEC.md's
// way (REST page of 1,000 with all joins, filtered in memory); and the time from an admin's status
// change to a second admin device.
// Run: npx tsx tests/bench/data-bench.ts [--products 10000] [--seeded <data folder>] [--only pull]
//   [--runs 5] [--profile] [--trace <file>]
//   --seeded: a copy of a data folder seeded before (seed-cli.ts) instead of seeding (~90 s);
//   --only pull: the first-sync figures alone;
//   --runs: how many pairs of first syncs (right after a change, warmed);
//   --profile: the page's functions with the most CPU self time during each pull;
//   --trace: every IndexedDB transaction, storage call and request of each pull, as JSON.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type Page } from '@playwright/test'
import { SignJWT } from 'jose'
import { build } from 'vite'
import { startHumoBackend } from '../../supabase/local/server'
import { writeBenchFigures } from './bench-figures'
import { firstSyncs } from './first-sync'
import {
  FIRST_SYNC_NOTES,
  firstSyncFigures,
  printFirstSync,
  sqlOfPages,
  summarise,
} from './first-sync-report'
import {
  clientFor,
  createProduct,
  createUser,
  orderInput,
  placeOrder,
} from '../integration/server-rules/rules-backend'

// Not strict: `npm run bench` passes the same options to every benchmark.
const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    seeded: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'boolean' },
    trace: { type: 'string' },
    runs: { type: 'string', default: '5' },
  },
  strict: false,
  allowPositionals: true,
})
const products = Number(values.products)
const runs = Number(values.runs)
const root = process.cwd()
const work = mkdtempSync(join(tmpdir(), 'humo-bench-'))
const dataDir = join(work, 'data')
const pageDir = join(work, 'page')

const ms = (n: number) => `${n.toFixed(1)} ms`

function seed() {
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'supabase/local/ops/seed-cli.ts',
      '--products',
      String(products),
      '--data-dir',
      dataDir,
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
}

/** Status change on one admin device → visible on a second one, 20 times (issue 4). */
async function statusToSecondDevice(
  backend: Awaited<ReturnType<typeof startHumoBackend>>,
  open: () => Promise<Page>,
) {
  const staff = await createUser(backend, { admin: true, email: 'bench-a@humo.test' })
  const follower = await createUser(backend, { admin: true, email: 'bench-b@humo.test' })
  const tokenOf = (user: typeof follower) =>
    new SignJWT({ role: 'authenticated', aud: 'authenticated', email: user.email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(backend.jwtSecret))
  const second = await open()
  const index = await second.evaluate((t) => window.humoBench.follow(t), await tokenOf(follower))
  const origin = await second.evaluate(() => window.humoBench.timeOrigin())
  const anon = clientFor(backend)
  const product = await createProduct(backend, { price: 20, quantity: null })
  const latencies: number[] = []
  let missed = 0
  const cycle = ['processing', 'shipped', 'delivered'] as const
  for (let i = 0; i < 20; i++) {
    const placed = await placeOrder(anon, orderInput([{ productId: product.id, quantity: 1 }]))
    if (placed.status !== 'accepted') throw new Error('bench order refused')
    const id = placed.order.id
    await new Promise((r) => setTimeout(r, 300))
    let from = 'pending'
    for (const to of cycle.slice(0, 1)) {
      const waiting = second.evaluate(
        ([i2, id2, s]) => window.humoBench.waitForStatus(i2, id2, s as string, 5000),
        [index, id, to] as const,
      )
      const started = Date.now()
      await staff.client.rpc('set_order_status', { p_id: id, p_from: from, p_to: to })
      const seenAt = await waiting
      if (seenAt === null) missed++
      else latencies.push(origin + seenAt - started)
      from = to
    }
  }
  latencies.sort((a, b) => a - b)
  const status = latencies.length
    ? {
        median: latencies[Math.floor(latencies.length / 2)]!,
        p95: latencies[Math.floor(latencies.length * 0.95)]!,
        runs: latencies.length,
        missed,
      }
    : { median: NaN, p95: NaN, runs: 0, missed }
  return status
}

async function main() {
  if (typeof values.seeded === 'string') {
    console.log(`[bench] copying the data folder ${values.seeded}…`)
    cpSync(values.seeded, dataDir, { recursive: true })
  } else {
    console.log(`[bench] seeding ${products} products…`)
    seed()
  }
  await build({
    configFile: false,
    root: join(root, 'tests/bench/browser'),
    logLevel: 'warn',
    // Unminified when profiling, so the profile names functions.
    build: { outDir: pageDir, emptyOutDir: true, target: 'es2022', minify: !values.profile },
  })
  const backend = await startHumoBackend({
    dataDir,
    staticDir: pageDir,
    port: 0,
    quiet: true,
    seed: false,
    // A benchmark places 20 orders with one email in a minute: no rate limits (docs/decisions/026-rate-limits-and-unaccepted-orders.md).
    rateLimits: null,
    // As `npm start`: a new device's first pull kept ready in the catalogue cache.
    warmPulls: true,
  })
  const browser = await chromium.launch({
    executablePath: process.env.HUMO_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  try {
    const open = async () => {
      const page = await (await browser.newContext()).newPage()
      await page.goto(backend.url)
      await page.waitForFunction(() => document.title === 'ready')
      return page
    }
    const first = await firstSyncs(backend, open, runs, values.profile === true)
    const shopper = first.shopper
    const pull = first.runs[0]!.afterChange
    // The pull's SQL alone, the same pages, straight on the database after the pulls.
    const sql = await sqlOfPages(backend.db, pull.breakdown)
    const sync = summarise(pull, sql)
    if (typeof values.trace === 'string')
      writeFileSync(
        values.trace,
        JSON.stringify(first.runs.map((run) => [run.afterChange.breakdown, run.warmed.breakdown])),
      )
    printFirstSync(first.runs, sync)
    const figures = firstSyncFigures(first.runs, sync)
    if (values.only === 'pull') {
      writeBenchFigures('data-bench', {
        title: `Data layer (issues 4, 24, 39), headless Chromium, ${products} products: first sync only`,
        figures,
        notes: FIRST_SYNC_NOTES,
        details: { products, load: loadavg(), runs: first.runs, sql },
      })
      return
    }
    const menu = await shopper.evaluate(() => window.humoBench.menuQuery(50, 'flower', 'kush'))
    const rxdb = await shopper.evaluate(() => window.humoBench.rxdbQuery(50, 'flower', 'kush'))
    const rest = await shopper.evaluate(() => window.humoBench.restMenuQuery(10, 'flower', 'kush'))

    const status = await statusToSecondDevice(backend, open)

    const report = {
      date: new Date().toISOString(),
      machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
      products,
      firstSyncs: first.runs,
      sql,
      menuQueryOnDevice: menu,
      menuQueryAskedOfRxdb: rxdb,
      menuQuerySpecRest: rest,
      statusToSecondDevice: status,
    }
    console.log(
      `  menu query on the device (flower, price range, "kush", by price, 50; filtered and sorted in memory as the menu does): median ${ms(menu.median)}, p95 ${ms(menu.p95)} over ${menu.runs} runs (goal median < 16 ms)`,
    )
    console.log(
      `    (the category's ${menu.categoryProducts} products read once from RxDB: ${ms(menu.readMs)}; the same query asked of RxDB every time instead: median ${ms(rxdb.median)}, p95 ${ms(rxdb.p95)})`,
    )
    console.log(
      `  SPEC.md's way (REST page of 1,000 with joins, filtered in memory): median ${ms(rest.median)}, p95 ${ms(rest.p95)} over ${rest.runs} runs`,
    )
    console.log(
      `  admin status change → second device: median ${ms(status.median)}, p95 ${ms(status.p95)} over ${status.runs} changes, ${status.missed} missed (goal median < 1000 ms)`,
    )
    writeBenchFigures('data-bench', {
      title: `Data layer (issues 4, 24, 39), headless Chromium, ${products} products`,
      figures: [
        ...figures,
        {
          label: 'Menu query on the device, median (flower, price range, "kush", by price)',
          value: menu.median,
          unit: 'ms',
          goal: { op: '<', value: 16 },
        },
        { label: 'Menu query on the device, p95', value: menu.p95, unit: 'ms' },
        { label: 'Same query asked of RxDB every time, median', value: rxdb.median, unit: 'ms' },
        {
          label: "SPEC.md's way (REST page of 1,000 with joins), median",
          value: rest.median,
          unit: 'ms',
        },
        {
          label: 'Admin status change → second device, median',
          value: Number.isNaN(status.median) ? null : status.median,
          unit: 'ms',
          goal: { op: '<', value: 1000 },
        },
        {
          label: 'Admin status change → second device, p95',
          value: Number.isNaN(status.p95) ? null : status.p95,
          unit: 'ms',
        },
        { label: 'Status changes missed (of 20)', value: status.missed, unit: '' },
      ],
      notes: FIRST_SYNC_NOTES,
      details: report,
    })
  } finally {
    await browser.close()
    await backend.close()
    rmSync(work, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
