// The catalogue's thread through every layer below the UI: PGlite → the embedded backend →
// supabase-js → our RPC pulls → RxDB on Dexie.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { firstValueFrom, filter } from 'rxjs'
import { startTestBackend, type TestBackend } from '../fixtures/backend'
import { createTestDatabase } from '../fixtures/memory-database'
import {
  replicateCatalogue,
  replicateProducts,
} from '../../src/data/replication/catalogue-replication'
import type { RpcClient } from '../../src/data/backend-client'
import type { HumoDatabase } from '../../src/data/database'

let backend: TestBackend
let db: HumoDatabase

beforeAll(async () => {
  backend = await startTestBackend()
  db = (await createTestDatabase()).db
})
afterAll(async () => {
  await db?.close()
  await backend?.close()
})

async function activeProductCount(): Promise<number> {
  const { count, error } = await backend.anon
    .from('products')
    .select('id', { count: 'exact', head: true })
  if (error) throw new Error(error.message)
  return count ?? 0
}

const gone = (id: string) =>
  firstValueFrom(db.products.findOne(id).$.pipe(filter((doc) => doc === null)))

describe('catalogue pull through supabase-js into RxDB', () => {
  it('pulls every active product with its brand, category and media, and the reference tables', async () => {
    const expected = await activeProductCount()
    expect(expected).toBeGreaterThanOrEqual(12)

    const catalogue = replicateCatalogue(backend.anon, db, { live: false, identifier: 'initial' })
    await catalogue.awaitInitial()
    await catalogue.cancel()

    const docs = await db.products.find().exec()
    expect(docs).toHaveLength(expected)
    for (const doc of docs) {
      expect(doc.name).not.toBe('')
      expect(doc.category?.name).toBeTruthy()
      expect(doc.media.length).toBeGreaterThan(0)
    }
    const categories = (await db.categories.find().exec()).map((c) => c.slug)
    for (const slug of ['flower', 'edibles', 'concentrates', 'branded-bags', 'wholesale']) {
      expect(categories).toContain(slug)
      expect(docs.some((d) => d.categorySlug === slug)).toBe(true)
    }
    expect(await db.brands.count().exec()).toBeGreaterThan(3)
    expect(await db.product_types.count().exec()).toBeGreaterThan(3)
  })

  it('removes a deactivated and a deleted product from the device', async () => {
    const replication = replicateProducts(backend.anon, db, { identifier: 'tombstones' })
    await replication.awaitInitialReplication()
    const [deactivated, deleted] = await db.products.find().exec()
    const update = (id: string, change: Record<string, unknown>) =>
      backend.service.from('products').update(change).eq('id', id)
    expect((await update(deactivated!.id, { is_active: false })).error).toBeNull()
    expect((await update(deleted!.id, { _deleted: true })).error).toBeNull()

    replication.nudge()
    await Promise.all([gone(deactivated!.id), gone(deleted!.id)])
    expect(await db.products.findOne(deactivated!.id).exec()).toBeNull()
    expect(await db.products.findOne(deleted!.id).exec()).toBeNull()
    await replication.cancel()
  })

  it('does not skip a row committed behind the checkpoint (out of order)', async () => {
    const replication = replicateProducts(backend.anon, db, { identifier: 'out-of-order' })
    await replication.awaitInitialReplication()
    await replication.awaitInSync()
    const [late, early] = await db.products.find({ sort: [{ id: 'asc' }] }).exec()
    const { rows } = await backend.db.query<{ max: string }>(
      `select to_char(max(_modified) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as max from products`,
    )
    const checkpoint = rows[0]!.max

    // Row "late": its transaction stamped it 5 s before the checkpoint the device already
    // passed, but commits only now. Row "early" is an ordinary change after the checkpoint.
    await backend.db.exec('alter table public.products disable trigger products_set_modified')
    await backend.db.query(
      `update public.products set name = 'Late Commit Kush', _modified = $1::timestamptz - interval '5 seconds' where id = $2`,
      [checkpoint, late!.id],
    )
    await backend.db.exec('alter table public.products enable trigger products_set_modified')
    await backend.service.from('products').update({ name: 'Early Commit Haze' }).eq('id', early!.id)

    replication.nudge()
    await firstValueFrom(
      db.products.findOne(early!.id).$.pipe(filter((d) => d?.name === 'Early Commit Haze')),
    )
    await replication.awaitInSync()
    expect((await db.products.findOne(late!.id).exec())?.name).toBe('Late Commit Kush')
    await replication.cancel()
  })

  it('reads a catalogue written in one go once, not again at the tail of every pull', async () => {
    // A catalogue imported an hour ago, all rows within a second of each other.
    await backend.db.exec('alter table public.products disable trigger products_set_modified')
    await backend.db.exec(`update public.products set _modified = _modified - interval '1 hour'`)
    await backend.db.exec('alter table public.products enable trigger products_set_modified')
    const { rows } = await backend.db.query<{ n: number }>(
      'select count(*)::int as n from public.products',
    )
    const inTable = rows[0]!.n

    // The rows each pull call hands over (the device's transport, watched, not replaced).
    let read = 0
    const watched: RpcClient = {
      rpc: async (fn, args) => {
        const answer = await backend.anon.rpc(fn, args)
        const data = answer.data as { rows?: unknown[]; behind?: unknown[] } | null
        read += (data?.rows?.length ?? 0) + (data?.behind?.length ?? 0)
        return answer
      },
    }
    const device = (await createTestDatabase(undefined, ['products'])).db
    try {
      const replication = replicateProducts(watched, device, { identifier: 'read-once' })
      await replication.awaitInitialReplication()
      expect(await device.products.count().exec()).toBe(await activeProductCount())
      expect(read).toBe(inTable)

      read = 0
      replication.nudge()
      await replication.awaitInSync()
      await new Promise((resolve) => setTimeout(resolve, 200))
      await replication.awaitInSync()
      expect(read).toBe(0)

      // A change still arrives, and only it.
      const [some] = await device.products.find().exec()
      await backend.service
        .from('products')
        .update({ name: 'Fresh Import Kush' })
        .eq('id', some!.id)
      replication.nudge()
      await firstValueFrom(
        device.products.findOne(some!.id).$.pipe(filter((d) => d?.name === 'Fresh Import Kush')),
      )
      await replication.awaitInSync()
      expect(read).toBeLessThanOrEqual(2) // the row, and the tail's look behind it
      await replication.cancel()
    } finally {
      await device.close()
    }
  })
})

describe('live catalogue changes', () => {
  it('brings a change and a deactivation to a shopper without a reload or a nudge', async () => {
    const { watchChanges, CATALOGUE_TABLES } =
      await import('../../src/data/replication/live-changes')
    const replication = replicateProducts(backend.anon, db, { identifier: 'live' })
    await replication.awaitInitialReplication()
    const stop = watchChanges(backend.anon, 'live-test', CATALOGUE_TABLES, () =>
      replication.nudge(),
    )
    const [renamed, hidden] = await db.products.find({ sort: [{ name: 'asc' }] }).exec()
    // Give the subscription a moment to join before the writes.
    await new Promise((r) => setTimeout(r, 500))

    await backend.service
      .from('products')
      .update({ name: 'Live Update Kush' })
      .eq('id', renamed!.id)
    await firstValueFrom(
      db.products.findOne(renamed!.id).$.pipe(filter((d) => d?.name === 'Live Update Kush')),
    )
    await backend.service.from('products').update({ is_active: false }).eq('id', hidden!.id)
    await gone(hidden!.id)
    expect(await db.products.findOne(hidden!.id).exec()).toBeNull()
    stop()
    await replication.cancel()
  })
})

describe("the storefront's anonymous client (PostgREST and Realtime, no auth)", () => {
  it('pulls the catalogue and hears a change live, as supabase-js does for a shopper', async () => {
    // Node 20 has no WebSocket of its own; the browser's is what the app uses.
    vi.stubGlobal('WebSocket', WebSocket)
    const { createRpcClient } = await import('../../src/data/backend-client')
    const { createChannelClient } = await import('../../src/data/realtime-client')
    const { watchChanges, CATALOGUE_TABLES } =
      await import('../../src/data/replication/live-changes')
    const config = { supabaseUrl: backend.url, supabaseAnonKey: backend.anonKey }
    const replication = replicateProducts(createRpcClient(config), db, {
      identifier: 'light-client',
    })
    await replication.awaitInitialReplication()
    expect(await db.products.count().exec()).toBe(await activeProductCount())

    const stop = watchChanges(createChannelClient(config), 'light-client', CATALOGUE_TABLES, () =>
      replication.nudge(),
    )
    const [renamed] = await db.products.find({ sort: [{ name: 'asc' }] }).exec()
    await new Promise((r) => setTimeout(r, 500))
    await backend.service
      .from('products')
      .update({ name: 'Light Client Kush' })
      .eq('id', renamed!.id)
    await firstValueFrom(
      db.products.findOne(renamed!.id).$.pipe(filter((d) => d?.name === 'Light Client Kush')),
    )
    stop()
    await replication.cancel()
    vi.unstubAllGlobals()
  })
})
