// Issue 7's figure, printed (never asserted): a cold offline start of the menu. In headless
// Chromium against the production build served by the embedded backend (demo catalogue), each
// run visits the home page once online in a fresh profile (the service worker takes control, the
// catalogue syncs into RxDB and its images are warmed), closes that page, turns the network off
// and opens /menu/flower in a new page. Measured in the page from the start of navigation: the
// menu on screen: the first frame with the splash gone onto the page's copy kept by the service
// worker (docs/decisions/013-starts-from-a-kept-copy.md; its HTML checked for product cards) or onto the app's own first product
// card, whichever comes first; the app's card itself (what a tap reaches); its picture decoded.
// Goal: the menu in under 1 s. SPEC.md's start-up splash (a count-up of about 950 ms before any route
// shows) is timed apart, so the report also says what the start costs beside it; the page is
// prepared underneath the splash, so ideally the card shows in the frame the splash leaves.
// Run: npx tsx tests/bench/offline-start-bench.ts [--runs 7]
import { execFileSync } from 'node:child_process'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { startHumoBackend, type HumoBackend } from '../../supabase/local/server'
import { writeBenchFigures, type Figure } from './bench-figures'

// Unknown options are other benchmarks' (`npm run bench -- --products …` reaches every bench).
const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } }, strict: false })
const runs = Number(values.runs)
const root = process.cwd()
const AGE_VERIFIED_KEY = 'humo.age-verified'
const MEDIA_CACHE = 'humo-media'
const PAGES_CACHE_PREFIX = 'humo-pages-'
const GOAL_MS = 1000

type Run = {
  /** Navigation start to the menu on screen: the copy or the app's card, the splash gone. */
  menuMs: number
  /** Whether the service worker answered the navigation with its copy of the page. */
  copyServed: boolean
  /** …to the splash gone onto that copy (NaN: no copy, or the app's page took its place first). */
  copyMs: number
  /** …to the app's own first product card visible on screen (the splash gone). */
  cardMs: number
  /** …to that card's picture decoded (from the media cache). */
  firstImageMs: number
  /** …to the app shell's HTML answered by the service worker. */
  shellMs: number
  /** …to the start-up splash on screen (index.html paints it before any script). */
  splashShownMs: number
  /** …to the app's scripts loaded and run (the `humo:scripts-ready` mark of src/main.tsx). */
  scriptsReadyMs: number
  /** …to the device database open (`humo:data-ready`). */
  dataReadyMs: number
  /** …to the page rendered with its content under the splash (`humo:page-ready`). */
  pageReadyMs: number
  /** …to the splash gone (SPEC.md: ~950 ms of count-up, from navigation start). */
  splashGoneMs: number
  /** From the splash leaving to the first card visible: 0 when the page was ready under it. */
  afterSplashMs: number
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95), min: sorted[0]! }
}
const ms = (n: number) => `${n.toFixed(0)} ms`

/** Products of the catalogue with a picture: warming is done when all are in the cache. */
async function productsWithImages(backend: HumoBackend): Promise<number> {
  const response = await fetch(
    `${backend.url}/rest/v1/products?select=id,product_media(media_type)&is_active=eq.true`,
    { headers: { apikey: backend.anonKey, Authorization: `Bearer ${backend.anonKey}` } },
  )
  const rows = (await response.json()) as { product_media: { media_type: string }[] }[]
  return rows.filter((r) => r.product_media.some((m) => m.media_type === 'image')).length
}

const RAF = { polling: 'raf', timeout: 30_000 } as const
const CARD = '[role="list"][aria-label="Products"] [role="listitem"]'
const SPLASH_TEXT = 'Loading your cannabis experience...'

type SplashClock = {
  splashShownAt: number | null
  splashGoneAt: number | null
  /** The first frame with the splash gone and a product card on screen. */
  cardShownAt: number | null
  /** The first frame with the splash gone and the page's copy showing. */
  copyShownAt: number | null
}
declare global {
  interface Window {
    humoSplash?: SplashClock
  }
}

/**
 * Notes, frame by frame, when the start-up splash (SPEC.md: +4 % per 30 ms, then 200 ms) appears
 * and goes, and the first frame with a product card on screen, so the report can tell the
 * splash's fixed time from the rest of the start. The card is checked in the same frame callback
 * as the splash, so a card shown in the frame the splash leaves counts from that frame.
 */
// NOTE: plain text, not a function: tsx names inner functions with a helper the page lacks.
const WATCH_SPLASH = `(() => {
  const clock = { splashShownAt: null, splashGoneAt: null, cardShownAt: null, copyShownAt: null }
  window.humoSplash = clock
  const frame = () => {
    const now = performance.now()
    const shown = [...document.querySelectorAll('[role="status"]')].some((el) =>
      (el.textContent || '').includes(${JSON.stringify(SPLASH_TEXT)}),
    )
    if (shown && clock.splashShownAt === null) clock.splashShownAt = now
    if (!shown && clock.splashShownAt !== null && clock.splashGoneAt === null) clock.splashGoneAt = now
    if (clock.splashGoneAt !== null && !document.getElementById('boot-splash')) {
      const copy = document.getElementById('prerendered-page')
      if (copy && !copy.hidden && clock.copyShownAt === null && clock.cardShownAt === null)
        clock.copyShownAt = now
      const card = document.querySelector(${JSON.stringify(CARD)})
      const box = card && card.getBoundingClientRect()
      const seen = card && card.checkVisibility({ visibilityProperty: true, opacityProperty: true })
      if (seen && box.height > 0 && box.top < innerHeight) clock.cardShownAt = now
    }
    if (clock.cardShownAt === null) requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
})()`

async function oneRun(browser: Browser, url: string, images: number): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    await context.addInitScript((key) => localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)
    const online = await context.newPage()
    await online.goto(`${url}/`)
    await online.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await online.waitForFunction(() => localStorage.getItem('humo.last-synced-at') !== null)
    // Warming is done when every product's picture is in the media cache.
    const cached = () =>
      online.evaluate(async (name) => (await (await caches.open(name)).keys()).length, MEDIA_CACHE)
    const deadline = Date.now() + 60_000
    while ((await cached()) < images) {
      if (Date.now() > deadline) throw new Error('the catalogue images were not warmed in 60 s')
      await online.waitForTimeout(100)
    }
    // …and the menu's copy is kept (a server that sends no copies: the start goes without one).
    await online
      .waitForFunction(
        async (prefix) => {
          const name = (await caches.keys()).find((n) => n.startsWith(prefix))
          return name ? Boolean(await (await caches.open(name)).match('/menu/flower')) : false
        },
        PAGES_CACHE_PREFIX,
        { timeout: 10_000 },
      )
      .catch(() => console.warn('  (no copy of /menu/flower was kept: the start goes without)'))
    await online.close()

    await context.setOffline(true)
    const page = await context.newPage()
    await page.addInitScript({ content: WATCH_SPLASH })
    // Whether the page came with a copy of the menu, product cards and all.
    let copyHasCards = false
    page.on('response', (response) => {
      if (!response.request().isNavigationRequest()) return
      response.text().then(
        (html) => {
          copyHasCards =
            html.includes('id="prerendered-page"') &&
            html.includes('aria-label="Products"') &&
            html.includes('role="listitem"')
        },
        () => undefined,
      )
    })
    await page.goto(`${url}/menu/flower`, { waitUntil: 'commit' })
    try {
      // Each check answers 0 (keep polling) or the page's clock at the frame where it holds.
      const menuMs = await (
        await page.waitForFunction(
          (card) => {
            // Seen, not merely laid out: the page renders hidden under the splash (docs/decisions/006-splash-from-navigation-start.md).
            if (document.getElementById('boot-splash')) return 0
            const element = document.querySelector(card)
            if (!element?.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
              return 0
            const box = element.getBoundingClientRect()
            return box.height > 0 && box.top < innerHeight ? performance.now() : 0
          },
          CARD,
          RAF,
        )
      ).jsonValue()
      const firstImageMs = await (
        await page.waitForFunction(
          (card) => {
            const img = document.querySelector<HTMLImageElement>(`${card} img`)
            return img?.complete && img.naturalWidth > 0 ? performance.now() : 0
          },
          CARD,
          RAF,
        )
      ).jsonValue()
      const timings = await page.evaluate(() => {
        const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
        // NOTE: no inner functions here: tsx wraps them in a helper the page does not have.
        const [scripts] = performance.getEntriesByName('humo:scripts-ready')
        const [data] = performance.getEntriesByName('humo:data-ready')
        const [ready] = performance.getEntriesByName('humo:page-ready')
        return {
          pageReadyMs: ready ? ready.startTime : NaN,
          shellMs: nav ? nav.responseEnd : NaN,
          scriptsReadyMs: scripts ? scripts.startTime : NaN,
          dataReadyMs: data ? data.startTime : NaN,
          splash: window.humoSplash,
        }
      })
      const goneAt = timings.splash?.splashGoneAt ?? NaN
      // The frame watcher's time when it saw the card; Playwright's own polling may see it a
      // frame later.
      const cardAt = timings.splash?.cardShownAt ?? menuMs
      const copyAt = copyHasCards ? (timings.splash?.copyShownAt ?? NaN) : NaN
      return {
        menuMs: Number.isNaN(copyAt) ? cardAt : Math.min(copyAt, cardAt),
        copyServed: copyHasCards,
        copyMs: copyAt,
        cardMs: cardAt,
        firstImageMs,
        shellMs: timings.shellMs,
        splashShownMs: timings.splash?.splashShownAt ?? NaN,
        scriptsReadyMs: timings.scriptsReadyMs,
        dataReadyMs: timings.dataReadyMs,
        pageReadyMs: timings.pageReadyMs,
        splashGoneMs: goneAt,
        afterSplashMs: cardAt - goneAt,
      }
    } catch (error) {
      const text = await page
        .locator('body')
        .innerText()
        .catch(() => '(no page)')
      throw new Error(`the offline menu did not show: ${text.slice(0, 600)}`, { cause: error })
    }
  } finally {
    await context.close()
  }
}

type BuildStamp = {
  isBuildFresh: (root: string) => boolean
  writeBuildStamp: (root: string) => void
}

async function main() {
  // The same freshness check as `npm start` (scripts/build-stamp.mjs): build only when needed.
  const stampModule = new URL('../../scripts/build-stamp.mjs', import.meta.url).href
  const { isBuildFresh, writeBuildStamp } = (await import(stampModule)) as BuildStamp
  if (!isBuildFresh(root)) {
    console.log('[bench] building the app…')
    execFileSync('npm', ['run', '-s', 'build:app'], { cwd: root, stdio: 'inherit' })
    writeBuildStamp(root)
  }
  const backend = await startHumoBackend({
    dataDir: null,
    staticDir: join(root, 'dist'),
    port: 0,
    quiet: true,
  })
  const browser = await chromium.launch({
    executablePath: process.env.HUMO_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // As in playwright.config.ts: setOffline() reaches navigator.onLine after a navigation.
      '--disable-features=RenderDocument',
    ],
  })
  try {
    const images = await productsWithImages(backend)
    const results: Run[] = []
    for (let i = 0; i < runs; i++) {
      const run = await oneRun(browser, backend.url, images)
      console.log(
        `  run ${i + 1}/${runs}: menu ${ms(run.menuMs)} (copy ${ms(run.copyMs)}, app's card ${ms(run.cardMs)}; splash on screen ${ms(run.splashShownMs)}, scripts ${ms(run.scriptsReadyMs)}, database ${ms(run.dataReadyMs)}, page ready ${ms(run.pageReadyMs)}, splash gone ${ms(run.splashGoneMs)}, card +${ms(run.afterSplashMs)}), first picture ${ms(run.firstImageMs)}, shell ${ms(run.shellMs)}`,
      )
      results.push(run)
    }
    const menu = stats(results.map((r) => r.menuMs))
    const card = stats(results.map((r) => r.cardMs))
    const withCopy = results.filter((r) => !Number.isNaN(r.copyMs)).length
    // The copy is served at every start that has one; it is seen only where the app's page was
    // not ready under the splash when the splash left (the app takes the copy's place first).
    const served = results.filter((r) => r.copyServed).length
    const image = stats(results.map((r) => r.firstImageMs))
    const shell = stats(results.map((r) => r.shellMs))
    const splashShown = stats(results.map((r) => r.splashShownMs))
    const scripts = stats(results.map((r) => r.scriptsReadyMs))
    const data = stats(results.map((r) => r.dataReadyMs))
    const pageReady = stats(results.map((r) => r.pageReadyMs))
    const splashGone = stats(results.map((r) => r.splashGoneMs))
    const afterSplash = stats(results.map((r) => r.afterSplashMs))
    const report = {
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? null,
        memoryGb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        chromium: browser.version(),
      },
      catalogue: { productsWithImages: images },
      runs,
      goalMs: GOAL_MS,
      offlineColdStartMenuMs: menu,
      offlineColdStartAppCardMs: card,
      runsWithCopy: withCopy,
      runsWithCopyServed: served,
      offlineColdStartFirstImageMs: image,
      offlineShellResponseMs: shell,
      splashShownMs: splashShown,
      scriptsReadyMs: scripts,
      databaseOpenMs: data,
      pageReadyMs: pageReady,
      splashGoneMs: splashGone,
      splashGoneToMenuMs: afterSplash,
      results,
    }
    console.log('\nHumo offline start')
    console.log(
      `  cold offline start, /menu/flower to the menu on screen: median ${ms(menu.median)}, p95 ${ms(menu.p95)} over ${runs} runs (goal < ${GOAL_MS} ms); the kept copy of the page was served in ${served} of ${runs} runs and seen in ${withCopy} (in the others the app's page was ready when the splash left)`,
    )
    console.log(
      `  …to the app's own first product card (buttons that answer): median ${ms(card.median)}, p95 ${ms(card.p95)}`,
    )
    console.log(
      `  …to its picture decoded from the media cache: median ${ms(image.median)}, p95 ${ms(image.p95)}`,
    )
    console.log(
      `  medians from navigation start: splash on screen ${ms(splashShown.median)}, scripts run ${ms(scripts.median)}, database open ${ms(data.median)}, page ready under the splash ${ms(pageReady.median)}, splash gone ${ms(splashGone.median)} (SPEC.md's count-up: ~950 ms), then the card +${ms(afterSplash.median)}`,
    )
    console.log(
      `  app shell answered by the service worker: median ${ms(shell.median)}, p95 ${ms(shell.p95)}`,
    )
    const figure = (label: string, value: number, goal?: Figure['goal']): Figure => ({
      label,
      value: Math.round(value),
      unit: 'ms',
      ...(goal ? { goal } : {}),
    })
    writeBenchFigures('offline-start-bench', {
      title: 'Cold offline start of /menu/flower (headless Chromium, production build)',
      figures: [
        figure('cold offline start to the menu on screen, median', menu.median, {
          op: '<',
          value: GOAL_MS,
        }),
        figure('cold offline start to the menu on screen, p95', menu.p95),
        figure("…to the app's own first product card, median", card.median),
        figure("…to the app's own first product card, p95", card.p95),
        figure('…to its picture decoded, median', image.median),
        figure('splash on screen, median', splashShown.median),
        figure('scripts run, median', scripts.median),
        figure('device database open, median', data.median),
        figure('page ready under the splash, median', pageReady.median),
        figure("splash gone (SPEC.md's ~950 ms count-up), median", splashGone.median),
        figure('from the splash gone to the card, median', afterSplash.median),
      ],
      notes: [
        'Each run: a fresh profile visits / online (service worker, catalogue synced, images warmed), then opens /menu/flower offline in a new page.',
        'Times from navigation start, in the page; a card counts when it is visible with the splash gone.',
        `The menu is on screen when the splash is gone onto the copy of the page the service worker kept (docs/decisions/013-starts-from-a-kept-copy.md; served in ${served} of ${runs} runs, seen in ${withCopy}: in the others the app's page had taken its place under the splash) or onto the app's first card.`,
        `${runs} runs.`,
      ],
      details: report,
    })
  } finally {
    await browser.close()
    await backend.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
