// The request log (issue 27): one JSON line per request with time, method, route, path, status,
// duration and request id, and nothing personal in any line after a shopper orders, a user signs
// up and in, and someone looks orders up by email and phone in the query string.
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHumoBackend, type HumoBackend } from '../../supabase/local/server'
import {
  createLogger,
  loggedPath,
  parseLogLevel,
  redactPersonalData,
  routeOf,
} from '../../supabase/local/http/request-log'
import { TEST_RATE_LIMITS } from '../fixtures/backend'
import {
  clientFor,
  createProduct,
  orderInput,
  placeOrder,
  type Client,
} from './server-rules/rules-backend'

let backend: HumoBackend & { anon: Client }
const output: string[] = []

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output.push(chunk.toString('utf8'))
      done()
    },
  })
  const started = await startHumoBackend({
    dataDir: null,
    staticDir: null,
    quiet: true,
    rateLimits: TEST_RATE_LIMITS,
    logger: createLogger('info', sink),
  })
  backend = Object.assign(started, { anon: clientFor(started) })
})
afterAll(async () => {
  await backend?.close()
})

type Line = Record<string, unknown>
const lines = (): Line[] =>
  output
    .join('')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line)

/** The log line of the request that answered with this X-Request-Id, once it is written. */
async function lineOf(requestId: string | null): Promise<Line> {
  expect(requestId).toBeTruthy()
  for (let i = 0; i < 200; i++) {
    const found = lines().find((line) => line.reqId === requestId)
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`no log line for request ${requestId}`)
}

describe('one JSON line per request', () => {
  it('has time, method, route, path, status, duration and the request id it answered with', async () => {
    const response = await fetch(`${backend.url}/rest/v1/products?select=id&limit=1`, {
      headers: { apikey: backend.anonKey },
    })
    expect(response.status).toBe(200)
    const id = response.headers.get('x-request-id')
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const line = await lineOf(id)
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      route: '/rest/v1/:table',
      path: '/rest/v1/products?select&limit',
      status: 200,
    })
    expect(Date.parse(line.time as string)).not.toBeNaN()
    expect(typeof line.ms).toBe('number')
  })

  it("keeps a proxy's plain X-Request-Id and replaces one that is not plain", async () => {
    const given = await fetch(`${backend.url}/healthz`, {
      headers: { 'x-request-id': 'caddy-7f3a9c2e' },
    })
    expect(given.headers.get('x-request-id')).toBe('caddy-7f3a9c2e')
    expect(await lineOf('caddy-7f3a9c2e')).toMatchObject({ route: '/healthz', status: 200 })
    const hostile = await fetch(`${backend.url}/healthz`, {
      headers: { 'x-request-id': 'rosa@example.com' },
    })
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('holds no email, phone, address, password, token or key after orders and sign-ins', async () => {
    const product = await createProduct(backend, { price: 20, quantity: 50 })
    const order = orderInput([{ productId: product.id, quantity: 1 }], {
      customer: {
        email: 'rosa.diaz@example.com',
        firstName: 'Rosalind',
        lastName: 'Diazmontero',
        phone: '(415) 555-0134',
      },
      shippingAddress: {
        address1: '500 Valencia St',
        city: 'San Francisco',
        state: 'CA',
        zipCode: '94110',
      },
    })
    const placed = await placeOrder(backend.anon, order)
    expect(placed.status).toBe('accepted')

    const password = 'correct horse battery staple 42'
    const signUp = await backend.anon.auth.signUp({ email: 'marco.polo@example.com', password })
    expect(signUp.error).toBeNull()
    const signIn = await clientFor(backend).auth.signInWithPassword({
      email: 'marco.polo@example.com',
      password,
    })
    expect(signIn.error).toBeNull()
    const accessToken = signIn.data.session!.access_token
    const refreshToken = signIn.data.session!.refresh_token
    // Personal data in query strings and a path segment.
    await fetch(
      `${backend.url}/rest/v1/orders?customer_email=eq.rosa.diaz%40example.com&phone=eq.4155550134`,
      { headers: { apikey: backend.anonKey, authorization: `Bearer ${accessToken}` } },
    )
    const last = await fetch(`${backend.url}/track/rosa.diaz@example.com/${order.secret}`)
    await lineOf(last.headers.get('x-request-id'))

    const text = output.join('')
    for (const line of lines()) {
      expect(line).toHaveProperty('time')
      expect(line).toHaveProperty('level')
    }
    for (const secret of [
      'rosa.diaz',
      'example.com',
      '555-0134',
      '4155550134',
      'Valencia',
      'Rosalind',
      'Diazmontero',
      '94110',
      password,
      order.secret,
      accessToken,
      refreshToken,
      backend.anonKey,
      backend.serviceRoleKey,
      '127.0.0.1',
      'marco',
    ])
      expect(text).not.toContain(secret)
    const routes = lines().map((line) => line.route)
    expect(routes).toEqual(
      expect.arrayContaining(['/rest/v1/rpc/:fn', '/auth/v1/signup', '/auth/v1/token']),
    )
  })
})

describe('what a line keeps of a path', () => {
  it('keeps route words and query names, never values, ids or addresses', () => {
    expect(loggedPath('/rest/v1/orders?select=*&customer_email=eq.a%40b.co')).toBe(
      '/rest/v1/orders?select&customer_email',
    )
    expect(loggedPath('/auth/v1/verify?token=abc&type=signup&redirect_to=https://x')).toBe(
      '/auth/v1/verify?token&type&redirect_to',
    )
    expect(loggedPath('/order/3f2a9c1e-1111-4a4b-9c9c-0123456789ab')).toBe('/order/:x')
    expect(loggedPath('/track/rosa%40example.com/4155550134')).toBe('/track/:x/:x')
    expect(loggedPath('/storage/v1/object/public/product_media/blue-dream.webp')).toBe(
      '/storage/v1/object/public/product_media/blue-dream.webp',
    )
    expect(loggedPath('/x?rosa%40example.com=1&4155550134')).toBe('/x?:x')
    // A token of letters only still goes; a product's slug and a built file stay.
    expect(loggedPath('/orders/AbCdEfGhIjKlMnOpQrStUvWxYz')).toBe('/orders/:x')
    expect(loggedPath('/menu/product/blue-dream-pre-roll-five-pack')).toBe(
      '/menu/product/blue-dream-pre-roll-five-pack',
    )
    expect(loggedPath('/assets/menu-page-D2xk3lQ9abc.js')).toBe('/assets/menu-page-D2xk3lQ9abc.js')
  })

  it('names routes from a bounded set', () => {
    expect(routeOf('/rest/v1/anything_at_all')).toBe('/rest/v1/:table')
    expect(routeOf('/rest/v1/rpc/anything')).toBe('/rest/v1/rpc/:fn')
    expect(routeOf('/auth/v1/token')).toBe('/auth/v1/token')
    expect(routeOf('/auth/v1/made-up')).toBe('(unknown api)')
    expect(routeOf('/storage/v1/object/public/b/x/y.png')).toBe(
      '/storage/v1/object/public/:bucket/*',
    )
    expect(routeOf('/menu/flower')).toBe('(app)')
  })

  it('blanks emails, phone numbers and JWTs out of free text', () => {
    expect(
      redactPersonalData(
        '550 5.1.1 <rosa@example.com>: unknown user; call (415) 555-0134, token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc',
      ),
    ).toBe('550 5.1.1 <[email]>: unknown user; call [number], token [token]')
  })
})

describe('HUMO_LOG_LEVEL', () => {
  it('defaults to info, takes off and the usual levels, and refuses anything else clearly', () => {
    expect(parseLogLevel(undefined)).toBe('info')
    expect(parseLogLevel(' ')).toBe('info')
    expect(parseLogLevel('off')).toBe('silent')
    expect(parseLogLevel('WARN')).toBe('warn')
    expect(() => parseLogLevel('verbose')).toThrow(
      'HUMO_LOG_LEVEL must be one of off, error, warn, info, debug, trace; got verbose',
    )
  })

  it('writes nothing below the level: warn keeps request lines out', () => {
    const lines: string[] = []
    const logger = createLogger(
      parseLogLevel('warn'),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8'))
          done()
        },
      }),
    )
    logger.info({ route: '/healthz' }, 'request')
    logger.warn('[humo-mail] could not send')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'warn',
      msg: '[humo-mail] could not send',
    })
  })
})
