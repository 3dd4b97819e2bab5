// The first syncs of tests/bench/data-bench.ts (issues 4, 24, 39; docs/decisions/035-first-sync-breakdown.md, docs/decisions/046-first-sync-from-a-warm-cache.md, docs/decisions/050-first-sync-without-a-retry-wait.md): a
// new device pulling the whole catalogue into an empty RxDB database in headless Chromium, timed
// with the CPU it cost, run several times in pairs (right after a catalogue change, then with the
// first pull warmed in the server's cache), each on a browser context of its own.
import { readdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import type { Page } from '@playwright/test'
import { CATALOGUE_CHANNEL } from '../../supabase/local/cache/catalogue-cache'
import type { startHumoBackend } from '../../supabase/local/server'
import type { PullBreakdown } from './browser/pull-probe'

type Stats = { median: number; p95: number; runs: number; results?: number }
type Bench = {
  pull(): Promise<{ ms: number; products: number; breakdown: PullBreakdown }>
  menuQuery(
    runs: number,
    category: string,
    text: string,
  ): Promise<Stats & { readMs: number; categoryProducts: number }>
  rxdbQuery(runs: number, category: string, text: string): Promise<Stats>
  restMenuQuery(runs: number, category: string, text: string): Promise<Stats>
  follow(token: string): Promise<number>
  waitForStatus(i: number, id: string, status: string, timeoutMs: number): Promise<number | null>
  timeOrigin(): number
}
declare global {
  interface Window {
    humoBench: Bench
  }
}

/** CPU time (user + system, ms) of Chromium's processes by kind, read from /proc (Linux). */
function chromiumCpu(): Record<string, number> {
  const byKind: Record<string, number> = {}
  const tick = 1000 / 100 // USER_HZ
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let cmdline: string
    let stat: string
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      if (!cmdline.includes('chrom')) continue
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue
    }
    // Zygote-forked processes rewrite their title: arguments separated by spaces, not NULs.
    const args = cmdline.split(/[\0 ]/)
    const type = args.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser'
    const sub = args.find((a) => a.startsWith('--utility-sub-type='))?.slice(19)
    const kind = sub ? `${type}:${sub.split('.')[0]}` : type
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const cpu = (Number(fields[11]) + Number(fields[12])) * tick
    byKind[kind] = (byKind[kind] ?? 0) + cpu
  }
  return byKind
}

export type PullFigures = {
  ms: number
  products: number
  breakdown: PullBreakdown
  /** CPU time during the pull: this process (the embedded server) and the page's renderer. */
  cpu: {
    serverMs: number
    rendererMs: number
    rendererScriptMs: number
    /** Chromium's processes by kind (browser: IndexedDB's backend among others). */
    chromium: Record<string, number>
  }
  /** With --profile: the renderer's functions with the most self time during the pull. */
  profile?: { fn: string; selfMs: number }[]
}

/**
 * A first sync on a page, with the CPU time it cost: the server runs in this process
 * (`process.cpuUsage`, so the figure includes the bench's own little work), the renderer's from
 * Chromium's Performance metrics (TaskDuration: its main thread busy). Less sensitive to the
 * machine's load than wall time.
 */
async function timedPull(page: Page, profile: boolean): Promise<PullFigures> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  if (profile) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
    await cdp.send('Profiler.start')
  }
  const metric = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0
    return { task: get('TaskDuration') * 1000, script: get('ScriptDuration') * 1000 }
  }
  const before = await metric()
  const cpuBefore = process.cpuUsage()
  const chromiumBefore = chromiumCpu()
  const pull = await page.evaluate(() => window.humoBench.pull())
  const cpu = process.cpuUsage(cpuBefore)
  const chromium = Object.fromEntries(
    Object.entries(chromiumCpu()).map(([kind, ms]) => [kind, ms - (chromiumBefore[kind] ?? 0)]),
  )
  const after = await metric()
  const figures: PullFigures = {
    ...pull,
    cpu: {
      serverMs: (cpu.user + cpu.system) / 1000,
      rendererMs: after.task - before.task,
      rendererScriptMs: after.script - before.script,
      chromium,
    },
  }
  if (profile) {
    const { profile: samples } = await cdp.send('Profiler.stop')
    figures.profile = topSelfTime(samples)
  }
  await cdp.detach()
  return figures
}

type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples?: number[]
  timeDeltas?: number[]
}

/** The functions with the most self time in a CPU profile, ms. */
function topSelfTime(profile: CpuProfile, count = 25) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  for (let i = 0; i < samples.length; i++) {
    const frame = byNode.get(samples[i]!)?.callFrame
    if (!frame || frame.functionName === '(idle)') continue
    const file = frame.url.split('/').at(-1)?.split('?')[0] ?? ''
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000)
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([fn, selfMs]) => ({ fn, selfMs }))
}

type Backend = Awaited<ReturnType<typeof startHumoBackend>>

/** A pair of first syncs on new devices, and the machine's load average when it ended. */
export type FirstSync = { afterChange: PullFigures; warmed: PullFigures; load: number }

/** When a pull's last page with rows was parsed, ms since it started. */
export function lastPageParsed(pull: PullFigures): number {
  const pages = pull.breakdown.requests.filter((r) => r.fn === 'pull_products' && r.rows > 0)
  return Math.max(0, ...pages.map((r) => r.end))
}

/** From the last page parsed to "in sync": what the device does once it has every row. */
export const gapOf = (pull: PullFigures) => pull.ms - lastPageParsed(pull)

/**
 * `runs` pairs of first syncs, each on a new browser context (a new device): right after a
 * catalogue change (any commit to a catalogue table notifies: the server's cache is empty, and
 * the warmer, docs/decisions/046-first-sync-from-a-warm-cache.md, waits for the catalogue to be quiet before reading it), then once the
 * catalogue has been quiet and the warmer has put the first pull in the server's catalogue cache
 * (docs/decisions/029-catalogue-cache.md, docs/decisions/046-first-sync-from-a-warm-cache.md), the usual case. The first device's page is kept (the menu queries run on
 * it); the others' contexts are closed, which drops their databases.
 */
export async function firstSyncs(
  backend: Backend,
  open: () => Promise<Page>,
  runs: number,
  profile: boolean,
): Promise<{ runs: FirstSync[]; shopper: Page }> {
  const done: FirstSync[] = []
  let shopper: Page | undefined
  for (let run = 0; run < runs; run++) {
    const device = await open()
    await backend.pullsWarmed()
    await backend.db.exec(`notify ${CATALOGUE_CHANNEL}`)
    const afterChange = await timedPull(device, profile)
    if (shopper) await device.context().close()
    else shopper = device
    await backend.pullsWarmed()
    const second = await open()
    const warmed = await timedPull(second, profile)
    await second.context().close()
    done.push({ afterChange, warmed, load: loadavg()[0]! })
    console.log(
      `[bench] first sync ${run + 1}/${runs}: right after a change ${afterChange.ms.toFixed(1)} ms, warmed ${warmed.ms.toFixed(1)} ms`,
    )
  }
  return { runs: done, shopper: shopper! }
}
