// Floods of the shopper's public functions (issue 23, finding 4): with the default limits, a run
// of anonymous orders, contact messages or order lookups from one connection, or with one
// person's details, is answered 429 with Retry-After and a message saying how long to wait;
// HUMO_RATE_LIMITS=off lets them all through. Each test calls from its own loopback address
// (127.0.0.x: the server counts the socket's peer), so one backend serves them all.
import { request } from 'node:http'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS, parseRateLimits } from '../../../supabase/local/http/rate-limits'
import { startHumoBackend, type HumoBackend } from '../../../supabase/local/server'
import { createProduct, orderInput, type TestProduct } from './rules-backend'

interface Answer {
  status: number
  retryAfter: string | null
  body: { code?: string; message?: string; details?: string | null; status?: string } | null
}

/** POSTs to /rest/v1/rpc/<name> from the loopback address `from`, as the anonymous shopper. */
function rpcFrom(
  backend: HumoBackend,
  from: string,
  name: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  const url = new URL(`/rest/v1/rpc/${name}`, backend.url)
  const body = JSON.stringify(args)
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: from,
        headers: {
          apikey: backend.anonKey,
          Authorization: `Bearer ${backend.anonKey}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'] ?? null,
            body: text ? (JSON.parse(text) as Answer['body']) : null,
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const contactMessage = (email: string) => ({
  p: {
    id: randomUUID(),
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    phone: null,
    subject: 'Hello',
    message: 'Do you deliver north of the bridge?',
    newsletter: false,
  },
})

/** Sends `count` calls one after another; the statuses in order. */
async function flood(count: number, send: (i: number) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = []
  for (let i = 0; i < count; i++) answers.push(await send(i))
  return answers
}

describe('with the default limits', () => {
  let backend: HumoBackend
  let product: TestProduct

  beforeAll(async () => {
    backend = await startHumoBackend({ port: 0, dataDir: null, staticDir: null, quiet: true })
    // Unlimited stock: only the rate limits may refuse.
    product = await createProduct(backend, { quantity: null })
  })
  afterAll(async () => {
    await backend?.close()
  })

  it('refuses a flood of anonymous orders from one connection after the limit', async () => {
    const { max } = DEFAULT_RATE_LIMITS.place_order_ip
    const answers = await flood(30, (i) =>
      rpcFrom(backend, '127.0.0.11', 'place_order', {
        p_order: orderInput([{ productId: product.id, quantity: 1 }], {
          customer: {
            email: `shopper${i}@example.com`,
            firstName: 'Sam',
            lastName: 'Flood',
            phone: `(415) 555-${String(1000 + i)}`,
          },
        }),
      }),
    )
    expect(answers.slice(0, max).map((a) => a.body?.status)).toEqual(Array(max).fill('accepted'))
    for (const refused of answers.slice(max)) {
      expect(refused.status).toBe(429)
      expect(refused.body?.code).toBe('PT429')
      expect(refused.body?.message).toMatch(
        /^Too many orders from this connection\. Please wait \d+ minutes? and try again\.$/,
      )
      const seconds = Number(refused.retryAfter)
      expect(seconds).toBeGreaterThan(0)
      expect(seconds).toBeLessThanOrEqual(DEFAULT_RATE_LIMITS.place_order_ip.windowSeconds)
      expect(refused.body?.details).toBe(`Retry after ${refused.retryAfter} seconds`)
    }
    const { rows } = await backend.db.query<{ n: number }>(
      `select count(*)::int as n from public.orders where customer_last_name = 'Flood'`,
    )
    expect(rows[0]!.n).toBe(max)
  })

  it("refuses more orders with one person's email or phone, whatever the connection", async () => {
    const { max } = DEFAULT_RATE_LIMITS.place_order_device
    const customer = {
      email: 'Same.Person@example.com',
      firstName: 'Sam',
      lastName: 'Device',
      phone: '(415) 555-0199',
    }
    // Each order from another address: the per-connection limit is not what refuses.
    const answers = await flood(max + 2, (i) =>
      rpcFrom(backend, `127.0.1.${i + 1}`, 'place_order', {
        p_order: orderInput([{ productId: product.id, quantity: 1 }], {
          customer:
            i === max
              ? // The same email in other letters, with another phone: still the same person.
                { ...customer, email: 'same.person@EXAMPLE.com', phone: '(415) 555-0777' }
              : // The same phone written otherwise, with another email.
                i === max + 1
                ? { ...customer, email: 'other@example.com', phone: '+1 415 555 0199' }
                : customer,
        }),
      }),
    )
    expect(answers.slice(0, max).every((a) => a.body?.status === 'accepted')).toBe(true)
    for (const refused of answers.slice(max)) {
      expect(refused.status).toBe(429)
      expect(refused.retryAfter).toMatch(/^\d+$/)
      expect(refused.body?.message).toMatch(/^Too many orders with these contact details\./)
    }
  })

  it('counts a retried order (its answer was lost) once against the person', async () => {
    const { max } = DEFAULT_RATE_LIMITS.place_order_device
    const customer = {
      email: 'retry@example.com',
      firstName: 'Re',
      lastName: 'Try',
      phone: '(415) 555-0142',
    }
    const first = orderInput([{ productId: product.id, quantity: 1 }], { customer })
    const answers = [
      await rpcFrom(backend, '127.0.3.1', 'place_order', { p_order: first }),
      // The same order again, as an outbox sends it when the first answer never arrived.
      await rpcFrom(backend, '127.0.3.2', 'place_order', { p_order: first }),
      ...(await flood(max - 1, (i) =>
        rpcFrom(backend, `127.0.3.${i + 3}`, 'place_order', {
          p_order: orderInput([{ productId: product.id, quantity: 1 }], { customer }),
        }),
      )),
    ]
    expect(answers.map((a) => a.body?.status)).toEqual(Array(max + 1).fill('accepted'))
    const next = await rpcFrom(backend, '127.0.3.99', 'place_order', {
      p_order: orderInput([{ productId: product.id, quantity: 1 }], { customer }),
    })
    expect(next.status).toBe(429)
  })

  it('refuses a flood of contact messages, per connection and per email', async () => {
    const ip = DEFAULT_RATE_LIMITS.contact_ip.max
    const answers = await flood(30, (i) =>
      rpcFrom(backend, '127.0.0.21', 'submit_contact_message', contactMessage(`a${i}@example.com`)),
    )
    expect(answers.slice(0, ip).map((a) => a.status)).toEqual(Array(ip).fill(200))
    for (const refused of answers.slice(ip)) {
      expect(refused.status).toBe(429)
      expect(Number(refused.retryAfter)).toBeGreaterThan(0)
      expect(refused.body?.message).toMatch(/^Too many messages from this connection\./)
    }

    const device = DEFAULT_RATE_LIMITS.contact_device.max
    const same = await flood(device + 1, (i) =>
      rpcFrom(
        backend,
        `127.0.2.${i + 1}`,
        'submit_contact_message',
        contactMessage('me@example.com'),
      ),
    )
    expect(same.slice(0, device).map((a) => a.status)).toEqual(Array(device).fill(200))
    expect(same[device]!.status).toBe(429)
    expect(same[device]!.body?.message).toMatch(/^Too many messages with these contact details\./)
  })

  it('caps order lookups per connection, found or not', async () => {
    const placed = await rpcFrom(backend, '127.0.0.31', 'place_order', {
      p_order: orderInput([{ productId: product.id, quantity: 1 }], {
        customer: {
          email: 'lookup@example.com',
          firstName: 'Lou',
          lastName: 'Kup',
          phone: '(415) 555-0100',
        },
      }),
    })
    const id = (placed.body as unknown as { order: { id: string } }).order.id
    const { max } = DEFAULT_RATE_LIMITS.track_order_ip
    // Lookups that find the order: SQL records no failure, so only the connection cap refuses.
    const answers = await flood(max + 1, () =>
      rpcFrom(backend, '127.0.0.32', 'track_order', {
        p_number: id.slice(0, 8),
        p_contact: 'lookup@example.com',
      }),
    )
    expect(answers.slice(0, max).every((a) => a.status === 200)).toBe(true)
    expect(answers[max]!.status).toBe(429)
    expect(answers[max]!.body?.message).toMatch(/^Too many order lookups from this connection\./)
    expect(Number(answers[max]!.retryAfter)).toBeGreaterThan(0)
  })

  it("tells when to come back after track_order's own limit on wrong guesses", async () => {
    const answers = await flood(12, (i) =>
      rpcFrom(backend, '127.0.0.41', 'track_order', {
        p_number: `abcdef${String(10 + i)}`,
        p_contact: 'nobody@example.com',
      }),
    )
    const refused = answers.find((a) => a.status === 429)
    expect(refused?.body?.code).toBe('PT429')
    expect(Number(refused?.retryAfter)).toBeGreaterThan(0)
  })
})

describe('HUMO_RATE_LIMITS=off', () => {
  let backend: HumoBackend

  beforeAll(async () => {
    backend = await startHumoBackend({
      port: 0,
      dataDir: null,
      staticDir: null,
      quiet: true,
      rateLimits: parseRateLimits('off'),
    })
  })
  afterAll(async () => {
    await backend?.close()
  })

  it('lets 30 anonymous orders and 30 contact messages in a row through', async () => {
    const product = await createProduct(backend, { quantity: null })
    const orders = await flood(30, () =>
      rpcFrom(backend, '127.0.0.51', 'place_order', {
        p_order: orderInput([{ productId: product.id, quantity: 1 }]),
      }),
    )
    expect(orders.map((a) => a.body?.status)).toEqual(Array(30).fill('accepted'))
    const messages = await flood(30, () =>
      rpcFrom(backend, '127.0.0.51', 'submit_contact_message', contactMessage('me@example.com')),
    )
    expect(messages.map((a) => a.status)).toEqual(Array(30).fill(200))
  })
})
