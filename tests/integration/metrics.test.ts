// /metrics (issue 27): what it counts (requests by route template, the database queue, realtime
// sockets, pending emails, Node's process metrics) and to whom it answers: the machine itself or
// an admin, never an anonymous remote caller (simulated as a trusted proxy's X-Forwarded-For).
import { SignJWT } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { setTrustedProxies } from '../../supabase/local/http/client-address'
import { startHumoBackend } from '../../supabase/local/server'
import { TEST_RATE_LIMITS } from '../fixtures/backend'
import {
  clientFor,
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  startRulesBackend,
  type RulesBackend,
} from './server-rules/rules-backend'

let backend: RulesBackend

/** The access token GoTrue would give the user `id` (rules-backend.ts makes users the same way). */
const tokenFor = (id: string) =>
  new SignJWT({ role: 'authenticated', aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(backend.jwtSecret))

beforeAll(async () => {
  backend = await startRulesBackend()
})
afterAll(async () => {
  await backend?.close()
})
afterEach(() => setTrustedProxies([]))

const scrape = async (headers: Record<string, string> = {}) => {
  const response = await fetch(`${backend.url}/metrics`, { headers })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    text: await response.text(),
  }
}

/** A sample's value from the exposition text, e.g. value(text, 'humo_db_queue_depth'). */
const value = (text: string, sample: string): number | null => {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `))
  return line ? Number(line.slice(sample.length + 1)) : null
}

describe('what /metrics counts', () => {
  it('counts requests by route template, never by table, function or id', async () => {
    await fetch(`${backend.url}/rest/v1/products?select=id&limit=1`, {
      headers: { apikey: backend.anonKey },
    })
    await fetch(`${backend.url}/rest/v1/categories?select=id`, {
      headers: { apikey: backend.anonKey },
    })
    await fetch(`${backend.url}/rest/v1/rpc/get_order`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
      body: '{}',
    })
    await fetch(`${backend.url}/rest/v2/some-probe-${Date.now()}`)
    const { status, type, text } = await scrape()
    expect(status).toBe(200)
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(
      value(text, 'humo_http_requests_total{method="GET",route="/rest/v1/:table",status="200"}'),
    ).toBe(2)
    expect(text).toMatch(/humo_http_requests_total\{method="POST",route="\/rest\/v1\/rpc\/:fn"/)
    expect(text).toMatch(
      /humo_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/rest\/v1\/:table"\}/,
    )
    // Unknown paths share one label; no table or function name becomes a label.
    expect(text).toContain('route="(app)"')
    expect(text).not.toContain('products')
    expect(text).not.toContain('get_order')
    expect(text).not.toContain('some-probe')
    // Node's own: CPU, memory, event loop lag.
    expect(text).toContain('process_cpu_user_seconds_total')
    expect(text).toContain('nodejs_eventloop_lag_seconds')
    expect(value(text, 'humo_pending_emails')).toBe(0)
    // The scrape itself is the one request under way.
    expect(value(text, 'humo_http_requests_in_flight')).toBe(1)
  })

  it('reports the calls waiting for the database while a transaction holds it', async () => {
    expect(value((await scrape()).text, 'humo_db_queue_depth')).toBe(0)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let holding!: () => void
    const started = new Promise<void>((resolve) => (holding = resolve))
    const stuck = backend.db.transaction(async () => {
      holding()
      await held
    })
    await started
    const waiting = [1, 2, 3].map((n) => backend.db.query(`select ${n}`))
    try {
      const { text } = await scrape()
      expect(value(text, 'humo_db_queue_depth')).toBe(3)
      expect(value(text, 'humo_db_calls_running')).toBe(1)
    } finally {
      release()
      await stuck
      await Promise.all(waiting)
    }
    expect(value((await scrape()).text, 'humo_db_queue_depth')).toBe(0)
  })

  it('counts open realtime connections', async () => {
    const before = value((await scrape()).text, 'humo_realtime_connections')
    expect(before).toBe(0)
    const socket = new WebSocket(
      `${backend.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${backend.anonKey}&vsn=1.0.0`,
    )
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    try {
      expect(value((await scrape()).text, 'humo_realtime_connections')).toBe(1)
    } finally {
      const closed = new Promise((resolve) => socket.once('close', resolve))
      socket.close()
      await closed
    }
    // The server sees the close a moment after the client: read until it does.
    let after = 1
    for (let i = 0; i < 50 && after !== 0; i++) {
      after = value((await scrape()).text, 'humo_realtime_connections') ?? -1
      if (after !== 0) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(after).toBe(0)
  })
})

describe('who /metrics answers', () => {
  // The test's requests come from 127.0.0.1; naming it a trusted proxy makes X-Forwarded-For
  // the caller, exactly as a reverse proxy on this machine relays a remote phone's request.
  const remote = { 'x-forwarded-for': '203.0.113.9' }

  it('refuses an anonymous remote caller with 401 and says what to send', async () => {
    setTrustedProxies(['127.0.0.1'])
    const { status, text } = await scrape(remote)
    expect(status).toBe(401)
    expect(JSON.parse(text)).toMatchObject({
      code: 401,
      msg: expect.stringContaining('only to this machine or to an admin') as string,
    })
    expect(text).not.toContain('humo_')
  })

  it('refuses a remote shopper or staff member who is not an admin with 403', async () => {
    setTrustedProxies(['127.0.0.1'])
    const anon = await scrape({ ...remote, apikey: backend.anonKey })
    expect(anon.status).toBe(403)
    const user = await createUser(backend)
    const header = `Bearer ${await tokenFor(user.id)}`
    const staff = await scrape({ ...remote, authorization: header })
    expect(staff.status).toBe(403)
    const forged = await scrape({ ...remote, authorization: `${header}x` })
    expect(forged.status).toBe(401)
  })

  it("answers a remote admin's token and the service role", async () => {
    setTrustedProxies(['127.0.0.1'])
    const admin = await createUser(backend, { admin: true })
    const header = `Bearer ${await tokenFor(admin.id)}`
    const asAdmin = await scrape({ ...remote, authorization: header })
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.text).toContain('humo_http_requests_total')
    const asService = await scrape({ ...remote, authorization: `Bearer ${backend.serviceRoleKey}` })
    expect(asService.status).toBe(200)
  })

  it('does not take a forwarded header from an untrusted peer as the machine itself', async () => {
    // No trusted proxy: a loopback peer relaying for someone (a proxy not configured as
    // trusted) is not local, whatever address the header names.
    const relayed = await scrape({ 'x-forwarded-for': '127.0.0.1' })
    expect(relayed.status).toBe(401)
    // A trusted proxy relaying a caller on this machine is local.
    setTrustedProxies(['127.0.0.1'])
    expect((await scrape({ 'x-forwarded-for': '203.0.113.9, 127.0.0.2' })).status).toBe(200)
  })
})

describe('pending emails', () => {
  it('counts the order emails waiting to be sent', async () => {
    // An SMTP server that is not there: the order's email stays queued, to be retried later.
    const mailing = await startHumoBackend({
      dataDir: null,
      staticDir: null,
      quiet: true,
      rateLimits: TEST_RATE_LIMITS,
      mail: {
        smtpUrl: 'smtp://127.0.0.1:9',
        retryBaseMs: 3_600_000,
        retryMaxMs: 3_600_000,
        warn: () => {},
      },
    })
    try {
      const read = async () =>
        value(await (await fetch(`${mailing.url}/metrics`)).text(), 'humo_pending_emails')
      expect(await read()).toBe(0)
      const product = await createProduct(mailing, { price: 10, quantity: 10 })
      const placed = await placeOrder(
        clientFor(mailing),
        orderInput([{ productId: product.id, quantity: 1 }]),
      )
      expect(placed.status).toBe('accepted')
      const { rows } = await mailing.db.query<{ n: number }>(
        `select count(*)::int as n from private.order_emails where status = 'queued'`,
      )
      expect(rows[0]!.n).toBeGreaterThan(0)
      expect(await read()).toBe(rows[0]!.n)
    } finally {
      await mailing.close()
    }
  })
})
