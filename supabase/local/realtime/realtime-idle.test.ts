// @vitest-environment node
// Realtime with no socket connected (docs/decisions/045-order-path-costs.md): stored broadcasts and captured changes
// are not read back for nobody (the change queue is emptied at most once a second), and a socket
// that connects afterwards is sent only what was sent after it joined, never what was stored or
// queued while no one listened.
import {
  REALTIME_SUBSCRIBE_STATES,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
} from '@supabase/supabase-js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { clientFor, waitFor, type Client } from '../contract-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

let backend: HumoBackend
let client: Client | null = null

async function subscribed(channel: RealtimeChannel): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    channel.subscribe((status, error) => {
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) resolve()
      else if (status !== REALTIME_SUBSCRIBE_STATES.CLOSED) reject(error ?? new Error(status))
    }),
  )
}

let sku = 0
const addProduct = () => {
  sku++
  return backend.db.query(
    `insert into public.products (name, slug, sku, price) values ($1, $2, $3, 10)`,
    [`Idle ${sku}`, `idle-${sku}`, `IDLE-${sku}`],
  )
}

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true, seed: false })
}, 60_000)

afterAll(async () => {
  await client?.removeAllChannels()
  await backend?.close()
})

const send = (topic: string, payload: unknown) =>
  backend.db.query(`select realtime.send($1::jsonb, 'status', $2, false)`, [
    JSON.stringify(payload),
    topic,
  ])

it('sends a socket that connects later only what was sent after it joined', async () => {
  // Sent and changed while no socket is connected, then given time to be passed over.
  await send('idle-room', { n: 'before' })
  await addProduct()
  await addProduct()
  await new Promise((done) => setTimeout(done, 200))

  client = clientFor(backend, backend.anonKey)
  const received: unknown[] = []
  const changes: string[] = []
  await subscribed(
    client
      .channel('idle-room')
      .on('broadcast', { event: 'status' }, ({ payload }) => received.push(payload)),
  )
  await subscribed(
    client
      .channel('idle-products')
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table: 'products' },
        (change: RealtimePostgresChangesPayload<{ name?: string }>) =>
          changes.push(('name' in change.new && change.new.name) || '?'),
      ),
  )
  await send('idle-room', { n: 'after' })
  await addProduct()
  await waitFor(() => received.length >= 1 && changes.length >= 1)
  await new Promise((done) => setTimeout(done, 100))
  expect(received).toEqual([expect.objectContaining({ n: 'after' })])
  expect(changes).toEqual(['Idle 3'])
})
