// What the request log costs per request, how long /healthz and a /metrics scrape
// take, and how long `npm start`'s server takes from SIGTERM to exit, idle and during a stream of
// orders (issue 27, docs/decisions/043-health-logs-metrics-shutdown.md). Prints figures; asserts nothing.
//
//   npm run bench -- observability        (or: npx tsx tests/bench/observability-bench.ts)
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { createLogger } from '../../supabase/local/http/request-log.ts'
import { startHumoBackend, type HumoBackend } from '../../supabase/local/server.ts'
import { orderInput } from '../integration/server-rules/rules-backend.ts'
import { writeBenchFigures, type Figure } from './bench-figures.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const REQUESTS = 300
const ROUNDS = 3

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits

async function timeRequests(backend: HumoBackend, path: string, n: number): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    const response = await fetch(`${backend.url}${path}`, { headers: { apikey: backend.anonKey } })
    await response.arrayBuffer()
    samples.push(performance.now() - started)
  }
  return samples
}

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((done) => probe.close(() => done()))
  return port
}

/** main.ts on a fresh data folder; SIGTERM after `orders` shoppers' orders start (0: idle). */
async function stopTime(shoppers: number): Promise<{ ms: number; acknowledged: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'humo-stop-bench-'))
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'supabase/local/main.ts')], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      HUMO_DATA_DIR: dataDir,
      HUMO_BACKUPS: 'off',
      HUMO_RATE_LIMITS: 'off',
      HUMO_LOG_LEVEL: 'warn',
      HUMO_TLS: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = await new Promise<string>((resolve) => {
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const match = /Humo is running at (http:\/\/\S+)/.exec(text)
      if (match) resolve(match[1]!)
    })
  })
  let acknowledged = 0
  let stopped = false
  const config = (await (await fetch(`${url}/humo-config.json`)).json()) as {
    supabaseAnonKey: string
  }
  const [product] = (await (
    await fetch(`${url}/rest/v1/products?select=id&order=quantity_available.desc&limit=1`, {
      headers: { apikey: config.supabaseAnonKey },
    })
  ).json()) as { id: string }[]
  const shopper = async () => {
    while (!stopped) {
      try {
        const response = await fetch(`${url}/rest/v1/rpc/place_order`, {
          method: 'POST',
          headers: { apikey: config.supabaseAnonKey, 'content-type': 'application/json' },
          body: JSON.stringify({ p_order: orderInput([{ productId: product!.id, quantity: 1 }]) }),
        })
        await response.arrayBuffer()
        if (response.ok) acknowledged++
      } catch {
        return
      }
    }
  }
  const running = Array.from({ length: shoppers }, () => shopper())
  if (shoppers > 0) while (acknowledged < 10) await new Promise((r) => setTimeout(r, 5))
  const started = performance.now()
  child.kill('SIGTERM')
  await exited
  const ms = performance.now() - started
  stopped = true
  await Promise.all(running)
  await rm(dataDir, { recursive: true, force: true })
  return { ms, acknowledged }
}

async function main(): Promise<void> {
  const load = loadavg()[0]!
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() })
  const plain = await startHumoBackend({ staticDir: null, quiet: true, rateLimits: null })
  const logged = await startHumoBackend({
    staticDir: null,
    quiet: true,
    rateLimits: null,
    logger: createLogger('info', discard),
  })
  const path = '/rest/v1/categories?select=id,slug'
  const without: number[] = []
  const withLog: number[] = []
  try {
    await timeRequests(plain, path, 50)
    await timeRequests(logged, path, 50)
    // Alternating rounds, so a burst of load on the shared machine hits both alike.
    for (let r = 0; r < ROUNDS; r++) {
      without.push(...(await timeRequests(plain, path, REQUESTS)))
      withLog.push(...(await timeRequests(logged, path, REQUESTS)))
    }
    const health = await timeRequests(logged, '/healthz', 200)
    const scrape = await timeRequests(logged, '/metrics', 50)
    const idle = await stopTime(0)
    const busy = await stopTime(4)
    const medianWithout = quantile(without, 0.5)
    const medianWith = quantile(withLog, 0.5)
    const figures: Figure[] = [
      { label: 'REST GET, no log, median', value: round(medianWithout), unit: 'ms' },
      { label: 'REST GET, JSON log, median', value: round(medianWith), unit: 'ms' },
      {
        label: 'JSON log cost per request (median difference)',
        value: round(medianWith - medianWithout, 3),
        unit: 'ms',
        goal: { op: '<', value: 0.5 },
      },
      { label: 'REST GET, JSON log, p95', value: round(quantile(withLog, 0.95)), unit: 'ms' },
      { label: '/healthz median', value: round(quantile(health, 0.5)), unit: 'ms' },
      { label: '/metrics scrape median', value: round(quantile(scrape, 0.5)), unit: 'ms' },
      {
        label: 'SIGTERM to exit, idle server',
        value: Math.round(idle.ms),
        unit: 'ms',
        goal: { op: '<', value: 10_000 },
      },
      {
        label: 'SIGTERM to exit, during 4 shoppers’ orders',
        value: Math.round(busy.ms),
        unit: 'ms',
        goal: { op: '<', value: 10_000 },
      },
      { label: 'Load average (1 min) at start', value: round(load), unit: '' },
    ]
    for (const figure of figures) console.log(`${figure.label}: ${figure.value} ${figure.unit}`)
    writeBenchFigures('observability-bench', {
      title: 'Request log, metrics, health and stop',
      figures,
      notes: [
        `${ROUNDS} alternating rounds of ${REQUESTS} sequential ${path} on two in-memory servers, one without a logger, one with the JSON log (to a discarding stream); both count metrics.`,
        'Stop: main.ts under tsx on a fresh data folder, HUMO_LOG_LEVEL=warn; SIGTERM idle, then after 10 orders of 4 shoppers ordering back to back.',
      ],
    })
  } finally {
    await plain.close()
    await logged.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
