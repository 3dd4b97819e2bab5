// @vitest-environment node
// Group commit (docs/decisions/041-group-commit.md): the WAL's fsync at a commit runs off the event loop, shared
// by the commits made meanwhile, and a call resolves only once its commit is on the disk; the
// realtime queue's cleanup, being transient, does not wait for the disk at all.
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase, watchFsyncs } from './database.ts'
import { startHumoBackend } from '../server.ts'

let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'humo-group-commit-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

it('syncs commits made together with fewer fsyncs, each answering after its WAL is synced', async () => {
  const { db } = await openDatabase(join(root, 'db'), { durable: true })
  try {
    const events: string[] = []
    const stop = watchFsyncs(db, (path) => {
      if (path.includes('/pg_wal/')) events.push('WAL synced')
    })
    // Ten commits that each write WAL, sent at once as ten requests would be.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        db
          .query(`select pg_logical_emit_message(true, 'humo-test', $1)`, [`commit ${i}`])
          .then(() => events.push('answered')),
      ),
    )
    stop!()
    const fsyncs = events.filter((event) => event === 'WAL synced').length
    // One synchronous fsync per commit made ten; here they share.
    expect(fsyncs).toBeGreaterThan(0)
    expect(fsyncs).toBeLessThan(10)
    expect(events[0]).toBe('WAL synced')
    expect(events.filter((event) => event === 'answered')).toHaveLength(10)
  } finally {
    await db.close()
  }
}, 120_000)

it('makes one fsync per order: the realtime queue is emptied without waiting for the disk', async () => {
  const backend = await startHumoBackend({
    dataDir: join(root, 'shop'),
    quiet: true,
    rateLimits: null,
    backups: { dir: join(root, 'backups'), keep: 1, daily: false },
  })
  try {
    const { rows } = await backend.db.query<{ id: string }>(
      'select id from public.products where is_active and quantity_available > 10 limit 1',
    )
    let fsyncs = 0
    const stop = watchFsyncs(backend.db, () => fsyncs++)
    const changesLeft = async () =>
      (
        await backend.db.query<{ n: number }>(
          'select count(*)::int as n from humo_realtime.changes',
        )
      ).rows[0]!.n
    for (let i = 0; i < 3; i++) {
      const id = randomUUID()
      const answer = await fetch(`${backend.url}/rest/v1/rpc/place_order`, {
        method: 'POST',
        headers: {
          apikey: backend.anonKey,
          Authorization: `Bearer ${backend.anonKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          p_order: {
            id,
            secret: `group-commit-${id}`,
            customer: {
              email: `group-${id.slice(0, 8)}@example.com`,
              firstName: 'Gus',
              lastName: 'Group',
              phone: '(707) 555-0174',
            },
            fulfilment: 'delivery',
            deliveryMethod: 'standard',
            shippingAddress: {
              address1: '500 Valencia St',
              city: 'San Francisco',
              state: 'CA',
              zipCode: '94110',
            },
            paymentMethod: 'cash',
            items: [{ productId: rows[0]!.id, quantity: 1 }],
          },
        }),
      })
      expect(answer.status).toBe(200)
      expect(((await answer.json()) as { status: string }).status).toBe('accepted')
      // The realtime server drains the queue after the order's commit; wait until it has.
      await expect.poll(changesLeft, { timeout: 10_000 }).toBe(0)
    }
    stop!()
    // The order's commit; the queue's cleanup commit made a second one before.
    expect(fsyncs).toBe(3)
  } finally {
    await backend.close()
  }
}, 120_000)
