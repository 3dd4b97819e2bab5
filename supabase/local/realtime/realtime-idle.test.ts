// @vitest-environment node
// Realtime with no socket connected (docs/decisions/045): stored broadcasts and captured changes
// are not read back for nobody, and a socket that connects afterwards is sent only what was sent
// after it joined, never what was stored while no one listened.
import { REALTIME_SUBSCRIBE_STATES, type RealtimeChannel } from '@supabase/supabase-js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { clientFor, waitFor, type Client } from '../contract-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

let backend: HumoBackend
let client: Client | null = null

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

it('sends a socket that connects later only the broadcasts sent after it joined', async () => {
  // Sent while no socket is connected, then given time to be passed over.
  await send('idle-room', { n: 'before' })
  await new Promise((done) => setTimeout(done, 200))
  const { rows } = await backend.db.query<{ queued: number }>(
    `select count(*)::int as queued from humo_realtime.changes`,
  )
  expect(rows[0]!.queued).toBe(0)

  client = clientFor(backend, backend.anonKey)
  const received: unknown[] = []
  const channel: RealtimeChannel = client
    .channel('idle-room')
    .on('broadcast', { event: 'status' }, ({ payload }) => received.push(payload))
  await new Promise<void>((resolve, reject) =>
    channel.subscribe((status, error) => {
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) resolve()
      else if (status !== REALTIME_SUBSCRIBE_STATES.CLOSED) reject(error ?? new Error(status))
    }),
  )
  await send('idle-room', { n: 'after' })
  await waitFor(() => received.length >= 1)
  await new Promise((done) => setTimeout(done, 100))
  expect(received).toEqual([expect.objectContaining({ n: 'after' })])
})
