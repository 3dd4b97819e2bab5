// Unpaid orders cannot hold stock forever (issue 23, finding 4; docs/decisions/026-rate-limits-and-unaccepted-orders.md): a pending order
// staff never accepted within shop_settings.unaccepted_order_hours opening hours is cancelled by
// cancel_unaccepted_orders() through the staff cancel path (stock back, history, broadcast),
// with a reason its shopper reads; a fresh or accepted order is left alone; admins set the time.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP } from '../../../src/lib/shop'
import { startHumoBackend } from '../../../supabase/local/server'
import { TEST_RATE_LIMITS } from '../../fixtures/backend'
import {
  clientFor,
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  rpc,
  stockOf,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser

beforeAll(async () => {
  const started = await startHumoBackend({
    port: 0,
    dataDir: null,
    staticDir: null,
    quiet: true,
    rateLimits: TEST_RATE_LIMITS,
    // No timer: each test runs the sweep itself.
    unacceptedOrderSweepMs: 0,
  })
  backend = Object.assign(started, { anon: clientFor(started) })
  admin = await createUser(backend, { admin: true })
})
afterAll(async () => {
  await backend?.close()
})

type History = { status: string; at: string; by?: string | null; reason?: string }[]

const REASON =
  /^The shop did not confirm this order within 12 opening hours, so it was cancelled automatically and its items were released\. Nothing was charged\.$/

async function sweep(): Promise<number> {
  const { rows } = await backend.db.query<{ n: number }>(
    'select public.cancel_unaccepted_orders() as n',
  )
  return rows[0]!.n
}

/** Moves an order's placing back in time, as if it had waited that long. */
async function age(orderId: string, interval: string): Promise<void> {
  await backend.db.query(
    `update public.orders set created_at = created_at - $2::interval where id = $1`,
    [orderId, interval],
  )
}

async function statusOf(orderId: string): Promise<{ status: string; history: History }> {
  const { rows } = await backend.db.query<{ status: string; status_history: History }>(
    'select status, status_history from public.orders where id = $1',
    [orderId],
  )
  return { status: rows[0]!.status, history: rows[0]!.status_history }
}

describe('cancel_unaccepted_orders', () => {
  it('cancels an old pending order with a reason, gives its stock back and leaves a fresh one', async () => {
    const scarce = await createProduct(backend, { quantity: 3 })
    const junk = orderInput([{ productId: scarce.id, quantity: 3 }], {
      customer: { email: 'junk@example.com', firstName: 'X', lastName: 'Y', phone: '5555555555' },
    })
    expect((await placeOrder(backend.anon, junk)).status).toBe('accepted')
    expect(await stockOf(backend, scarce.id)).toBe(0)
    // Three weeks unaccepted: more than 12 opening hours whatever the time of day now.
    await age(junk.id, '21 days')

    const other = await createProduct(backend, { quantity: 5 })
    const fresh = orderInput([{ productId: other.id, quantity: 1 }])
    expect((await placeOrder(backend.anon, fresh)).status).toBe('accepted')

    expect(await sweep()).toBe(1)

    const cancelled = await statusOf(junk.id)
    expect(cancelled.status).toBe('cancelled')
    expect(cancelled.history.at(-1)?.status).toBe('cancelled')
    expect(cancelled.history.at(-1)?.reason).toMatch(REASON)
    expect(await stockOf(backend, scarce.id)).toBe(3)
    expect((await statusOf(fresh.id)).status).toBe('pending')
    expect(await stockOf(backend, other.id)).toBe(4)

    // The next shopper can have the units the junk order held.
    const next = orderInput([{ productId: scarce.id, quantity: 3 }])
    expect((await placeOrder(backend.anon, next)).status).toBe('accepted')

    // A second sweep finds nothing more to do (the fresh order is not old enough).
    expect(await sweep()).toBe(0)
  })

  it('shows the shopper the reason on their order and on Track Order', async () => {
    const product = await createProduct(backend, { quantity: 2 })
    const order = orderInput([{ productId: product.id, quantity: 1 }], {
      customer: {
        email: 'reason@example.com',
        firstName: 'Rea',
        lastName: 'Son',
        phone: '(415) 555-0111',
      },
    })
    await placeOrder(backend.anon, order)
    await age(order.id, '30 days')
    await sweep()

    const own = await rpc<{ status: string; statusHistory: History }>(backend.anon, 'get_order', {
      p_id: order.id,
      p_secret: order.secret,
    })
    expect(own.error).toBeNull()
    expect(own.data!.status).toBe('cancelled')
    const last = own.data!.statusHistory.at(-1)!
    expect(last.reason).toMatch(REASON)
    // Still never who changed it.
    expect(last).not.toHaveProperty('by')

    const tracked = await rpc<{ found: boolean; order: { statusHistory: History } }>(
      backend.anon,
      'track_order',
      { p_number: order.id.slice(0, 8), p_contact: 'reason@example.com' },
    )
    expect(tracked.data!.found).toBe(true)
    expect(tracked.data!.order.statusHistory.at(-1)!.reason).toMatch(REASON)
  })

  it('leaves an old order staff accepted, and an old order whose shop has not been open long enough', async () => {
    const product = await createProduct(backend, { quantity: 5 })
    const accepted = orderInput([{ productId: product.id, quantity: 1 }])
    await placeOrder(backend.anon, accepted)
    const moved = await rpc<{ applied: boolean }>(admin.client, 'set_order_status', {
      p_id: accepted.id,
      p_from: 'pending',
      p_to: 'processing',
    })
    expect(moved.data?.applied).toBe(true)
    await age(accepted.id, '30 days')

    // A shop closed all week but Sunday 11-12: two weeks cover 2 opening hours, not 12.
    const week = [{ open: '11:00', close: '12:00' }, null, null, null, null, null, null]
    await backend.db.query(`update public.shop_settings set opening_hours = $1::jsonb`, [
      JSON.stringify(week),
    ])
    const waiting = orderInput([{ productId: product.id, quantity: 1 }])
    try {
      await placeOrder(backend.anon, waiting)
      await age(waiting.id, '14 days')
      expect(await sweep()).toBe(0)
    } finally {
      await backend.db.query(
        `update public.shop_settings set opening_hours = default where id = 'shop'`,
      )
    }
    expect((await statusOf(accepted.id)).status).toBe('processing')
    expect((await statusOf(waiting.id)).status).toBe('pending')
  })

  it("tells the shopper's live page and the admins' devices as a staff cancel does", async () => {
    const product = await createProduct(backend, { quantity: 2 })
    const order = orderInput([{ productId: product.id, quantity: 1 }])
    await placeOrder(backend.anon, order)
    await age(order.id, '30 days')
    const { rows: before } = await backend.db.query<{ modified: string }>(
      `select _modified::text as modified from public.orders where id = $1`,
      [order.id],
    )
    await sweep()

    // The order's private Realtime topic gets the status with the reason (docs/decisions/018-order-after-checkout.md's topic).
    const topic = `order:${createHash('sha256').update(order.secret, 'utf8').digest('hex')}`
    const { rows: messages } = await backend.db.query<{
      payload: { status: string; statusHistory: History }
    }>(`select payload from realtime.messages where topic = $1 order by seq`, [topic])
    const last = messages.at(-1)!.payload
    expect(last.status).toBe('cancelled')
    expect(last.statusHistory.at(-1)?.reason).toMatch(REASON)
    // The admins' devices pull by _modified: the cancel moved it on.
    const { rows: after } = await backend.db.query<{ modified: string }>(
      `select _modified::text as modified from public.orders where id = $1`,
      [order.id],
    )
    expect(after[0]!.modified > before[0]!.modified).toBe(true)
  })

  it('is not callable by shoppers or staff through the API', async () => {
    for (const client of [backend.anon, admin.client]) {
      const { error } = await rpc(client, 'cancel_unaccepted_orders')
      expect(error).not.toBeNull()
    }
  })
})

describe('shop_open_minutes_between', () => {
  const minutes = async (from: string, to: string, hours: unknown) => {
    const { rows } = await backend.db.query<{ m: string }>(
      `select public.shop_open_minutes_between($1::timestamptz, $2::timestamptz,
         coalesce($3::jsonb, (select opening_hours from public.shop_settings)))::text as m`,
      [from, to, hours === undefined ? null : JSON.stringify(hours)],
    )
    return Number(rows[0]!.m)
  }

  it('counts only opening hours: an order at 7:55 PM Friday has had 35 minutes at 10:30 AM Saturday', async () => {
    // 2026-11-27 is a Friday (open 9:00 AM-8:00 PM); Saturday opens at 10:00 AM.
    expect(
      await minutes(
        '2026-11-27 19:55 America/Los_Angeles',
        '2026-11-28 10:30 America/Los_Angeles',
        undefined,
      ),
    ).toBe(35)
    // A whole default week is 11 × 5 + 8 + 6 = 69 hours.
    expect(
      await minutes(
        '2026-11-29 00:00 America/Los_Angeles',
        '2026-12-06 00:00 America/Los_Angeles',
        undefined,
      ),
    ).toBe(69 * 60)
  })

  it('counts clock minutes for a week with no open day', async () => {
    expect(
      await minutes(
        '2026-11-27 19:55 America/Los_Angeles',
        '2026-11-28 10:30 America/Los_Angeles',
        [null, null, null, null, null, null, null],
      ),
    ).toBe(14 * 60 + 35)
  })
})

describe('the time to accept an order in shop settings', () => {
  const TODAY = {
    taxRate: 0.08,
    standardShipping: 9.99,
    expressDelivery: 19.99,
    freeShippingThreshold: 50,
    facts: SHOP,
  }

  it('defaults to 12 opening hours, is saved by an admin and kept when a save leaves it out', async () => {
    const before = await backend.anon
      .from('shop_settings')
      .select('unaccepted_order_hours')
      .single()
    expect(before.data).toEqual({ unaccepted_order_hours: 12 })

    const saved = await rpc<{ unaccepted_order_hours: number; tax_rate: number }>(
      admin.client,
      'admin_save_shop_settings',
      { p_settings: { ...TODAY, taxRate: 0.085, unacceptedOrderHours: 24 } },
    )
    expect(saved.error).toBeNull()
    expect(saved.data).toMatchObject({ unaccepted_order_hours: 24, tax_rate: 0.085 })

    const older = await rpc<{ unaccepted_order_hours: number }>(
      admin.client,
      'admin_save_shop_settings',
      {
        p_settings: TODAY,
      },
    )
    expect(older.data?.unaccepted_order_hours).toBe(24)

    const pulled = await rpc<{ rows: { unaccepted_order_hours: number }[] }>(
      backend.anon,
      'pull_shop_settings',
    )
    expect(pulled.data?.rows[0]?.unaccepted_order_hours).toBe(24)

    await rpc(admin.client, 'admin_save_shop_settings', {
      p_settings: { ...TODAY, unacceptedOrderHours: 12 },
    })
  })

  it('refuses values out of range with a clear message, and shoppers', async () => {
    for (const [value, message] of [
      [0, 'Time to accept an order must be between 1 and 168 opening hours'],
      [169, 'Time to accept an order must be between 1 and 168 opening hours'],
      ['12', 'Time to accept an order must be between 1 and 168 opening hours'],
      [1.5, 'Time to accept an order must be a whole number of hours'],
    ] as const) {
      const { error } = await rpc(admin.client, 'admin_save_shop_settings', {
        p_settings: { ...TODAY, unacceptedOrderHours: value },
      })
      expect(error, String(value)).toMatchObject({ code: '22023', message })
    }
    const shopper = await rpc(backend.anon, 'admin_save_shop_settings', {
      p_settings: { ...TODAY, unacceptedOrderHours: 1 },
    })
    expect(shopper.error?.code).toBe('42501')
    const { data } = await backend.anon
      .from('shop_settings')
      .select('unaccepted_order_hours')
      .single()
    expect(data).toEqual({ unaccepted_order_hours: 12 })
  })
})

describe("the server's timer", () => {
  it('cancels an unaccepted order without anyone asking', async () => {
    const timed = await startHumoBackend({
      port: 0,
      dataDir: null,
      staticDir: null,
      quiet: true,
      unacceptedOrderSweepMs: 50,
    })
    try {
      const product = await createProduct(timed, { quantity: 1 })
      const order = orderInput([{ productId: product.id, quantity: 1 }])
      await placeOrder(clientFor(timed), order)
      await timed.db.query(
        `update public.orders set created_at = created_at - interval '30 days' where id = $1`,
        [order.id],
      )
      await expect
        .poll(async () => {
          const { rows } = await timed.db.query<{ status: string }>(
            'select status from public.orders where id = $1',
            [order.id],
          )
          return rows[0]!.status
        })
        .toBe('cancelled')
      expect(await stockOf(timed, product.id)).toBe(1)
    } finally {
      await timed.close()
    }
  })
})
