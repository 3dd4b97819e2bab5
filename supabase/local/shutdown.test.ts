// @vitest-environment node
// SIGTERM during a stream of orders (issue 27): the real `npm start` server (main.ts under tsx,
// on a data folder of its own) stops accepting, finishes what it answers, closes the database and
// exits within 10 s; after a restart every order it acknowledged is there.
import { spawn, type ChildProcess } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestBackend } from '../../tests/fixtures/backend.ts'
import { orderInput } from '../../tests/integration/server-rules/rules-backend.ts'
import { createJwtKeys, loadJwtSecret } from './auth/jwt-keys.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const STOP_LIMIT_MS = 10_000

let dataDir: string
const running = new Set<ChildProcess>()

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'humo-shutdown-'))
})
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL')
  await rm(dataDir, { recursive: true, force: true })
})

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((done) => probe.close(() => done()))
  return port
}

interface Started {
  child: ChildProcess
  url: string
  output: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts main.ts as `npm start` does (without the build step) and waits for its first line. */
async function startMain(port: number): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'supabase/local/main.ts')], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      HUMO_DATA_DIR: dataDir,
      HUMO_BACKUPS: 'off',
      // Orders from one address as fast as they go: a load test's setting.
      HUMO_RATE_LIMITS: 'off',
      HUMO_LOG_LEVEL: 'warn',
      HUMO_TLS: '',
      HUMO_TLS_CERT: '',
      HUMO_TLS_KEY: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child)
      resolve({ code, signal })
    }),
  )
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /Humo is running at (http:\/\/\S+)/.exec(text)
      if (match) {
        child.stdout.off('data', look)
        resolve(match[1]!)
      }
    }
    child.stdout.on('data', look)
    void exited.then(() => reject(new Error(`main.ts exited before it was ready:\n${text}`)))
  })
  return { child, url, output: () => text, exited }
}

it('finishes the orders under way on SIGTERM, exits within 10 s, and keeps every acknowledged one', async () => {
  const port = await freePort()
  const first = await startMain(port)
  const config = (await (await fetch(`${first.url}/humo-config.json`)).json()) as {
    supabaseAnonKey: string
  }
  const anonKey = config.supabaseAnonKey
  const products = (await (
    await fetch(`${first.url}/rest/v1/products?select=id&is_unlimited_quantity=eq.true&limit=1`, {
      headers: { apikey: anonKey },
    })
  ).json()) as { id: string }[]
  let productId = products[0]?.id
  if (!productId) {
    const stocked = (await (
      await fetch(`${first.url}/rest/v1/products?select=id&order=quantity_available.desc&limit=1`, {
        headers: { apikey: anonKey },
      })
    ).json()) as { id: string }[]
    productId = stocked[0]!.id
  }

  const acknowledged: string[] = []
  let refused = 0
  let stopped = false
  let signalSent = false
  // Orders sent before the signal and not answered yet when it came, and those of them cut off.
  let inFlight = 0
  let inFlightAtSignal = 0
  let cut = 0
  let signalled!: () => void
  const enoughToSignal = new Promise<void>((resolve) => (signalled = resolve))
  // Four shoppers ordering back to back until the server no longer takes connections.
  const shopper = async () => {
    while (!stopped) {
      const order = orderInput([{ productId, quantity: 1 }])
      let response: Response
      const sentBeforeSignal = !signalSent
      inFlight++
      try {
        response = await fetch(`${first.url}/rest/v1/rpc/place_order`, {
          method: 'POST',
          headers: { apikey: anonKey, 'content-type': 'application/json' },
          body: JSON.stringify({ p_order: order }),
        })
      } catch {
        // Refused or cut: the server is going; this order was never acknowledged.
        inFlight--
        if (sentBeforeSignal) cut++
        stopped = true
        return
      }
      inFlight--
      const body = (await response.json().catch(() => null)) as { status?: string } | null
      if (response.status === 200 && body?.status === 'accepted') {
        acknowledged.push(order.id)
        if (acknowledged.length === 12) signalled()
      } else refused++
    }
  }
  const shoppers = Array.from({ length: 4 }, () => shopper())

  await enoughToSignal
  const signalledAt = performance.now()
  inFlightAtSignal = inFlight
  signalSent = true
  first.child.kill('SIGTERM')
  const outcome = await Promise.race([
    first.exited,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), STOP_LIMIT_MS).unref()),
  ])
  const stopMs = performance.now() - signalledAt
  stopped = true
  await Promise.all(shoppers)
  console.log(
    `SIGTERM to exit: ${Math.round(stopMs)} ms; ${acknowledged.length} orders acknowledged, ` +
      `${refused} answered otherwise; ${inFlightAtSignal} under way at the signal, ${cut} of them cut`,
  )
  // The bound: the process is gone within 10 s of the signal, and it stopped cleanly.
  expect(outcome, `still running 10 s after SIGTERM:\n${first.output()}`).not.toBeNull()
  expect(outcome).toEqual({ code: 0, signal: null })
  expect(first.output()).toContain('Humo stopped.')
  expect(refused).toBe(0)
  // The orders under way when the signal came were finished and answered, not cut off.
  expect(inFlightAtSignal).toBeGreaterThan(0)
  expect(cut).toBe(0)

  const second = await startMain(port)
  try {
    const { serviceRoleKey } = await createJwtKeys(loadJwtSecret(join(dataDir, 'jwt-secret')))
    const kept: string[] = []
    // In slices: a URL with every id would be long.
    for (let i = 0; i < acknowledged.length; i += 50) {
      const ids = acknowledged.slice(i, i + 50)
      const response = await fetch(
        `${second.url}/rest/v1/orders?select=id&id=in.(${ids.join(',')})`,
        { headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` } },
      )
      expect(response.status).toBe(200)
      kept.push(...((await response.json()) as { id: string }[]).map((row) => row.id))
    }
    expect(kept.sort()).toEqual([...acknowledged].sort())
  } finally {
    second.child.kill('SIGTERM')
    expect(await second.exited).toEqual({ code: 0, signal: null })
  }
}, 180_000)

it('close({ drainMs }) lets an order whose body is still arriving finish before it closes', async () => {
  const backend = await startTestBackend()
  const { rows } = await backend.db.query<{ id: string }>(
    'select id from public.products where is_active order by quantity_available desc nulls first limit 1',
  )
  const body = JSON.stringify({ p_order: orderInput([{ productId: rows[0]!.id, quantity: 1 }]) })
  const { port } = new URL(backend.url)
  // An order sent in two parts: the server is answering it while its second half is on the way.
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/rest/v1/rpc/place_order',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
  })
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request.once('error', reject)
    request.once('response', (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString()))
      response.once('end', () => resolve({ status: response.statusCode ?? 0, text }))
      response.once('error', reject)
    })
  })
  request.write(body.slice(0, 40))
  // Once the server has it in hand (the scrape counts itself too), the stop begins.
  while (
    !(await fetch(`${backend.url}/metrics`).then((r) => r.text())).includes(
      'humo_http_requests_in_flight 2',
    )
  )
    await new Promise((resolve) => setTimeout(resolve, 10))
  const closed = backend.close({ drainMs: 5_000 })
  // No new connection is taken from now on.
  let refusedYet = false
  for (let i = 0; i < 100 && !refusedYet; i++)
    refusedYet = await fetch(`${backend.url}/healthz`).then(
      () => false,
      () => true,
    )
  expect(refusedYet).toBe(true)
  request.end(body.slice(40))
  const { status, text } = await answer
  expect(status).toBe(200)
  expect(JSON.parse(text)).toMatchObject({ status: 'accepted' })
  await closed
  expect(backend.db.closed).toBe(true)
})

it('close({ drainMs }) answers a request sent on an idle keep-alive connection meanwhile, not a reset', async () => {
  const backend = await startTestBackend()
  const { rows } = await backend.db.query<{ id: string }>(
    'select id from public.products where is_active order by quantity_available desc nulls first limit 1',
  )
  const body = JSON.stringify({ p_order: orderInput([{ productId: rows[0]!.id, quantity: 1 }]) })
  const port = Number(new URL(backend.url).port)
  const answers = (text: string) => text.split('HTTP/1.1 200').length - 1
  const waitFor = async (done: () => boolean) => {
    for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10))
  }
  // A shopper's keep-alive connection: used once, then idle.
  const idle = connect(port, '127.0.0.1')
  let received = ''
  let socketClosed = false
  idle.on('data', (chunk: Buffer) => (received += chunk.toString()))
  idle.on('close', () => (socketClosed = true))
  idle.on('error', () => undefined)
  idle.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n')
  await waitFor(() => answers(received) === 1)
  expect(answers(received)).toBe(1)

  // An order under way keeps the drain going (its body is still on the way).
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/rest/v1/rpc/place_order',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
  })
  const answer = new Promise<number>((resolve, reject) => {
    request.once('error', reject)
    request.once('response', (response) => {
      response.resume()
      response.once('end', () => resolve(response.statusCode ?? 0))
    })
  })
  request.write(body.slice(0, 40))
  while (
    !(await fetch(`${backend.url}/metrics`).then((r) => r.text())).includes(
      'humo_http_requests_in_flight 2',
    )
  )
    await new Promise((resolve) => setTimeout(resolve, 10))
  const closed = backend.close({ drainMs: 5_000 })
  // Once no new connection is taken, the shopper sends its next request on the idle one.
  let refused = false
  for (let i = 0; i < 200 && !refused; i++) {
    refused = await new Promise<boolean>((resolve) => {
      const probe = connect(port, '127.0.0.1')
      probe.once('connect', () => {
        probe.destroy()
        resolve(false)
      })
      probe.once('error', () => resolve(true))
    })
    if (!refused) await new Promise((r) => setTimeout(r, 5))
  }
  expect(refused).toBe(true)
  idle.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n')
  await waitFor(() => answers(received) === 2 || socketClosed)
  expect(answers(received)).toBe(2)
  // Told to leave: the answer closes the connection.
  expect(received.split('HTTP/1.1 200')[2]).toMatch(/connection: close/i)
  request.end(body.slice(40))
  expect(await answer).toBe(200)
  await closed
  idle.destroy()
  expect(backend.db.closed).toBe(true)
})
