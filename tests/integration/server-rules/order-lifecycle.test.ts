// The order after checkout (issue 22, docs/decisions/018-order-after-checkout.md) through the real supabase-js: pickup windows
// inside the shop's hours, payment at the counter, the shopper's view of an order and its
// Realtime topic, the ID check at handoff, Track Order with its rate limit, and the hours and
// pickup rules in shop settings.
import { createHash, randomUUID } from 'node:crypto'
import { TZDate } from '@date-fns/tz'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SHOP } from '../../../src/lib/shop'
import {
  DEFAULT_OPENING_HOURS,
  DEFAULT_PICKUP_RULES,
  SHOP_TIME_ZONE,
  shopClock,
} from '../../../src/lib/shop-hours'
import { pickupSlots, type PickupWindow } from '../../../src/lib/pickup-windows'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  rpc,
  startRulesBackend,
  stockOf,
  type OrderDoc,
  type PlaceOrderResult,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  admin = await createUser(backend, { admin: true, email: 'counter@humo.test' })
})
afterAll(async () => {
  await backend?.close()
})

type HistoryEntry = { status: string; at: string; by?: string | null; idChecked?: boolean }
type LifecycleDoc = Omit<OrderDoc, 'statusHistory'> & {
  paymentMethod: string
  cardLast4: string | null
  fulfilment: string
  pickupWindow: PickupWindow | null
  channel?: string
  statusHistory: HistoryEntry[]
}
type StatusAnswer = {
  applied: boolean
  reason?: string
  message?: string
  order: LifecycleDoc & { _modified: string; _deleted: boolean }
}

const topicOf = (secret: string) =>
  `order:${createHash('sha256').update(secret, 'utf8').digest('hex')}`

/** The earliest window checkout would offer now, with the seeded hours. */
const earliestWindow = (): PickupWindow => {
  const slot = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES)[0]!
  return { start: slot.start, end: slot.end }
}

/** A window on the shop's calendar day `offset` days from today, at local HH:MM for `minutes`. */
function shopWindow(offset: number, hhmm: string, minutes = 30): PickupWindow {
  const today = shopClock(new Date())
  const [h, m] = hhmm.split(':').map(Number) as [number, number]
  const start = new TZDate(today.year, today.month, today.day + offset, h, m, SHOP_TIME_ZONE)
  return {
    start: new Date(start.getTime()).toISOString(),
    end: new Date(start.getTime() + minutes * 60_000).toISOString(),
  }
}

const pickupOrder = (productId: string, pickupWindow: unknown, overrides = {}) => ({
  ...orderInput([{ productId, quantity: 1 }], {
    fulfilment: 'pickup',
    shippingAddress: null,
    paymentMethod: 'cash',
    cardLast4: null,
    ...overrides,
  }),
  pickupWindow,
})

const accepted = (result: PlaceOrderResult): LifecycleDoc => {
  if (result.status !== 'accepted') throw new Error(`refused: ${JSON.stringify(result.reasons)}`)
  return result.order as unknown as LifecycleDoc
}

async function newPickupOrder() {
  const product = await createProduct(backend, { price: 20, quantity: 10 })
  const input = pickupOrder(product.id, earliestWindow())
  const order = accepted(await placeOrder(backend.anon, input))
  return { product, input, order }
}

describe('pickup windows', () => {
  it('accepts a window inside the opening hours and stores it on the order', async () => {
    const product = await createProduct(backend, { quantity: 5 })
    const window = earliestWindow()
    const order = accepted(await placeOrder(backend.anon, pickupOrder(product.id, window)))
    expect(order.pickupWindow).toEqual(window)
    expect(order.pickupWindow!.start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(await stockOf(backend, product.id)).toBe(4)

    const { rows } = await backend.db.query<{ start: Date; end: Date }>(
      'select pickup_window_start as start, pickup_window_end as "end" from public.orders where id = $1',
      [order.id],
    )
    expect(rows[0]!.start.toISOString()).toBe(window.start)
    expect(rows[0]!.end.toISOString()).toBe(window.end)
  })

  it('refuses, changing nothing, a window the shop cannot honour', async () => {
    const product = await createProduct(backend, { quantity: 5 })
    const notOpen =
      'The shop is not open for pickup at that time. Please choose another pickup time.'
    const cases: [string, PickupWindow, string][] = [
      ['at night', shopWindow(1, '03:00'), notOpen],
      ['past closing', shopWindow(1, '19:45'), notOpen],
      ['before opening', shopWindow(1, '08:45'), notOpen],
      [
        'already over',
        shopWindow(-1, '12:00'),
        'That pickup window has passed. Please choose another pickup time.',
      ],
      ['too far ahead', shopWindow(8, '12:00'), 'Pickup can be booked at most 7 days ahead.'],
    ]
    for (const [label, window, message] of cases) {
      const input = pickupOrder(product.id, window)
      const result = await placeOrder(backend.anon, input)
      expect(result, label).toEqual({ status: 'refused', reasons: [{ productId: null, message }] })
      const { rows } = await backend.db.query('select 1 from public.orders where id = $1', [
        input.id,
      ])
      expect(rows, label).toHaveLength(0)
    }
    expect(await stockOf(backend, product.id)).toBe(5)
  })

  it('refuses a window on a day the shop is closed', async () => {
    const product = await createProduct(backend, { quantity: 5 })
    const tomorrow = shopClock(new Date(Date.now() + 24 * 3600_000)).weekday
    const hours = DEFAULT_OPENING_HOURS.map((day, weekday) => (weekday === tomorrow ? null : day))
    await saveSettings({ openingHours: hours })
    try {
      const result = await placeOrder(backend.anon, pickupOrder(product.id, shopWindow(1, '12:00')))
      expect(result).toEqual({
        status: 'refused',
        reasons: [
          {
            productId: null,
            message:
              'The shop is not open for pickup at that time. Please choose another pickup time.',
          },
        ],
      })
      expect(await stockOf(backend, product.id)).toBe(5)
    } finally {
      await saveSettings({ openingHours: DEFAULT_OPENING_HOURS })
    }
  })

  it('needs a well-formed window for pickup (22023) and ignores one sent for delivery', async () => {
    const product = await createProduct(backend, { quantity: 5 })
    const window = earliestWindow()
    for (const bad of [
      undefined,
      null,
      'tomorrow',
      { start: window.start },
      { start: 'now', end: window.end },
      { start: window.start, end: 'infinity' },
      { start: '2026-13-45T25:00:00Z', end: window.end },
      { start: window.end, end: window.start },
      { start: window.start, end: window.start },
    ]) {
      const { error } = await backend.anon.rpc('place_order', {
        p_order: pickupOrder(product.id, bad),
      })
      expect(error, JSON.stringify(bad)).toMatchObject({
        code: '22023',
        message: 'Pickup window must have a start and an end',
      })
    }
    expect(await stockOf(backend, product.id)).toBe(5)

    const delivery = accepted(
      await placeOrder(backend.anon, {
        ...orderInput([{ productId: product.id, quantity: 1 }], { paymentMethod: 'cash' }),
        pickupWindow: shopWindow(1, '03:00'),
      }),
    )
    expect(delivery.pickupWindow).toBeNull()
  })
})

describe('payment at the counter or the door', () => {
  it("takes an older device's card as debit and keeps no card digits", async () => {
    const product = await createProduct(backend, { quantity: 5 })
    const order = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: product.id, quantity: 1 }], {
          paymentMethod: 'card',
          cardLast4: '4242',
        }),
      ),
    )
    expect(order).toMatchObject({ paymentMethod: 'debit', cardLast4: null })
    const { rows } = await backend.db.query<{ payment_method: string; card_last4: null }>(
      'select payment_method, card_last4 from public.orders where id = $1',
      [order.id],
    )
    expect(rows[0]).toEqual({ payment_method: 'debit', card_last4: null })

    const debit = accepted(
      await placeOrder(backend.anon, {
        ...pickupOrder(product.id, earliestWindow()),
        paymentMethod: 'debit',
      }),
    )
    expect(debit.paymentMethod).toBe('debit')
    const { error } = await backend.anon.rpc('place_order', {
      p_order: { ...pickupOrder(product.id, earliestWindow()), paymentMethod: 'bitcoin' },
    })
    expect(error).toMatchObject({ code: '22023', message: 'Payment method must be cash or debit' })
  })
})

describe("the shopper's view of an order", () => {
  it('has the pickup window and the topic, and never the staff emails of its history', async () => {
    const { input, order } = await newPickupOrder()
    expect(order.channel).toBe(topicOf(input.secret))
    const moved = await rpc<StatusAnswer>(admin.client, 'set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'processing',
    })
    expect(moved.data!.applied).toBe(true)
    // The staff's view keeps who did it.
    expect(moved.data!.order.statusHistory.at(-1)).toMatchObject({
      status: 'processing',
      by: 'counter@humo.test',
    })
    expect(moved.data!.order.pickupWindow).toEqual(input.pickupWindow)

    const read = await rpc<LifecycleDoc>(backend.anon, 'get_order', {
      p_id: order.id,
      p_secret: input.secret,
    })
    expect(read.error).toBeNull()
    expect(read.data).toMatchObject({
      id: order.id,
      status: 'processing',
      pickupWindow: input.pickupWindow,
      channel: topicOf(input.secret),
    })
    expect(read.data!.statusHistory.map((h) => Object.keys(h).sort())).toEqual([
      ['at', 'status'],
      ['at', 'status'],
    ])

    const many = await rpc<LifecycleDoc[]>(backend.anon, 'get_orders', {
      p_refs: [{ id: order.id, secret: input.secret }],
    })
    expect(many.data).toEqual([read.data])

    const pulled = await rpc<{ rows: LifecycleDoc[] }>(admin.client, 'pull_orders_admin', {
      max_rows: 2000,
    })
    const row = pulled.data!.rows.find((r) => r.id === order.id)!
    expect(row.pickupWindow).toEqual(input.pickupWindow)
    expect(row.statusHistory.at(-1)!.by).toBe('counter@humo.test')
    expect(row.channel).toBeUndefined()
  })
})

describe('ID check at handoff', () => {
  it('refuses the handoff without "ID checked (21+)" and changes nothing', async () => {
    const { order } = await newPickupOrder()
    await admin.client.rpc('set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'shipped',
    })
    // An older device's call has three arguments.
    const refused = await rpc<StatusAnswer>(admin.client, 'set_order_status', {
      p_id: order.id,
      p_from: 'shipped',
      p_to: 'delivered',
    })
    expect(refused.error).toBeNull()
    expect(refused.data).toMatchObject({
      applied: false,
      reason: 'id_check_required',
      message: 'Confirm "ID checked (21+)" before handing over the order.',
      order: { id: order.id, status: 'shipped', _deleted: false },
    })
    const unchecked = await rpc<StatusAnswer>(admin.client, 'set_order_status', {
      p_id: order.id,
      p_from: 'shipped',
      p_to: 'delivered',
      p_id_checked: false,
    })
    expect(unchecked.data).toMatchObject({ applied: false, reason: 'id_check_required' })
    const { rows } = await backend.db.query<{ status: string; n: number }>(
      'select status, jsonb_array_length(status_history) as n from public.orders where id = $1',
      [order.id],
    )
    expect(rows[0]).toEqual({ status: 'shipped', n: 2 })
  })

  it('records who checked the ID and when', async () => {
    const { order, input } = await newPickupOrder()
    const done = await rpc<StatusAnswer>(admin.client, 'set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'delivered',
      p_id_checked: true,
      p_id_number: 'D1234567',
    })
    expect(done.error).toBeNull()
    expect(done.data!.applied).toBe(true)
    expect(done.data!.order.status).toBe('delivered')
    const entry = done.data!.order.statusHistory.at(-1)!
    expect(entry).toMatchObject({ status: 'delivered', by: 'counter@humo.test', idChecked: true })
    expect(Date.parse(entry.at)).not.toBeNaN()

    // The shopper sees that the ID was checked, not by whom.
    const read = await rpc<LifecycleDoc>(backend.anon, 'get_order', {
      p_id: order.id,
      p_secret: input.secret,
    })
    expect(read.data!.statusHistory.at(-1)).toEqual({
      status: 'delivered',
      at: entry.at,
      idChecked: true,
    })
    // Decision 004's compare-and-set still comes first.
    const stale = await rpc<StatusAnswer>(admin.client, 'set_order_status', {
      p_id: order.id,
      p_from: 'shipped',
      p_to: 'delivered',
      p_id_checked: true,
      p_id_number: 'D1234567',
    })
    expect(stale.data).toMatchObject({ applied: false, order: { status: 'delivered' } })
    expect(stale.data!.reason).toBeUndefined()
  })

  it('refuses a handoff PATCHed through the REST API', async () => {
    const { order } = await newPickupOrder()
    const patched = await admin.client
      .from('orders')
      .update({ status: 'delivered' })
      .eq('id', order.id)
      .select('status')
    expect(patched.error).toMatchObject({
      code: 'P0001',
      message: 'Confirm "ID checked (21+)" before handing over the order.',
    })
    const { rows } = await backend.db.query<{ status: string }>(
      'select status from public.orders where id = $1',
      [order.id],
    )
    expect(rows[0]!.status).toBe('pending')
    // Other moves through REST still work.
    const ok = await admin.client.from('orders').update({ status: 'shipped' }).eq('id', order.id)
    expect(ok.error).toBeNull()
  })
})

describe('the live status topic', () => {
  type Message = {
    topic: string
    event: string
    extension: string
    private: boolean
    payload: {
      id: string
      status: string
      fulfilment: string
      statusHistory: HistoryEntry[]
      updatedAt: string
    }
  }

  async function messagesFor(topic: string): Promise<Message[]> {
    const { rows } = await backend.db.query<Message>(
      'select topic, event, extension, private, payload from realtime.messages where topic = $1 order by seq',
      [topic],
    )
    return rows
  }

  /** What anon may read of realtime.messages with realtime.topic set (as Realtime checks a join). */
  async function anonCanRead(topic: string | null): Promise<number> {
    return backend.db.transaction(async (tx) => {
      await tx.query('set local role anon')
      if (topic !== null) await tx.query(`select set_config('realtime.topic', $1, true)`, [topic])
      const { rows } = await tx.query<{ n: number }>(
        `select count(*)::int as n from realtime.messages where extension = 'broadcast'`,
      )
      return rows[0]!.n
    })
  }

  it('broadcasts each status change on the order topic', async () => {
    const { order, input } = await newPickupOrder()
    const topic = topicOf(input.secret)
    await admin.client.rpc('set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'shipped',
    })
    const messages = await messagesFor(topic)
    expect(messages.map((m) => [m.event, m.extension, m.private, m.payload.status])).toEqual([
      ['status', 'broadcast', true, 'pending'],
      ['status', 'broadcast', true, 'shipped'],
    ])
    const last = messages.at(-1)!.payload
    expect(last).toMatchObject({ id: order.id, status: 'shipped', fulfilment: 'pickup' })
    expect(Date.parse(last.updatedAt)).not.toBeNaN()
    expect(last.statusHistory.map((h) => [h.status, 'by' in h])).toEqual([
      ['pending', false],
      ['shipped', false],
    ])
    // A change that is not a status change says nothing.
    await admin.client.from('orders').update({ tracking_number: 'T-1' }).eq('id', order.id)
    expect(await messagesFor(topic)).toHaveLength(2)
  })

  it('lets anon read the topic only while it names an existing order', async () => {
    const { input } = await newPickupOrder()
    const topic = topicOf(input.secret)
    expect(await anonCanRead(topic)).toBeGreaterThan(0)
    expect(await anonCanRead(null)).toBe(0)
    expect(await anonCanRead(`order:${'0'.repeat(64)}`)).toBe(0)
    expect(await anonCanRead('order:not-a-hash')).toBe(0)
    const direct = await backend.anon.schema('realtime').from('messages').select('topic')
    expect(direct.data ?? []).toEqual([])
  })
})

describe('track_order', () => {
  beforeEach(async () => {
    await backend.db.query('delete from private.track_order_failures')
  })

  type TrackAnswer = { found: boolean; message?: string; order?: LifecycleDoc }
  const notFound = {
    found: false,
    message: "We couldn't find an order with that number and email or phone.",
  }
  const track = (number: string, contact: string) =>
    backend.anon.rpc('track_order', { p_number: number, p_contact: contact })

  async function placed() {
    const product = await createProduct(backend, { quantity: 50 })
    const input = pickupOrder(product.id, earliestWindow(), {
      customer: {
        email: 'Lena.Ortiz@Example.com',
        firstName: 'Lena',
        lastName: 'Ortiz',
        phone: '(415) 555-0177',
      },
    })
    const order = accepted(await placeOrder(backend.anon, input))
    return { order, input, number: order.id.slice(0, 8) }
  }

  it('finds an order by its number and the email or phone it was placed with', async () => {
    const { order, input, number } = await placed()
    for (const [n, contact] of [
      [number, 'lena.ortiz@example.com'],
      [`#${number.toUpperCase()}`, '  LENA.ORTIZ@example.COM '],
      [` #${number} `, '+1 415.555.0177'],
      [number, '4155550177'],
    ] as const) {
      const response = await track(n, contact)
      expect(response.error, `${n} ${contact}`).toBeNull()
      const answer = response.data as TrackAnswer
      expect(answer.found).toBe(true)
      expect(answer.order).toMatchObject({
        id: order.id,
        pickupWindow: input.pickupWindow,
        channel: topicOf(input.secret),
      })
      expect(answer.order!.statusHistory.every((h) => !('by' in h))).toBe(true)
    }
  })

  it('answers a wrong number and a wrong contact the same way', async () => {
    const { number } = await placed()
    const otherNumber = number.startsWith('0') ? `1${number.slice(1)}` : `0${number.slice(1)}`
    const wrongNumber = await track(otherNumber, 'lena.ortiz@example.com')
    const wrongEmail = await track(number, 'someone@example.com')
    const wrongPhone = await track(number, '(415) 555-0178')
    for (const answer of [wrongNumber, wrongEmail, wrongPhone]) {
      expect(answer.error).toBeNull()
      expect(answer.status).toBe(200)
      expect(answer.data).toEqual(notFound)
    }
    const { rows } = await backend.db.query<{ n: number }>(
      'select count(*)::int as n from private.track_order_failures',
    )
    expect(rows[0]!.n).toBe(3)
  })

  it('refuses malformed input with 400', async () => {
    for (const [n, contact, message] of [
      ['1234567', 'a@b.co', 'Enter the 8-character order number from your confirmation'],
      ['zzzzzzzz', 'a@b.co', 'Enter the 8-character order number from your confirmation'],
      ['', 'a@b.co', 'Enter the 8-character order number from your confirmation'],
      ['12345678', '', 'Enter the email or phone number you ordered with'],
      ['12345678', '555-12', 'Enter the email or phone number you ordered with'],
      ['12345678', 'x'.repeat(300), 'Enter the email or phone number you ordered with'],
    ]) {
      const answer = await track(n!, contact!)
      expect(answer.status, `${n} ${contact}`).toBe(400)
      expect(answer.error).toMatchObject({ code: '22023', message })
    }
  })

  it('is rate-limited per order number', async () => {
    const { number } = await placed()
    for (let i = 0; i < 5; i++) {
      const answer = await track(number, `guess${i}@example.com`)
      expect(answer.data).toEqual(notFound)
    }
    // Even the right pair waits now.
    const limited = await track(number, 'lena.ortiz@example.com')
    expect(limited.status).toBe(429)
    expect(limited.error).toMatchObject({
      code: 'PT429',
      message: 'Too many attempts. Please wait a few minutes and try again.',
    })
  })

  it('is rate-limited per caller address', async () => {
    const { number } = await placed()
    for (let i = 0; i < 10; i++) {
      const answer = await track(randomUUID().slice(0, 8), 'lena.ortiz@example.com')
      expect(answer.data).toEqual(notFound)
    }
    const limited = await track(number, 'lena.ortiz@example.com')
    expect(limited.status).toBe(429)
    expect(limited.error?.code).toBe('PT429')
  })

  it("counts a caller by the proxy's address when the stand-in gave none", async () => {
    await backend.db.transaction(async (tx) => {
      await tx.query(`select set_config('request.headers', $1, true)`, [
        JSON.stringify({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' }),
      ])
      await tx.query(`select public.track_order('abcdef12', 'nobody@example.com')`)
    })
    const { rows } = await backend.db.query<{ address: string; order_number: string }>(
      'select address, order_number from private.track_order_failures',
    )
    expect(rows).toEqual([{ address: '203.0.113.9', order_number: 'abcdef12' }])
  })

  it('keeps its failure log out of the API', async () => {
    const { rows } = await backend.db.query<{ readable: boolean }>(
      `select has_schema_privilege('anon', 'private', 'usage')
           or has_table_privilege('anon', 'private.track_order_failures', 'select')
           or has_table_privilege('authenticated', 'private.track_order_failures', 'select')
           as readable`,
    )
    expect(rows[0]!.readable).toBe(false)
  })
})

// shop settings: hours and pickup rules -------------------------------------------------------------

const TODAY = {
  taxRate: 0.08,
  standardShipping: 9.99,
  expressDelivery: 19.99,
  freeShippingThreshold: 50,
  facts: SHOP,
}

type SettingsDoc = {
  opening_hours: unknown[]
  pickup_prep_minutes: number
  pickup_slot_minutes: number
  order_emails: boolean
}

async function saveSettings(change: Record<string, unknown>) {
  const saved = await rpc<SettingsDoc>(admin.client, 'admin_save_shop_settings', {
    p_settings: { ...TODAY, ...change },
  })
  if (saved.error) throw new Error(saved.error.message)
  return saved.data!
}

describe('shop settings: opening hours and pickup rules', () => {
  it("is seeded with SPEC.md's hours and 30-minute windows after 30 minutes", async () => {
    const read = await backend.anon
      .from('shop_settings')
      .select('opening_hours, pickup_prep_minutes, pickup_slot_minutes, order_emails')
      .single()
    expect(read.data).toEqual({
      opening_hours: DEFAULT_OPENING_HOURS,
      pickup_prep_minutes: 30,
      pickup_slot_minutes: 30,
      order_emails: false,
    })
    const pulled = await rpc<{ rows: SettingsDoc[] }>(backend.anon, 'pull_shop_settings', {})
    expect(pulled.data!.rows[0]).toMatchObject(read.data!)
  })

  it('saves hours, preparation time and window length, and keeps what was left out', async () => {
    const hours = [null, ...DEFAULT_OPENING_HOURS.slice(1, 6), { open: '10:30', close: '24:00' }]
    try {
      const saved = await saveSettings({
        openingHours: hours,
        pickupPrepMinutes: 45,
        pickupSlotMinutes: 60,
      })
      expect(saved).toMatchObject({
        opening_hours: hours,
        pickup_prep_minutes: 45,
        pickup_slot_minutes: 60,
      })
      const kept = await saveSettings({ taxRate: 0.09 })
      expect(kept).toMatchObject({
        opening_hours: hours,
        pickup_prep_minutes: 45,
        pickup_slot_minutes: 60,
      })
    } finally {
      await saveSettings({
        openingHours: DEFAULT_OPENING_HOURS,
        pickupPrepMinutes: 30,
        pickupSlotMinutes: 30,
      })
    }
  })

  it('refuses bad hours and rules with a message saying what is wrong', async () => {
    const week = [...DEFAULT_OPENING_HOURS]
    const withMonday = (monday: unknown) => [week[0], monday, ...week.slice(2)]
    const cases: [Record<string, unknown>, string][] = [
      [{ openingHours: week.slice(1) }, 'Opening hours need 7 days, Sunday first'],
      [{ openingHours: 'Mon-Fri 9-5' }, 'Opening hours need 7 days, Sunday first'],
      [
        { openingHours: withMonday({ open: '20:00', close: '09:00' }) },
        'On Monday the shop must open before it closes',
      ],
      [
        { openingHours: withMonday({ open: '9am', close: '17:00' }) },
        'Times must be HH:MM, like 09:00',
      ],
      [
        { openingHours: withMonday({ open: '09:00', close: '25:00' }) },
        'Times must be HH:MM, like 09:00',
      ],
      [
        { openingHours: withMonday('closed') },
        'On Monday the shop needs an opening and a closing time, or to be closed',
      ],
      [{ pickupPrepMinutes: -5 }, 'Preparation time must be between 0 and 720 minutes'],
      [{ pickupPrepMinutes: 721 }, 'Preparation time must be between 0 and 720 minutes'],
      [{ pickupPrepMinutes: '30' }, 'Preparation time must be between 0 and 720 minutes'],
      [
        { pickupSlotMinutes: 25 },
        'Pickup window length must be 15, 20, 30, 45, 60, 90 or 120 minutes',
      ],
    ]
    for (const [change, message] of cases) {
      const { error } = await rpc(admin.client, 'admin_save_shop_settings', {
        p_settings: { ...TODAY, ...change },
      })
      expect(error, message).toMatchObject({ code: '22023', message })
    }
    // The table's checks hold even for an admin's plain update past the RPC.
    for (const change of [
      { opening_hours: [] },
      { opening_hours: withMonday({ open: '18:00', close: '08:00' }) },
      { pickup_prep_minutes: 1000 },
      { pickup_slot_minutes: 7 },
    ]) {
      const direct = await admin.client.from('shop_settings').update(change).eq('id', 'shop')
      expect(direct.error?.code, JSON.stringify(change)).toBe('23514')
    }
    const read = await backend.anon
      .from('shop_settings')
      .select('opening_hours, pickup_prep_minutes')
      .single()
    expect(read.data).toEqual({ opening_hours: DEFAULT_OPENING_HOURS, pickup_prep_minutes: 30 })
  })
})
