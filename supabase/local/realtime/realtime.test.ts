// @vitest-environment node
// Contract tests of /realtime/v1 with the real realtime-js (Phoenix vsn 2.0.0 over ws):
// postgres_changes for an insert, an update and a soft delete, filters, what RLS lets a
// subscriber see, DELETE events with only the primary key, heartbeats and token updates.
import {
  REALTIME_SUBSCRIBE_STATES,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
} from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { clientFor, signedInUser, waitFor, type Client } from '../contract-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>

let backend: HumoBackend
let admin: Client
let anon: Client
const channels: RealtimeChannel[] = []

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true, seed: false })
  admin = (await signedInUser(backend, 'admin')).client
  anon = clientFor(backend, backend.anonKey)
}, 60_000)

afterAll(async () => {
  for (const channel of channels) await channel.unsubscribe()
  await admin?.removeAllChannels()
  await anon?.removeAllChannels()
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
