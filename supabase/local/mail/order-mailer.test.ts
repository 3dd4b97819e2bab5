// @vitest-environment node
// Order emails end to end: orders placed and moved through the real supabase-js against the
// embedded backend, emails sent by nodemailer over a socket to a real SMTP server (smtp-server)
// started here, which also plays a mail server that refuses mail or is down.
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from '../../../tests/fixtures/backend.ts'
import { DEFAULT_OPENING_HOURS } from '../../../src/lib/shop-hours.ts'
import { formatPickupWindow, pickupSlots } from '../../../src/lib/pickup-windows.ts'
import type { WeeklyHours } from '../../../src/lib/shop-hours.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'
import { startSmtpTestServer, type ReceivedEmail, type SmtpTestServer } from './smtp-test-server.ts'

type Client = ReturnType<typeof client>
type QueueRow = { kind: string; status: string; attempts: number; last_error: string | null }

const shortRetries = { retryBaseMs: 100, retryMaxMs: 400, pollMs: 250 }

async function createProduct(backend: HumoBackend, name: string, price = 20): Promise<string> {
  const id = randomUUID()
  await backend.db.query(
    `insert into public.products (id, name, slug, sku, price, quantity_available, is_unlimited_quantity,
                                  is_active, category_id)
     select $1, $2, $3, $4, $5, 100, false, true, c.id from public.categories c where c.slug = 'edibles'`,
    [id, name, `mail-test-${id}`, `MAIL-${id.slice(0, 8)}`, price],
  )
  return id
}

type OrderOptions = {
  fulfilment?: 'delivery' | 'pickup'
  firstName?: string
  lastName?: string
  email?: string
  address1?: string
  pickupWindow?: { start: string; end: string } | null
}

function orderInput(productId: string, o: OrderOptions = {}) {
  const pickup = o.fulfilment === 'pickup'
  return {
    id: randomUUID(),
    secret: randomBytes(32).toString('base64url'),
    customer: {
      email: o.email ?? 'rosa@example.com',
      firstName: o.firstName ?? 'Rosa',
      lastName: o.lastName ?? 'Diaz',
      phone: '(415) 555-0134',
    },
    fulfilment: pickup ? 'pickup' : 'delivery',
    deliveryMethod: 'standard',
    shippingAddress: pickup
      ? null
      : {
          address1: o.address1 ?? '500 Valencia St',
          address2: 'Apt 4',
          city: 'San Francisco',
          state: 'CA',
          zipCode: '94110',
        },
    billingAddress: null,
    paymentMethod: 'cash',
    cardLast4: null,
    ...(pickup ? { pickupWindow: o.pickupWindow ?? null } : {}),
    items: [{ productId, quantity: 2 }],
  }
}

async function placeOrder(anon: Client, input: ReturnType<typeof orderInput>): Promise<string> {
  const response = await anon.rpc('place_order', { p_order: input })
  expect(response.error).toBeNull()
  const result = response.data as { status: string; order?: { id: string }; reasons?: unknown }
  if (result.status !== 'accepted') throw new Error(`refused: ${JSON.stringify(result.reasons)}`)
  return result.order!.id
}

async function move(service: Client, id: string, from: string, to: string): Promise<void> {
  const response = await service.rpc('set_order_status', { p_id: id, p_from: from, p_to: to })
  expect(response.error).toBeNull()
  expect((response.data as { applied: boolean }).applied).toBe(true)
}

async function queue(backend: HumoBackend, orderId: string): Promise<QueueRow[]> {
  const { rows } = await backend.db.query<QueueRow>(
    `select kind, status, attempts, last_error from private.order_emails where order_id = $1 order by id`,
    [orderId],
  )
  return rows
}

async function until<T>(
  read: () => T | Promise<T>,
  ok: (value: T) => boolean,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

async function orderEmailsFlag(backend: HumoBackend): Promise<boolean> {
  const { rows } = await backend.db.query<{ order_emails: boolean }>(
    `select order_emails from public.shop_settings where id = 'shop'`,
  )
  return rows[0]!.order_emails
}

const number = (id: string) => id.slice(0, 8).toUpperCase()
const emailsFor = (smtp: SmtpTestServer, id: string): ReceivedEmail[] =>
  smtp.received.filter((m) => m.subject.includes(`#${number(id)}`))

/** The earliest pickup window the shop's settings allow, with a margin for the test's run. */
async function pickupWindow(backend: HumoBackend): Promise<{ start: string; end: string }> {
  const { rows } = await backend.db.query<{ s: Record<string, unknown> }>(
    `select to_jsonb(s) as s from public.shop_settings s where id = 'shop'`,
  )
  const s = rows[0]!.s
  const hours = Array.isArray(s.opening_hours)
    ? (s.opening_hours as WeeklyHours)
    : DEFAULT_OPENING_HOURS
  const prep = typeof s.pickup_prep_minutes === 'number' ? s.pickup_prep_minutes : 30
  const slot = typeof s.pickup_slot_minutes === 'number' ? s.pickup_slot_minutes : 30
  const first = pickupSlots(hours, { prepMinutes: prep + 15, slotMinutes: slot })[0]!
  return { start: first.start, end: first.end }
}

describe('with an SMTP server configured', () => {
  let smtp: SmtpTestServer
  let backend: HumoBackend
  let anon: Client
  let service: Client
  let product: string

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    backend = await startHumoBackend({
      port: 0,
      dataDir: null,
      staticDir: null,
      quiet: true,
      mail: { smtpUrl: smtp.url, publicUrl: 'https://humo.example', ...shortRetries },
      // More orders with one email than a shopper may place in an hour (rate-limits.ts).
      rateLimits: null,
    })
    anon = client(backend.url, backend.anonKey)
    service = client(backend.url, backend.serviceRoleKey)
    product = await createProduct(backend, 'Mango Gummies', 12.5)
  })

  afterAll(async () => {
    await backend?.close()
    await smtp?.stop()
  })

  it('tells devices that the shop sends order emails', async () => {
    expect(await orderEmailsFlag(backend)).toBe(true)
    const settings = await anon.from('shop_settings').select('*').eq('id', 'shop').single()
    expect((settings.data as { order_emails: boolean }).order_emails).toBe(true)
  })

  it('confirms a delivery order once, then says once that it is out for delivery', async () => {
    const input = orderInput(product)
    const id = await placeOrder(anon, input)
    // The device's outbox may send the same order again: still one confirmation.
    await placeOrder(anon, input)

    const [confirmation] = await until(
      () => emailsFor(smtp, id),
      (m) => m.length >= 1,
    )
    expect(confirmation!.to).toEqual(['rosa@example.com'])
    expect(confirmation!.headers.from).toContain('hello@humo.shop')
    expect(confirmation!.subject).toBe(`Your Humo order #${number(id)}`)
    const text = confirmation!.text
    expect(text).toContain('Hi Rosa,')
    expect(text).toContain(`Thank you for your order #${number(id)}`)
    expect(text).toContain('2 × Mango Gummies — $25.00')
    expect(text).toContain('Subtotal: $25.00')
    expect(text).toContain('Delivery: $9.99')
    // California's taxes line by line (docs/decisions/051-california-taxes-and-daily-limits.md): excise on 25 + 9.99, sales tax on all.
    expect(text).toContain('Cannabis excise tax (15%): $5.25')
    expect(text).toContain('Sales tax (9.75%): $3.92')
    expect(text).not.toContain('Tax: ')
    expect(text).toContain('Total: $44.16')
    expect(text).toContain(
      'The cannabis excise taxes are included in the total amount of this invoice.',
    )
    expect(text).toContain(
      "California's cannabis safety information for consumers: https://cannabis.ca.gov/consumers/",
    )
    expect(text).toContain('500 Valencia St\nApt 4\nSan Francisco, CA 94110')
    expect(text).toContain('Cash on delivery: $44.16, paid when you receive your order.')
    expect(text).toContain('Status: Received')
    expect(text).toContain(`Track your order: https://humo.example/track?number=${number(id)}`)
    expect(text).not.toMatch(/payment (was )?received|pickup/i)
    expect(confirmation!.html).toContain(
      `<a href="https://humo.example/track?number=${number(id)}">Track your order</a>`,
    )

    await move(service, id, 'pending', 'processing')
    await move(service, id, 'processing', 'shipped')
    const notice = (
      await until(
        () => emailsFor(smtp, id),
        (m) => m.length >= 2,
      )
    )[1]!
    expect(notice.subject).toBe(`Your order #${number(id)} is out for delivery`)
    expect(notice.text).toContain(`Your order #${number(id)} is out for delivery.`)
    expect(notice.text).toContain('500 Valencia St')
    expect(notice.text).toContain('Cash on delivery: $44.16')

    // Back and forth on the board: no second notice.
    await move(service, id, 'shipped', 'processing')
    await move(service, id, 'processing', 'shipped')
    await until(
      () => queue(backend, id),
      (rows) => rows.every((r) => r.status === 'sent'),
    )
    await new Promise((done) => setTimeout(done, 500))
    expect(emailsFor(smtp, id)).toHaveLength(2)
    expect((await queue(backend, id)).map((r) => [r.kind, r.status])).toEqual([
      ['confirmation', 'sent'],
      ['out_for_delivery', 'sent'],
    ])
  })

  it('confirms a pickup order with its window and the store, then says it is ready', async () => {
    const window = await pickupWindow(backend)
    const id = await placeOrder(
      anon,
      orderInput(product, { fulfilment: 'pickup', pickupWindow: window }),
    )
    const [confirmation] = await until(
      () => emailsFor(smtp, id),
      (m) => m.length >= 1,
    )
    const text = confirmation!.text
    expect(text).toContain('Pickup')
    expect(text).toContain('Where: Humo, 1820 Sunset Boulevard, Los Angeles, CA 90026')
    expect(text).toContain('Cash at pickup: $31.55, paid when you collect your order.')
    expect(text).not.toMatch(/Delivery|Shipped|2-3 business days/)
    const { rows } = await backend.db.query<{ has: boolean }>(
      `select exists (select 1 from information_schema.columns
                       where table_name = 'orders' and column_name = 'pickup_window_start') as has`,
    )
    if (rows[0]!.has) expect(text).toContain(`Pickup window: ${formatPickupWindow(window)}`)

    await move(service, id, 'pending', 'shipped')
    const notice = (
      await until(
        () => emailsFor(smtp, id),
        (m) => m.length >= 2,
      )
    )[1]!
    expect(notice.subject).toBe(`Your order #${number(id)} is ready for pickup`)
    expect(notice.text).toContain('1820 Sunset Boulevard')
    expect(notice.text).toContain('Total: $31.55')
    expect(notice.text).not.toMatch(/Shipped|Delivery/)
  })

  it('escapes every customer-supplied value in the HTML part', async () => {
    const nasty = await createProduct(backend, '<b>Gummies</b> & "more"')
    const id = await placeOrder(
      anon,
      orderInput(nasty, {
        firstName: '<script>alert("x")</script>',
        lastName: "O'Brien & Sons",
        address1: '<img src=x onerror=alert(1)>',
      }),
    )
    const [email] = await until(
      () => emailsFor(smtp, id),
      (m) => m.length >= 1,
    )
    const html = email!.html
    expect(html).toContain('Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;,')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('&lt;b&gt;Gummies&lt;/b&gt; &amp; &quot;more&quot;')
    expect(html).not.toContain('<script')
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<b>')
    expect(email!.text).toContain('Hi <script>alert("x")</script>,')
  })

  it('keeps an email queued while the mail server refuses it and sends it when it accepts', async () => {
    smtp.mode = 'temporary'
    const refusedBefore = smtp.refused
    const id = await placeOrder(anon, orderInput(product))
    const rows = await until(
      () => queue(backend, id),
      (r) => r[0]?.attempts !== undefined && r[0].attempts >= 2,
    )
    expect(rows[0]).toMatchObject({ kind: 'confirmation', status: 'queued' })
    expect(rows[0]!.last_error).toContain('Try again later')
    expect(smtp.refused).toBeGreaterThan(refusedBefore)
    expect(emailsFor(smtp, id)).toHaveLength(0)

    smtp.mode = 'accept'
    await until(
      () => emailsFor(smtp, id),
      (m) => m.length >= 1,
    )
    // The mail server has the message before the queue records the send: wait for the record.
    const sent = await until(
      () => queue(backend, id),
      (r) => r[0]?.status === 'sent',
    )
    expect(sent[0]).toMatchObject({ status: 'sent', last_error: null })
  })

  it('keeps an email queued while the mail server is down and sends it when it is back', async () => {
    await smtp.stop()
    const id = await placeOrder(anon, orderInput(product))
    const rows = await until(
      () => queue(backend, id),
      (r) => r[0]?.attempts !== undefined && r[0].attempts >= 2,
    )
    expect(rows[0]).toMatchObject({ status: 'queued' })
    expect(rows[0]!.last_error).toMatch(/ECONNECTION|ESOCKET|ECONNREFUSED/)

    await smtp.start()
    await until(
      () => emailsFor(smtp, id),
      (m) => m.length >= 1,
    )
    const sent = await until(
      () => queue(backend, id),
      (r) => r[0]?.status === 'sent',
    )
    expect(sent[0]).toMatchObject({ status: 'sent' })
    expect(emailsFor(smtp, id)).toHaveLength(1)
  })

  it('gives up an address the mail server refuses for good, without retrying it', async () => {
    const id = await placeOrder(anon, orderInput(product, { email: 'nobody@refused.example' }))
    const rows = await until(
      () => queue(backend, id),
      (r) => r[0]?.status === 'failed',
    )
    expect(rows[0]!.attempts).toBe(1)
    expect(rows[0]!.last_error).toContain('550')
  })

  it('does not say an order is ready once it was picked up or cancelled meanwhile', async () => {
    await smtp.stop()
    const id = await placeOrder(anon, orderInput(product))
    await move(service, id, 'pending', 'shipped')
    await move(service, id, 'shipped', 'cancelled')
    await smtp.start()
    const rows = await until(
      () => queue(backend, id),
      (r) => r.length === 2 && r.every((e) => e.status !== 'queued'),
    )
    expect(rows.map((r) => r.status)).toEqual(['skipped', 'skipped'])
    expect(emailsFor(smtp, id)).toHaveLength(0)
  })
})

describe('without an SMTP server', () => {
  it('queues and sends nothing and tells devices so; with one, the flag turns on', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'humo-mail-'))
    const smtp = await startSmtpTestServer()
    try {
      const plain = await startHumoBackend({ port: 0, dataDir, staticDir: null, quiet: true })
      try {
        expect(await orderEmailsFlag(plain)).toBe(false)
        const product = await createProduct(plain, 'Quiet Gummies')
        const id = await placeOrder(client(plain.url, plain.anonKey), orderInput(product))
        await move(client(plain.url, plain.serviceRoleKey), id, 'pending', 'shipped')
        expect(await queue(plain, id)).toEqual([])
      } finally {
        await plain.close()
      }

      const mailing = await startHumoBackend({
        port: 0,
        dataDir,
        staticDir: null,
        quiet: true,
        mail: { smtpUrl: smtp.url, ...shortRetries },
      })
      try {
        expect(await orderEmailsFlag(mailing)).toBe(true)
      } finally {
        await mailing.close()
      }
      // Orders placed without a mail server are not mailed later.
      expect(smtp.received).toHaveLength(0)
    } finally {
      await smtp.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('refuses to start with a mistyped SMTP address', async () => {
    await expect(
      startHumoBackend({
        port: 0,
        dataDir: null,
        staticDir: null,
        quiet: true,
        mail: { smtpUrl: 'mail.example:587' },
      }),
    ).rejects.toThrow(/HUMO_SMTP_URL/)
    await expect(
      startHumoBackend({
        port: 0,
        dataDir: null,
        staticDir: null,
        quiet: true,
        mail: { smtpUrl: 'smtp://127.0.0.1:1', publicUrl: 'humo.shop' },
      }),
    ).rejects.toThrow(/HUMO_PUBLIC_URL/)
  })
})
