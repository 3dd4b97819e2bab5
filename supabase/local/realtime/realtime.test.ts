// @vitest-environment node
// Contract tests of /realtime/v1 with the real realtime-js (Phoenix vsn 2.0.0 over ws):
// postgres_changes for an insert, an update and a soft delete, filters, what RLS lets a
// subscriber see, DELETE events with only the primary key, heartbeats and token updates;
// Broadcast from realtime.send to private channels that RLS on realtime.messages authorizes, and
// clients' own broadcasts on public channels. Also: the caller's address header is the server's.
import type { IncomingMessage } from 'node:http'
import {
  REALTIME_SUBSCRIBE_STATES,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
} from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { clientFor, signedInUser, waitFor, type Client } from '../contract-testing.ts'
import { CLIENT_IP_HEADER, plainHeaders } from '../request/request-context.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>

let backend: HumoBackend
let admin: Client
let anon: Client
const channels: RealtimeChannel[] = []

const others: Client[] = []

// The test's own policy lets anyone read topics named test-allowed-* (bootstrap-realtime.sql
// makes realtime.messages).
const TEST_POLICY_SQL = `
create policy humo_test_topics on realtime.messages for select to anon, authenticated
  using (extension = 'broadcast' and realtime.topic() like 'test-allowed-%');
`

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true, seed: false })
  await backend.db.exec(TEST_POLICY_SQL)
  admin = (await signedInUser(backend, 'owner')).client
  anon = clientFor(backend, backend.anonKey)
}, 60_000)

afterAll(async () => {
  for (const channel of channels) await channel.unsubscribe()
  await admin?.removeAllChannels()
  await anon?.removeAllChannels()
  for (const client of others) await client.removeAllChannels()
  await backend?.close()
})

async function listen(
  client: Client,
  name: string,
  table: string,
  filter?: string,
): Promise<Change[]> {
  const events: Change[] = []
  const channel = client
    .channel(name)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table, ...(filter ? { filter } : {}) },
      (payload: Change) => events.push(payload),
    )
  channels.push(channel)
  await new Promise<void>((resolve, reject) => {
    channel.subscribe((status, error) => {
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) resolve()
      else if (
        status === REALTIME_SUBSCRIBE_STATES.CHANNEL_ERROR ||
        status === REALTIME_SUBSCRIBE_STATES.TIMED_OUT
      )
        reject(error ?? new Error(status))
    })
  })
  return events
}

let sku = 0
const newProduct = () => {
  sku++
  return { name: `Live Product ${sku}`, slug: `live-product-${sku}`, sku: `LIVE-${sku}`, price: 10 }
}

describe('postgres_changes', () => {
  it('delivers an insert, an update and a soft delete to an admin subscriber', async () => {
    const events = await listen(admin, 'admin-products', 'products')
    const inserted = await admin.from('products').insert(newProduct()).select('id').single()
    expect(inserted.error).toBeNull()
    const id = inserted.data!.id
    await admin.from('products').update({ price: 12.5 }).eq('id', id)
    await admin.from('products').update({ _deleted: true }).eq('id', id)
    await waitFor(() => events.filter((e) => (e.new as { id?: string }).id === id).length === 3)

    const mine = events.filter((e) => (e.new as { id?: string }).id === id)
    expect(mine.map((e) => e.eventType)).toEqual(['INSERT', 'UPDATE', 'UPDATE'])
    expect(mine[0]).toMatchObject({
      schema: 'public',
      table: 'products',
      commit_timestamp: expect.any(String) as string,
      errors: null,
      new: {
        id,
        name: expect.stringMatching(/^Live Product/) as string,
        price: 10,
        _deleted: false,
      },
      old: {},
    })
    expect(mine[1]!.new).toMatchObject({ price: 12.5 })
    expect(mine[1]!.old).toEqual({ id })
    expect(mine[2]!.new).toMatchObject({ id, _deleted: true })
  })

  it('filters by eq and sends DELETE events with only the primary key', async () => {
    const product = await admin.from('products').insert(newProduct()).select('id').single()
    const id = product.data!.id
    const events = await listen(admin, 'one-product', 'product_effects', `product_id=eq.${id}`)
    const other = await admin.from('products').insert(newProduct()).select('id').single()
    await admin
      .from('product_effects')
      .insert({ product_id: other.data!.id, effect_name: 'Sleepy' })
    const effect = await admin
      .from('product_effects')
      .insert({ product_id: id, effect_name: 'Happy' })
      .select('id')
      .single()
    await admin.from('product_effects').delete().eq('id', effect.data!.id)
    await waitFor(() => events.length >= 2)
    await new Promise((done) => setTimeout(done, 100))
    expect(events.map((e) => e.eventType)).toEqual(['INSERT', 'DELETE'])
    expect(events[0]!.new).toMatchObject({ product_id: id, effect_name: 'Happy' })
    expect(events[1]!.old).toEqual({ id: effect.data!.id })
  })

  it('sends anon only the changes of rows anon may read', async () => {
    const events = await listen(anon, 'anon-products', 'products')
    const hidden = await admin
      .from('products')
      .insert({ ...newProduct(), is_active: false })
      .select('id')
      .single()
    const shown = await admin.from('products').insert(newProduct()).select('id').single()
    await waitFor(() => events.some((e) => (e.new as { id?: string }).id === shown.data!.id))
    expect(events.some((e) => (e.new as { id?: string }).id === hidden.data!.id)).toBe(false)
  })

  it('answers heartbeats, access_token updates and refuses unknown tables', async () => {
    const ws = new WebSocket(
      `${backend.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${backend.anonKey}&vsn=2.0.0`,
    )
    const received: unknown[][] = []
    ws.on('message', (data: Buffer) =>
      received.push(JSON.parse(data.toString('utf8')) as unknown[]),
    )
    await new Promise((done) => ws.once('open', done))
    const send = (message: unknown[]) => ws.send(JSON.stringify(message))
    send([null, '1', 'phoenix', 'heartbeat', {}])
    send([
      '2',
      '2',
      'realtime:raw',
      'phx_join',
      { config: { postgres_changes: [{ event: '*', schema: 'public', table: 'no_such_table' }] } },
    ])
    send([
      '3',
      '3',
      'realtime:ok',
      'phx_join',
      { config: { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'brands' }] } },
    ])
    send(['3', '4', 'realtime:ok', 'access_token', { access_token: backend.anonKey }])
    send(['3', '5', 'realtime:ok', 'access_token', { access_token: 'garbage' }])
    await waitFor(() => received.filter((m) => m[3] === 'phx_reply').length >= 5)
    const replies = Object.fromEntries(
      received.filter((m) => m[3] === 'phx_reply').map((m) => [m[1] as string, m[4]]),
    )
    expect(replies['1']).toEqual({ status: 'ok', response: {} })
    expect(replies['2']).toMatchObject({ status: 'error' })
    expect(replies['3']).toMatchObject({
      status: 'ok',
      response: {
        postgres_changes: [
          { id: expect.any(Number) as number, event: 'INSERT', schema: 'public', table: 'brands' },
        ],
      },
    })
    expect(replies['4']).toMatchObject({ status: 'ok' })
    expect(replies['5']).toMatchObject({ status: 'error' })
    expect(received.some((m) => m[2] === 'realtime:ok' && m[3] === 'phx_close')).toBe(true)
    ws.close()

    const refused = new WebSocket(
      `${backend.url.replace('http', 'ws')}/realtime/v1/websocket?vsn=2.0.0`,
    )
    const status = await new Promise<number>((done) =>
      refused.once('unexpected-response', (_req, res) => done(res.statusCode ?? 0)),
    )
    expect(status).toBe(403)
  })
})

interface Broadcast {
  type: string
  event: string
  payload: Record<string, unknown>
}

/** Subscribes a channel listening to every broadcast; resolves with its status and what it got. */
async function broadcastChannel(
  client: Client,
  topic: string,
  config: { private?: boolean; broadcast?: { self?: boolean; ack?: boolean } },
): Promise<{ channel: RealtimeChannel; received: Broadcast[]; status: string; error?: Error }> {
  const received: Broadcast[] = []
  const channel = client
    .channel(topic, { config })
    .on('broadcast', { event: '*' }, (message) => received.push(message as Broadcast))
  channels.push(channel)
  const { status, error } = await new Promise<{ status: string; error?: Error }>((resolve) => {
    channel.subscribe((state, err) => {
      if (state !== REALTIME_SUBSCRIBE_STATES.CLOSED) resolve({ status: state, error: err })
    })
  })
  return { channel, received, status, ...(error ? { error } : {}) }
}

const send = (topic: string, event: string, payload: unknown, isPrivate = true) =>
  backend.db.query(`select realtime.send($1::jsonb, $2, $3, $4)`, [
    JSON.stringify(payload),
    event,
    topic,
    isPrivate,
  ])

const newClient = () => {
  const client = clientFor(backend, backend.anonKey)
  others.push(client)
  return client
}

describe('broadcast', () => {
  it('delivers realtime.send to a private channel the policy allows', async () => {
    const statuses: unknown[] = []
    const channel = anon
      .channel('test-allowed-order', { config: { private: true } })
      .on('broadcast', { event: 'status' }, ({ payload }) => statuses.push(payload))
    channels.push(channel)
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status, error) => {
        if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) resolve()
        else if (status !== REALTIME_SUBSCRIBE_STATES.CLOSED) reject(error ?? new Error(status))
      }),
    )
    await send('test-allowed-order', 'other', { ignored: true })
    await send('test-allowed-order', 'status', { orderId: 'o-1', status: 'shipped' })
    await waitFor(() => statuses.length === 1)
    expect(statuses[0]).toEqual({
      orderId: 'o-1',
      status: 'shipped',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
    })
  })

  it('refuses a private channel the policy denies, which then receives nothing', async () => {
    const denied = await broadcastChannel(newClient(), 'order:denied', { private: true })
    expect(denied.status).toBe(REALTIME_SUBSCRIBE_STATES.CHANNEL_ERROR)
    expect(denied.error?.message).toContain(
      'Unauthorized: You do not have permissions to read from this Channel topic: order:denied',
    )
    const marker = await broadcastChannel(newClient(), 'test-allowed-marker', { private: true })
    expect(marker.status).toBe(REALTIME_SUBSCRIBE_STATES.SUBSCRIBED)
    await send('order:denied', 'status', { status: 'shipped' })
    await send('test-allowed-marker', 'status', { done: true })
    await waitFor(() => marker.received.length === 1)
    expect(denied.received).toEqual([])
    await denied.channel.unsubscribe()
  })

  it('keeps private messages from public channels and public ones from private channels', async () => {
    const publicSide = await broadcastChannel(newClient(), 'test-allowed-mixed', {})
    const privateSide = await broadcastChannel(newClient(), 'test-allowed-mixed', {
      private: true,
    })
    expect([publicSide.status, privateSide.status]).toEqual(['SUBSCRIBED', 'SUBSCRIBED'])
    await send('test-allowed-mixed', 'status', { secret: true }, true)
    await send('test-allowed-mixed', 'status', { open: true }, false)
    await waitFor(() => publicSide.received.length === 1 && privateSide.received.length === 1)
    await new Promise((done) => setTimeout(done, 50))
    expect(publicSide.received.map((m) => m.payload)).toEqual([
      expect.objectContaining({ open: true }),
    ])
    expect(privateSide.received.map((m) => m.payload)).toEqual([
      expect.objectContaining({ secret: true }),
    ])
  })

  it("relays a client's broadcast on a public channel, to itself only with self", async () => {
    const a = await broadcastChannel(newClient(), 'room-relay', {})
    const b = await broadcastChannel(newClient(), 'room-relay', {})
    const c = await broadcastChannel(newClient(), 'room-relay', {
      broadcast: { self: true, ack: true },
    })
    expect(
      await a.channel.send({ type: 'broadcast', event: 'hello', payload: { from: 'a' } }),
    ).toBe('ok')
    await waitFor(() => b.received.length === 1 && c.received.length === 1)
    expect(b.received[0]).toMatchObject({
      type: 'broadcast',
      event: 'hello',
      payload: { from: 'a' },
    })
    // C acknowledges and hears itself; by the time A hears C, A would have heard itself.
    expect(
      await c.channel.send({ type: 'broadcast', event: 'hello', payload: { from: 'c' } }),
    ).toBe('ok')
    await waitFor(() => a.received.length === 1 && c.received.length === 2)
    expect(a.received.map((m) => m.payload)).toEqual([{ from: 'c' }])
    expect(c.received.map((m) => m.payload)).toEqual([{ from: 'a' }, { from: 'c' }])
    expect(b.received.map((m) => m.payload)).toEqual([{ from: 'a' }, { from: 'c' }])
  })

  it("sends an order's status changes to its private order channel, and only there", async () => {
    const { rows } = await backend.db.query<{ id: string; topic: string }>(
      `insert into public.orders (id, secret_hash, customer_email, customer_first_name,
         customer_last_name, customer_phone, fulfilment, payment_method, subtotal, tax, shipping, total)
       values (gen_random_uuid(), encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'),
         'live@example.com', 'Live', 'Shopper', '5550100', 'pickup', 'cash', 10, 1, 0, 11)
       returning id::text as id, 'order:' || secret_hash as topic`,
    )
    const order = rows[0]!
    const shopper = await broadcastChannel(newClient(), order.topic, { private: true })
    expect(shopper.status).toBe(REALTIME_SUBSCRIBE_STATES.SUBSCRIBED)
    const eavesdropper = await broadcastChannel(newClient(), order.topic, {})
    const guesser = await broadcastChannel(newClient(), `order:${'0'.repeat(64)}`, {
      private: true,
    })
    expect(guesser.status).toBe(REALTIME_SUBSCRIBE_STATES.CHANNEL_ERROR)
    await guesser.channel.unsubscribe()

    await backend.db.query(`update public.orders set status = 'processing' where id = $1`, [
      order.id,
    ])
    await waitFor(() => shopper.received.length === 1)
    expect(shopper.received[0]).toMatchObject({
      type: 'broadcast',
      event: 'status',
      payload: { id: order.id, status: 'processing' },
    })
    expect(eavesdropper.received).toEqual([])
  })

  it('relays binary payloads and survives malformed broadcast frames', async () => {
    const sender = await broadcastChannel(newClient(), 'room-binary', {})
    const receiver = await broadcastChannel(newClient(), 'room-binary', {})
    const ws = new WebSocket(
      `${backend.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${backend.anonKey}&vsn=2.0.0`,
    )
    await new Promise((done) => ws.once('open', done))
    ws.send(JSON.stringify(['1', '1', 'realtime:room-binary', 'phx_join', { config: 'nonsense' }]))
    ws.send(Buffer.from([3, 200, 200, 200, 200, 200, 1])) // lengths beyond the frame
    ws.send(Buffer.from([9, 1, 2, 3]))
    ws.send(JSON.stringify(['1', '2', 'realtime:room-binary', 'broadcast', { event: 42 }]))
    const replies: unknown[] = []
    ws.on('message', (data: Buffer) => replies.push(JSON.parse(data.toString('utf8'))))
    await waitFor(() => replies.length >= 2)
    expect(replies[0]).toEqual([
      '1',
      '1',
      'realtime:room-binary',
      'phx_reply',
      expect.objectContaining({ status: 'ok' }),
    ])
    expect(replies[1]).toEqual([
      '1',
      '2',
      'realtime:room-binary',
      'phx_reply',
      expect.objectContaining({ status: 'error' }),
    ])
    ws.close()

    const bytes = new Uint8Array([1, 2, 3, 250])
    await sender.channel.send({ type: 'broadcast', event: 'blob', payload: bytes.buffer })
    await waitFor(() => receiver.received.length === 1)
    expect(receiver.received[0]!.event).toBe('blob')
    expect([...new Uint8Array(receiver.received[0]!.payload as unknown as ArrayBuffer)]).toEqual([
      1, 2, 3, 250,
    ])
  })

  it("refuses a client's broadcast on a private channel it may only read", async () => {
    const reader = await broadcastChannel(newClient(), 'test-allowed-readonly', {
      private: true,
      broadcast: { ack: true, self: true },
    })
    expect(reader.status).toBe(REALTIME_SUBSCRIBE_STATES.SUBSCRIBED)
    expect(
      await reader.channel.send({ type: 'broadcast', event: 'status', payload: { forged: true } }),
    ).toBe('error')
    expect(reader.received).toEqual([])
  })
})

describe('the client address header', () => {
  it('is always the socket peer, whatever the client sent', () => {
    const req = {
      headers: { [CLIENT_IP_HEADER]: '203.0.113.9', authorization: 'Bearer x', accept: '*/*' },
      socket: { remoteAddress: '198.51.100.7' },
    } as unknown as IncomingMessage
    expect(plainHeaders(req)).toEqual({ [CLIENT_IP_HEADER]: '198.51.100.7', accept: '*/*' })
  })

  it('reaches SQL as the connection address through the REST API', async () => {
    await backend.db.exec(`
      create or replace function public.humo_test_headers() returns jsonb language sql stable
      as $$ select current_setting('request.headers', true)::jsonb $$;
      grant execute on function public.humo_test_headers() to anon;
      notify pgrst, 'reload schema';
    `)
    const call = () =>
      fetch(`${backend.url}/rest/v1/rpc/humo_test_headers`, {
        method: 'POST',
        headers: {
          apikey: backend.anonKey,
          'content-type': 'application/json',
          [CLIENT_IP_HEADER]: '203.0.113.9',
        },
        body: '{}',
      })
    let response = await call()
    for (let i = 0; i < 50 && response.status === 404; i++) {
      await new Promise((done) => setTimeout(done, 50))
      response = await call()
    }
    expect(response.status).toBe(200)
    const headers = (await response.json()) as Record<string, string>
    expect(headers[CLIENT_IP_HEADER]).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/)
  })
})
