// @vitest-environment node
// Durable commits (docs/decisions/034-durable-commits.md): a shop in a folder syncs each commit's WAL to the disk
// before the request that made it answers, and a server killed with -9 in the middle of a stream
// of orders keeps every order it acknowledged.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { fsyncCount, openDatabase, watchFsyncs } from './database.ts'
import { createJwtKeys } from '../auth/jwt-keys.ts'
import { startHumoBackend } from '../server.ts'

const repo = fileURLToPath(new URL('../../..', import.meta.url))
let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'humo-durability-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** POST /rest/v1/rpc/place_order as a shopper, as the app sends it. */
function placeOrder(url: string, anonKey: string, productId: string, id = randomUUID()) {
  const n = id.slice(0, 8)
  return fetch(`${url}/rest/v1/rpc/place_order`, {
    method: 'POST',
    headers: {
      apikey: anonKey,
      Authorization: `Bearer ${anonKey}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      p_order: {
        id,
        secret: `durability-${id}`,
        customer: {
          email: `durable-${n}@example.com`,
          firstName: 'Dora',
          lastName: `Durable ${n}`,
          phone: '(707) 555-0173',
        },
        fulfilment: 'delivery',
        deliveryMethod: 'standard',
        shippingAddress: {
          address1: '500 Valencia St',
          city: 'San Francisco',
          state: 'CA',
          zipCode: '94110',
        },
        billingAddress: null,
        paymentMethod: 'card',
        cardLast4: '4242',
        items: [{ productId, quantity: 1 }],
      },
    }),
  })
}

/** A uuid as Postgres stores it in a row (16 bytes), to find the order in the WAL. */
const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex')

it('syncs the WAL holding a new order to the disk before place_order answers', async () => {
  const dataDir = join(root, 'shop')
  const backend = await startHumoBackend({
    dataDir,
    quiet: true,
    rateLimits: null,
    backups: { dir: join(root, 'backups'), keep: 1, daily: false },
  })
  try {
    const settings = await backend.db.query<{ name: string; setting: string }>(
      `select name, setting from pg_settings
        where name in ('fsync', 'synchronous_commit', 'wal_sync_method') order by name`,
    )
    expect(settings.rows).toEqual([
      { name: 'fsync', setting: 'on' },
      { name: 'synchronous_commit', setting: 'on' },
      { name: 'wal_sync_method', setting: 'fsync' },
    ])
    const { rows } = await backend.db.query<{ id: string }>(
      'select id from public.products where is_active and quantity_available > 10 limit 1',
    )
    const orderId = randomUUID()
    const events: string[] = []
    // At each fsync, what the WAL file holds on the disk: the order must be in one synced file
    // before the answer comes back.
    const stop = watchFsyncs(backend.db, (path) => {
      if (!path.includes('/pg_wal/')) return events.push(`fsync ${path}`)
      const file = join(dataDir, 'db', path.slice(path.indexOf('/pg_wal/')))
      const holdsOrder = readFileSync(file).includes(uuidBytes(orderId))
      events.push(holdsOrder ? 'WAL with the order synced' : `fsync ${path}`)
    })
    expect(stop).not.toBeNull()
    const answer = await placeOrder(backend.url, backend.anonKey, rows[0]!.id, orderId)
    events.push(`answer ${answer.status}`)
    stop!()
    expect(events).toContain('WAL with the order synced')
    expect(events.indexOf('WAL with the order synced')).toBeLessThan(events.indexOf('answer 200'))
  } finally {
    await backend.close()
  }
}, 120_000)

it('keeps every acknowledged order when the server is killed with -9 mid-stream', async () => {
  const dataDir = join(root, 'killed')
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'supabase/local/main.ts')], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: '0',
      HUMO_DATA_DIR: dataDir,
      HUMO_RATE_LIMITS: 'off',
      HUMO_BACKUPS: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<NodeJS.Signals | null>((done) =>
    child.on('exit', (_code, signal) => done(signal)),
  )
  const acknowledged: string[] = []
  try {
    const url = await new Promise<string>((done, fail) => {
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const port = /Humo is running at http:\/\/localhost:(\d+)/.exec(out)?.[1]
        if (port) done(`http://127.0.0.1:${port}`)
      })
      child.on('exit', () => fail(new Error(`the server stopped before it ran: ${out}`)))
    })
    const { anonKey } = await createJwtKeys(
      (await readFile(join(dataDir, 'jwt-secret'), 'utf8')).trim(),
    )
    const products = (await (
      await fetch(
        `${url}/rest/v1/products?select=id&is_active=eq.true&quantity_available=gt.20&limit=8`,
        { headers: { apikey: anonKey } },
      )
    ).json()) as { id: string }[]
    expect(products.length).toBeGreaterThan(0)
    // Four shoppers order one after another; the kill comes while orders are in flight.
    let killed = false
    const shopper = async (n: number) => {
      for (let i = 0; !killed; i++) {
        const id = randomUUID()
        const answer = await placeOrder(
          url,
          anonKey,
          products[(n + i) % products.length]!.id,
          id,
        ).catch(() => null)
        if (answer?.ok) acknowledged.push(id)
        if (acknowledged.length >= 40 && !killed) {
          killed = true
          child.kill('SIGKILL')
        }
      }
    }
    await Promise.all([0, 1, 2, 3].map(shopper))
    expect(await exited).toBe('SIGKILL')
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }

  const { db } = await openDatabase(join(dataDir, 'db'))
  try {
    expect(fsyncCount(db)).toBeGreaterThan(0)
    const { rows } = await db.query<{ id: string }>(
      'select id from public.orders where id = any($1::uuid[])',
      [acknowledged],
    )
    expect(rows.map((r) => r.id).sort()).toEqual([...acknowledged].sort())
  } finally {
    await db.close()
  }
}, 180_000)
