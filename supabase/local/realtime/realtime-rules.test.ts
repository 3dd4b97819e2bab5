// @vitest-environment node
// Realtime applies read rules before filters (issue 23, finding 7): a filter must never answer
// yes or no about rows or columns the subscriber may not read — not for DELETE's old row, not for
// columns hidden by column grants — and hostile clients (malformed or huge filters, deeply nested
// or oversized messages, join floods) get error replies while the server keeps answering.
import {
  REALTIME_SUBSCRIBE_STATES,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
} from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { clientFor, signedInUser, waitFor, type Client } from '../contract-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'
import { JOINS_PER_SECOND_PER_ADDRESS, MAX_CHANNELS_PER_SOCKET } from './realtime-server.ts'

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>

let backend: HumoBackend
let admin: Client
let anon: Client
let service: Client
const clients: Client[] = []

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true, seed: false })
  admin = (await signedInUser(backend, 'owner')).client
  anon = clientFor(backend, backend.anonKey)
  service = clientFor(backend, backend.serviceRoleKey)
  clients.push(admin, anon)
}, 60_000)

afterAll(async () => {
  for (const client of clients) await client.removeAllChannels()
  await backend?.close()
})

async function listen(
  client: Client,
  name: string,
  event: 'INSERT' | 'UPDATE' | 'DELETE' | '*',
  table: string,
  filter?: string,
): Promise<Change[]> {
  const events: Change[] = []
  const channel: RealtimeChannel = client
    .channel(name)
    .on(
      'postgres_changes',
      { event, schema: 'public', table, ...(filter ? { filter } : {}) } as never,
      (payload: Change) => events.push(payload),
    )
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

const settle = () => new Promise((done) => setTimeout(done, 150))

describe('read rules before filters', () => {
  it("sends an anonymous subscriber nothing of a deleted staff member's profile", async () => {
    const staff = await signedInUser(backend, 'owner')
    clients.push(staff.client)
    const anonDeletes = await listen(anon, 'anon-staff', 'DELETE', 'user_profiles', 'role=eq.owner')
    const anonAll = await listen(anon, 'anon-staff-all', '*', 'user_profiles')
    const adminDeletes = await listen(
      admin,
      'admin-staff',
      'DELETE',
      'user_profiles',
      'role=eq.owner',
    )
    const ownDeletes = await listen(staff.client, 'own-profile', 'DELETE', 'user_profiles')

    const deleted = await service.from('user_profiles').delete().eq('user_id', staff.userId)
    expect(deleted.error).toBeNull()
    // An admin could read the row and sees it go (primary key only); so does its owner.
    await waitFor(() => adminDeletes.length === 1 && ownDeletes.length === 1)
    expect(adminDeletes[0]!.old).toEqual({ user_id: staff.userId })
    expect(ownDeletes[0]!.old).toEqual({ user_id: staff.userId })
    await settle()
    expect(anonDeletes).toEqual([])
    expect(anonAll).toEqual([])
  })

  it('matches filters only on columns the subscriber may read, and sends only those', async () => {
    // Column grants: anon may read every column of products but sku.
    const { rows } = await backend.db.query<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = 'products' and column_name <> 'sku'`,
    )
    await backend.db.exec(
      `revoke select on public.products from anon;
       grant select (${rows.map((r) => `"${r.name}"`).join(', ')}) on public.products to anon;`,
    )
    try {
      const sku = `HIDDEN-${Date.now()}`
      const inserted = await admin
        .from('products')
        .insert({ name: `Hidden sku ${sku}`, slug: sku.toLowerCase(), sku, price: 5 })
        .select('id')
        .single()
      expect(inserted.error).toBeNull()
      const id = inserted.data!.id

      const bySku = await listen(anon, 'anon-sku-eq', 'UPDATE', 'products', `sku=eq.${sku}`)
      const bySkuNeq = await listen(anon, 'anon-sku-neq', 'UPDATE', 'products', 'sku=neq.nothing')
      const bySkuIn = await listen(anon, 'anon-sku-in', 'UPDATE', 'products', `sku=in.(${sku},x)`)
      const byId = await listen(anon, 'anon-id', 'UPDATE', 'products', `id=eq.${id}`)
      const adminBySku = await listen(admin, 'admin-sku', 'UPDATE', 'products', `sku=eq.${sku}`)

      await admin.from('products').update({ price: 6 }).eq('id', id)
      await waitFor(() => byId.length === 1 && adminBySku.length === 1)
      expect(byId[0]!.new).toMatchObject({ id, price: 6 })
      expect(byId[0]!.new).not.toHaveProperty('sku')
      expect(adminBySku[0]!.new).toMatchObject({ id, sku })
      await settle()
      expect(bySku).toEqual([])
      expect(bySkuNeq).toEqual([])
      expect(bySkuIn).toEqual([])
    } finally {
      await backend.db.exec(`grant select on public.products to anon;`)
    }
  })
})

/** A raw Phoenix 2.0.0 socket as the anonymous key, collecting every frame it receives. */
async function rawSocket(): Promise<{
  ws: WebSocket
  received: unknown[][]
  send: (message: unknown) => void
  replies: () => Map<string, { status: string; response: { reason?: string } }>
}> {
  const ws = new WebSocket(
    `${backend.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${backend.anonKey}&vsn=2.0.0`,
  )
  const received: unknown[][] = []
  ws.on('message', (data: Buffer) => received.push(JSON.parse(data.toString('utf8')) as unknown[]))
  ws.on('error', () => {})
  await new Promise((done) => ws.once('open', done))
  return {
    ws,
    received,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    replies: () =>
      new Map(
        received
          .filter((m) => m[3] === 'phx_reply')
          .map((m) => [m[1] as string, m[4] as { status: string; response: { reason?: string } }]),
      ),
  }
}

const join = (ref: string, bindings: unknown) => [
  ref,
  ref,
  `realtime:bad-${ref}`,
  'phx_join',
  { config: { postgres_changes: bindings } },
]

describe('hostile realtime clients', () => {
  it('answers malformed and oversized bindings with an error reply', async () => {
    const socket = await rawSocket()
    const bad: [string, unknown][] = [
      [
        '1',
        [
          {
            event: '*',
            schema: 'public',
            table: 'products',
            filter: `name=eq.${'x'.repeat(20_000)}`,
          },
        ],
      ],
      ['2', [{ event: '*', schema: 'public', table: 'products', filter: 'secret_column=eq.1' }]],
      [
        '3',
        [
          {
            event: '*',
            schema: 'public',
            table: 'products',
            filter: `id=in.(${Array.from({ length: 500 }, (_, i) => i).join(',')})`,
          },
        ],
      ],
      ['4', [{ event: '*', schema: 'public', table: 'products', filter: { column: 'id' } }]],
      ['5', 'not a list'],
      ['6', [{ event: '*', schema: 'auth', table: 'users' }]],
      ['7', [{ event: '*', schema: 'storage' }]],
      ['8', [{ event: '*', schema: 'humo_realtime', table: 'changes' }]],
      ['9', [{ event: 'TRUNCATE', schema: 'public', table: 'products' }]],
      ['10', [{ event: '*', schema: 'public', table: 'products', filter: 'id=like.%' }]],
      ['11', [{ event: '*', schema: 'public', filter: 'id=eq.1' }]],
      [
        '12',
        Array.from({ length: 500 }, () => ({ event: '*', schema: 'public', table: 'brands' })),
      ],
      ['13', [{ event: '*', schema: 'public', table: 'products', filter: 'id=in.1,2' }]],
    ]
    for (const [ref, bindings] of bad) socket.send(join(ref, bindings))
    socket.send([null, 'hb', 'phoenix', 'heartbeat', {}])
    await waitFor(() => socket.replies().has('hb'))
    const replies = socket.replies()
    for (const [ref] of bad)
      expect(replies.get(ref), `binding ${ref}`).toMatchObject({ status: 'error' })
    expect(replies.get('hb')).toEqual({ status: 'ok', response: {} })
    socket.ws.close()
  })

  it('ignores deeply nested messages and closes on oversized ones, then still serves', async () => {
    const socket = await rawSocket()
    socket.send('['.repeat(100_000) + ']'.repeat(100_000))
    socket.send(
      `["1","1","realtime:deep","phx_join",${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}]`,
    )
    socket.send([null, 'hb', 'phoenix', 'heartbeat', {}])
    await waitFor(() => socket.replies().has('hb'))
    expect(socket.replies().has('1')).toBe(false)

    const closed = new Promise<number>((done) => socket.ws.once('close', (code) => done(code)))
    socket.send(
      JSON.stringify([null, 'big', 'phoenix', 'heartbeat', { pad: 'x'.repeat(2 * 1024 * 1024) }]),
    )
    expect(await closed).toBe(1009)

    const next = await rawSocket()
    next.send([null, 'hb', 'phoenix', 'heartbeat', {}])
    await waitFor(() => next.replies().has('hb'))
    next.ws.close()
  })

  it('refuses joins beyond the channel cap and a flood of messages', async () => {
    const socket = await rawSocket()
    const joins = MAX_CHANNELS_PER_SOCKET + 20
    for (let i = 0; i < joins; i++) {
      socket.send([`${i}`, `${i}`, `realtime:flood-${i}`, 'phx_join', { config: {} }])
    }
    await waitFor(() => socket.replies().size >= joins)
    const statuses = [...socket.replies().values()].map((r) => r.status)
    expect(statuses.filter((s) => s === 'ok').length).toBeLessThanOrEqual(MAX_CHANNELS_PER_SOCKET)
    expect(statuses.filter((s) => s === 'error').length).toBeGreaterThanOrEqual(20)

    // Thousands of messages in a second close the socket; a new one is served.
    const closed = new Promise<number>((done) => socket.ws.once('close', (code) => done(code)))
    for (let i = 0; i < 3_000; i++) socket.send([null, `f${i}`, 'phoenix', 'heartbeat', {}])
    expect(await closed).toBe(1008)
    const next = await rawSocket()
    next.send([null, 'hb', 'phoenix', 'heartbeat', {}])
    await waitFor(() => next.replies().has('hb'))
    next.ws.close()
  })

  it('refuses joins beyond the budget of one address, across its sockets', async () => {
    const sockets = [await rawSocket(), await rawSocket()]
    const each = JOINS_PER_SECOND_PER_ADDRESS / 2 + 10
    for (const [n, socket] of sockets.entries()) {
      for (let i = 0; i < each; i++) {
        socket.send([`${i}`, `${i}`, `realtime:many-${n}-${i}`, 'phx_join', { config: {} }])
      }
    }
    for (const socket of sockets) await waitFor(() => socket.replies().size >= each)
    const refused = sockets
      .flatMap((socket) => [...socket.replies().values()])
      .filter((r) => r.status === 'error' && /Too many joins/.test(r.response.reason ?? ''))
    expect(refused.length).toBeGreaterThanOrEqual(20)
    for (const socket of sockets) socket.ws.close()
  })
})
