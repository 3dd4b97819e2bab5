// Issue 7's Lighthouse figures, printed (never asserted): the performance score, LCP, TBT and CLS
// of `/`, `/menu/flower` and a product page, with Lighthouse's default mobile settings (Moto G
// Power emulation, simulated slow 4G and 4x CPU slowdown), in Debian's Chromium, against the
// production build (dist/) served by the embedded backend the way `npm start` runs it. Issue 25's
// accessibility score (goal 100) of the same pages, and of the cart and checkout with a line in
// the cart (one run each, accessibility only: their speed is not what is measured there).
//
// What is measured: a first visit of a shopper who has already answered the 21+ age gate on this
// device. Each run gets a fresh browser profile whose only content is the age gate's answer in
// localStorage (written on /humo-config.json, which loads no app code); Lighthouse then runs
// with its storage reset turned off so that answer survives. Nothing else is in the profile: no
// service worker, no HTTP cache, an empty IndexedDB, so the catalogue comes from the network.
// A repeat visit is measured too: Lighthouse again in the same profile, which then has the service
// worker, its precache and the catalogue on the device. Each page is run several times (--runs,
// default 3) and the median of each figure is reported.
//
// Run: npx tsx tests/bench/lighthouse-bench.ts [--runs 3] (after `npm run build:app`).
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import lighthouse, { type Result } from 'lighthouse'
import { OVERLAP_WINDOW_MS } from '../../src/data/replication/rpc-pull'
import { writeBenchFigures, type Figure } from './bench-figures'

const AGE_VERIFIED_KEY = 'humo.age-verified' // src/lib/device-storage.ts
const CHROMIUM = process.env.HUMO_CHROMIUM ?? '/usr/bin/chromium'
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

// Not strict: `npm run bench` passes the same options to every benchmark.
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' } },
  strict: false,
  allowPositionals: true,
})
const runs = Math.max(1, Number(values.runs) || 3)
const root = process.cwd()
const work = mkdtempSync(join(tmpdir(), 'humo-lighthouse-'))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** `npm start`'s server (supabase/local/main.ts) on its own port and a fresh data folder. */
async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HUMO_DATA_DIR: join(work, 'data') },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)))
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Humo is running')) resolve()
    })
  })
  return { url: `http://127.0.0.1:${port}`, child }
}

async function closeBrowser(browser: ChildProcess) {
  const running = browser.exitCode === null && browser.signalCode === null
  const exited = running ? new Promise((r) => browser.once('exit', r)) : Promise.resolve()
  try {
    process.kill(-browser.pid!, 'SIGTERM')
  } catch {
    browser.kill('SIGTERM')
  }
  await exited
  // The group's other processes may still be flushing the profile for a moment.
  await new Promise((r) => setTimeout(r, 300))
}

/**
 * Chromium with a DevTools port, on a profile that holds only the age gate's answer (and, given
 * `cartProduct`, that product in the cart, put there as a shopper does).
 */
async function launchVerifiedBrowser(url: string, profile: string, cartProduct?: string) {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: FLAGS.filter((flag) => !flag.startsWith('--headless')),
  })
  const page = context.pages()[0] ?? (await context.newPage())
  await page.goto(`${url}/humo-config.json`)
  await page.evaluate((key) => localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)
  if (cartProduct) {
    await page.goto(`${url}${cartProduct}`)
    await page.getByRole('button', { name: 'Add to Cart' }).first().click()
    await page.getByTestId('cart-count').filter({ hasText: '1' }).waitFor()
  }
  await context.close()

  const debugPort = await freePort()
  // Its own process group, so closing it also ends its renderer and GPU processes.
  const browser = spawn(
    CHROMIUM,
    [...FLAGS, `--user-data-dir=${profile}`, `--remote-debugging-port=${debugPort}`, 'about:blank'],
    { stdio: 'ignore', detached: true },
  )
  for (let i = 0; i < 100; i++) {
    const ready = await fetch(`http://127.0.0.1:${debugPort}/json/version`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) return { browser, debugPort }
    await new Promise((r) => setTimeout(r, 100))
  }
  await closeBrowser(browser)
  throw new Error('Chromium did not open its DevTools port')
}

/** A real product: the first one in the seeded catalogue that has a picture. */
async function productPath(url: string): Promise<string> {
  const config = (await (await fetch(`${url}/humo-config.json`)).json()) as {
    supabaseAnonKey: string
  }
  const response = await fetch(
    `${url}/rest/v1/products?select=slug,product_media(id)&order=name&limit=50`,
    {
      headers: {
        apikey: config.supabaseAnonKey,
        Authorization: `Bearer ${config.supabaseAnonKey}`,
      },
    },
  )
  const rows = (await response.json()) as { slug: string; product_media: unknown[] }[]
  const product = rows.find((row) => row.product_media.length > 0) ?? rows[0]
  if (!product) throw new Error('the seeded catalogue has no products')
  return `/product/${product.slug}`
}

type Sample = {
  score: number
  /** Lighthouse's accessibility score (0-100) and the audits that failed it. */
  a11y: number
  a11yFailed: string[]
  lcp: number
  tbt: number
  cls: number
  fcp: number
  si: number
  scriptKB: number
  totalKB: number
  lcpElement: string
  /** Lighthouse's measure of this machine's speed at the time (higher is faster). */
  benchmarkIndex: number
}

function sampleOf(lhr: Result): Sample {
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN
  const resources = lhr.audits['resource-summary']?.details as
    { items: { resourceType: string; transferSize: number }[] } | undefined
  const transfer = (type: string) =>
    (resources?.items.find((item) => item.resourceType === type)?.transferSize ?? NaN) / 1024
  const lcpDetails = lhr.audits['largest-contentful-paint-element']?.details as
    { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    ...accessibilityOf(lhr),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    fcp: audit('first-contentful-paint'),
    si: audit('speed-index'),
    scriptKB: transfer('script'),
    totalKB: transfer('total'),
    lcpElement: lcpDetails?.items?.[0]?.items?.[0]?.node?.snippet ?? '',
    benchmarkIndex: lhr.environment.benchmarkIndex,
  }
}

/** The accessibility score, and the ids of the audits that count against it. */
function accessibilityOf(lhr: Result): { a11y: number; a11yFailed: string[] } {
  const category = lhr.categories.accessibility
  const failed = (category?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => ref.id)
  return { a11y: Math.round((category?.score ?? NaN) * 100), a11yFailed: failed }
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function main() {
  if (!existsSync(join(root, 'dist/index.html')))
    throw new Error('dist/ is missing: run `npm run build:app` (npm run bench does it)')
  mkdirSync(join(root, 'tests/bench/reports'), { recursive: true })
  const { url, child } = await startServer()
  // The catalogue pull re-reads rows changed in the last 30 s behind its checkpoint (late
  // commits, src/data/replication/rpc-pull.ts), which on a catalogue seeded a moment ago is all
  // of it. A shop's catalogue is older than that; so is the one measured here.
  await new Promise((r) => setTimeout(r, OVERLAP_WINDOW_MS + 1000))
  const chromiumVersion = await new Promise<string>((resolve) => {
    const probe = spawn(CHROMIUM, ['--version'])
    let out = ''
    probe.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    probe.on('close', () => resolve(out.trim()))
  })
  const product = await productPath(url)
  const pages = [
    { label: 'Home', path: '/' },
    { label: 'Menu (flower)', path: '/menu/flower' },
    { label: 'Product page', path: product },
  ]
  const figures: Figure[] = []
  const details: Record<string, { first: Sample[]; repeat: Sample[] }> = {}
  try {
    for (const page of pages) {
      const first: Sample[] = []
      const repeat: Sample[] = []
      for (let run = 0; run < runs; run++) {
        const profile = join(work, `profile-${run}-${page.label.replace(/\W+/g, '-')}`)
        const { browser, debugPort } = await launchVerifiedBrowser(url, profile)
        try {
          // The same profile twice: a first visit, then a repeat visit that finds the service
          // worker, its precache and the catalogue on the device.
          for (const [visit, samples] of [
            ['first', first],
            ['repeat', repeat],
          ] as const) {
            const result = await lighthouse(`${url}${page.path}`, {
              port: debugPort,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance', 'accessibility'],
              disableStorageReset: true,
            })
            if (!result) throw new Error('Lighthouse returned nothing')
            if (result.lhr.runtimeError)
              throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`)
            samples.push(sampleOf(result.lhr))
            if (run === 0) {
              const slug = page.label.toLowerCase().replace(/\W+/g, '-').replace(/-$/, '')
              writeFileSync(
                join(root, 'tests/bench/reports', `lighthouse-${slug}-${visit}.report.json`),
                result.report as string,
              )
            }
          }
        } finally {
          await closeBrowser(browser)
          rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
        }
      }
      details[page.path] = { first, repeat }
      for (const [visit, samples] of [
        ['first visit', first],
        ['repeat visit', repeat],
      ] as const) {
        const m = (key: keyof Omit<Sample, 'lcpElement' | 'a11yFailed'>) =>
          median(samples.map((s) => s[key]))
        const score = m('score')
        const lcp = m('lcp')
        const tbt = m('tbt')
        const cls = m('cls')
        console.log(
          `  ${page.label} (${page.path}), ${visit}: score ${score}, LCP ${(lcp / 1000).toFixed(2)} s, TBT ${Math.round(tbt)} ms, CLS ${cls.toFixed(3)}, FCP ${(m('fcp') / 1000).toFixed(2)} s, JS ${m('scriptKB').toFixed(1)} KB transferred, benchmarkIndex ${Math.round(m('benchmarkIndex'))} (median of ${samples.length})`,
        )
        console.log(`    LCP element: ${samples[0]?.lcpElement}`)
        const failed = [...new Set(samples.flatMap((s) => s.a11yFailed))]
        console.log(
          `    accessibility ${m('a11y')}${failed.length ? ` (failed: ${failed.join(', ')})` : ''}`,
        )
        const name = `${page.label} ${page.path}, ${visit}`
        figures.push(
          {
            label: `${name}: performance score`,
            value: score,
            unit: '',
            goal: { op: '>=', value: 95 },
          },
          {
            label: `${name}: accessibility score`,
            value: m('a11y'),
            unit: '',
            goal: { op: '>=', value: 100 },
          },
          {
            label: `${name}: LCP`,
            value: Math.round(lcp),
            unit: 'ms',
            goal: { op: '<', value: 2000 },
          },
          { label: `${name}: TBT`, value: Math.round(tbt), unit: 'ms' },
          { label: `${name}: CLS`, value: Number(cls.toFixed(3)), unit: '' },
          { label: `${name}: FCP`, value: Math.round(m('fcp')), unit: 'ms' },
          {
            label: `${name}: JavaScript transferred`,
            value: Number(m('scriptKB').toFixed(1)),
            unit: 'KB',
          },
        )
      }
    }
    // The cart and checkout hold a line put in the cart beforehand: empty, they show no form.
    for (const page of [
      { label: 'Cart', path: '/cart' },
      { label: 'Checkout', path: '/checkout' },
    ]) {
      const profile = join(work, `profile-${page.label}`)
      const { browser, debugPort } = await launchVerifiedBrowser(url, profile, product)
      try {
        const result = await lighthouse(`${url}${page.path}`, {
          port: debugPort,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['accessibility'],
          disableStorageReset: true,
        })
        if (!result) throw new Error('Lighthouse returned nothing')
        if (result.lhr.runtimeError)
          throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`)
        const { a11y, a11yFailed } = accessibilityOf(result.lhr)
        console.log(
          `  ${page.label} (${page.path}), one item in the cart: accessibility ${a11y}${a11yFailed.length ? ` (failed: ${a11yFailed.join(', ')})` : ''}`,
        )
        figures.push({
          label: `${page.label} ${page.path}, one item in the cart: accessibility score`,
          value: a11y,
          unit: '',
          goal: { op: '>=', value: 100 },
        })
        writeFileSync(
          join(root, 'tests/bench/reports', `lighthouse-${page.label.toLowerCase()}.report.json`),
          result.report as string,
        )
      } finally {
        await closeBrowser(browser)
        rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
      }
    }
    writeBenchFigures('lighthouse-bench', {
      title: `Lighthouse (npm lighthouse, mobile defaults) in ${chromiumVersion}`,
      figures,
      notes: [
        'Default mobile settings: Moto G Power emulation, simulated slow 4G (150 ms RTT, 1.6 Mbps) and 4x CPU slowdown.',
        "First visit: a shopper who has answered the 21+ age gate on this device; a fresh profile per run with only the gate's answer in localStorage, storage reset off; no service worker, HTTP cache or IndexedDB data.",
        'Repeat visit: Lighthouse again in the same profile right after, with the service worker, its precache and the catalogue in IndexedDB from the first visit.',
        "The catalogue is older than the pull's 30 s overlap window (the bench waits), as a shop's is.",
        'Lighthouse simulates the throttling from the observed trace, so a busy machine (see benchmarkIndex in details and the load average) lowers the figures.',
        `Median of ${runs} run(s) per page; production build served by the embedded backend (supabase/local/main.ts).`,
        "Accessibility: Lighthouse's score (its axe-core audits, weighted); goal 100 on every page. The cart and checkout: one run each, accessibility only, with one product put in the cart beforehand through the product page.",
      ],
      details,
    })
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    rmSync(work, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
