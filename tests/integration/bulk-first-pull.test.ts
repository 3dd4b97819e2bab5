// A first pull into an empty device writes its full pages itself, outside RxDB's replication
// protocol (docs/decisions/035-first-sync-breakdown.md), and must keep the sync contract: every product arrives at its server
// version, and the replication goes on from there (changes, tombstones, a nudge) as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filter, firstValueFrom } from 'rxjs'
import type { RxStorage, RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb'
import { startTestBackend, type TestBackend } from '../fixtures/backend'
import { createTestDatabase, testStorage } from '../fixtures/memory-database'
import { createHumoDatabase } from '../../src/data/database'
import type { RpcAnswer, RpcClient } from '../../src/data/backend-client'
import { replicateProducts } from '../../src/data/replication/catalogue-replication'
import { productRowToDoc, type ProductRow } from '../../src/data/replication/product-row'
import { replicateByRpc } from '../../src/data/replication/rpc-pull'
import type { ProductDoc } from '../../src/data/schemas/product.schema'

let backend: TestBackend

beforeAll(async () => {
  backend = await startTestBackend()
})
afterAll(async () => {
  await backend?.close()
})

/** The anonymous pull's rows, the server's versions of what a device should hold. */
async function serverProducts(): Promise<Map<string, string>> {
  const versions = new Map<string, string>()
  type Row = { id: string; _modified: string; _deleted: boolean }
  let after: { after_modified: string; after_id: string } | null = null
  for (;;) {
    const answer = await backend.anon.rpc('pull_products', { ...after, max_rows: 1000 })
    if (answer.error) throw new Error(answer.error.message)
    const rows: Row[] = (answer.data as { rows: Row[] }).rows
    for (const row of rows) {
      if (row._deleted) versions.delete(row.id)
      else versions.set(row.id, row._modified)
    }
    const last: Row | undefined = rows.at(-1)
    if (!last || rows.length < 1000) return versions
    after = { after_modified: last._modified, after_id: last.id }
  }
}

/** The tests' storage, counting the documents each collection's storage bulkWrite is given. */
function countingStorage(written: Map<string, number>): RxStorage<unknown, unknown> {
  const inner = testStorage() as RxStorage<unknown, unknown>
  return {
    ...inner,
    async createStorageInstance<D>(params: RxStorageInstanceCreationParams<D, unknown>) {
      const instance: RxStorageInstance<D, unknown, unknown> =
        await inner.createStorageInstance<D>(params)
      return new Proxy(instance, {
        get(target, prop, receiver) {
          const value: unknown = Reflect.get(target, prop, receiver)
          if (prop !== 'bulkWrite' || typeof value !== 'function') return value
          return (rows: unknown[], context: string) => {
            const name = params.collectionName
            written.set(name, (written.get(name) ?? 0) + rows.length)
            return (value as (r: unknown[], c: string) => Promise<unknown>).call(
              target,
              rows,
              context,
            )
          }
        },
      })
    },
  }
}

/**
 * The tests' storage with the products' Dexie internals out of the first pull's reach (its pages
 * go through the storage's bulkWrite), the first of those writes failing.
 */
function storageFailingOnce(): RxStorage<unknown, unknown> {
  const inner = testStorage() as RxStorage<unknown, unknown>
  let failed = false
  return {
    ...inner,
    async createStorageInstance<D>(params: RxStorageInstanceCreationParams<D, unknown>) {
      const instance: RxStorageInstance<D, unknown, unknown> =
        await inner.createStorageInstance<D>(params)
      if (params.collectionName !== 'products') return instance
      return new Proxy(instance, {
        get(target, prop, receiver) {
          if (prop === 'originalStorageInstance' || prop === 'internals') return undefined
          const value: unknown = Reflect.get(target, prop, receiver)
          if (typeof value !== 'function') return value
          // The instance's own methods still see its internals.
          if (prop !== 'bulkWrite') return (value as () => unknown).bind(target)
          return (rows: unknown[], context: string) => {
            if (!failed && context.startsWith('replication-downstream')) {
              failed = true
              return Promise.reject(new Error('the disk said no, once'))
            }
            return (value as (r: unknown[], c: string) => Promise<unknown>).call(
              target,
              rows,
              context,
            )
          }
        },
      })
    },
  }
}

describe('a first pull into an empty device', () => {
  it("on RxDB's Dexie storage adds its full pages to Dexie's table, and tells RxDB of them", async () => {
    const written = new Map<string, number>()
    const db = await createHumoDatabase({
      name: `humo-direct-${process.pid}`,
      storage: countingStorage(written),
      only: ['products'],
    })
    const expected = await serverProducts()
    // A live query from before the pull: it learns of the documents only from the storage's
    // change events, which the direct writes must send as the storage would.
    const live: number[] = []
    const subscription = db.products.find().$.subscribe((docs) => live.push(docs.length))
    const replication = replicateProducts(backend.anon, db, { identifier: 'direct', batchSize: 5 })
    try {
      await replication.awaitInitialReplication()
      // Only the last, short page went through the storage's bulkWrite; the full ones did not.
      expect(written.get('products') ?? 0).toBeLessThan(5)
      const docs = await db.products.find().exec()
      expect(new Map(docs.map((d) => [d.id, d.serverModified]))).toEqual(expected)
      // Stored as the storage stores them: its indexed queries and count find them.
      const flower = await db.products.find({ selector: { categorySlug: 'flower' } }).exec()
      expect(flower.length).toBe(docs.filter((d) => d.categorySlug === 'flower').length)
      expect(flower.length).toBeGreaterThan(0)
      expect(await db.products.count().exec()).toBe(expected.size)
      await firstValueFrom(db.products.find().$.pipe(filter((d) => d.length === expected.size)))
      expect(live.at(-1)).toBe(expected.size)
      expect(live.some((n) => n > 0 && n < expected.size)).toBe(true)
    } finally {
      subscription.unsubscribe()
      await replication.cancel()
      await db.close()
    }
  })

  it("writes a page the storage's way when one of its documents is there after all", async () => {
    const { db } = await createTestDatabase()
    let calls = 0
    let localId = ''
    // While the second page downloads, the device writes one of its products itself: adding
    // that page must fail whole, and the storage's write then puts the server's version back.
    const client: RpcClient = {
      rpc: async (fn, args) => {
        const answer = (await backend.anon.rpc(fn, args)) as RpcAnswer
        if (fn === 'pull_products' && ++calls === 2) {
          const row = (answer.data as { rows: ProductRow[] }).rows[1]!
          localId = row.id
          await db.products.insert({ ...productRowToDoc(row), name: 'Local Copy' })
        }
        return answer
      },
    }
    const replication = replicateProducts(client, db, { identifier: 'direct-held', batchSize: 5 })
    try {
      await replication.awaitInitialReplication()
      const expected = await serverProducts()
      const docs = await db.products.find().exec()
      expect(new Map(docs.map((d) => [d.id, d.serverModified]))).toEqual(expected)
      expect((await db.products.findOne(localId).exec())?.name).not.toBe('Local Copy')
    } finally {
      await replication.cancel()
      await db.close()
    }
  })

  it('writes its pages in bulk, then the replication goes on from their checkpoint', async () => {
    const { db } = await createTestDatabase()
    const expected = await serverProducts()
    expect(expected.size).toBeGreaterThanOrEqual(12)

    // Pages of 5: every page but the last is written in bulk, not by the protocol.
    const replication = replicateProducts(backend.anon, db, { identifier: 'bulk', batchSize: 5 })
    let throughProtocol = 0
    replication.received$.subscribe(() => throughProtocol++)
    await replication.awaitInitialReplication()

    const docs = await db.products.find().exec()
    expect(new Map(docs.map((d) => [d.id, d.serverModified]))).toEqual(expected)
    for (const doc of docs) {
      expect(doc.name).not.toBe('')
      expect(doc.category?.slug).toBeTruthy()
    }
    // The protocol wrote the last, short page (and the tail) only.
    expect(throughProtocol).toBeLessThan(5)

    // A product written in bulk changes, another goes inactive: both reach the device.
    const [changed, deactivated] = docs
    const update = (id: string, change: Record<string, unknown>) =>
      backend.service.from('products').update(change).eq('id', id)
    expect((await update(changed!.id, { name: 'Bulk Then Changed Kush' })).error).toBeNull()
    expect((await update(deactivated!.id, { is_active: false })).error).toBeNull()
    replication.nudge()
    await firstValueFrom(
      db.products.findOne(changed!.id).$.pipe(filter((d) => d?.name === 'Bulk Then Changed Kush')),
    )
    await firstValueFrom(db.products.findOne(deactivated!.id).$.pipe(filter((d) => d === null)))
    await replication.awaitInSync()
    expect(await db.products.count().exec()).toBe(expected.size - 1)

    await replication.cancel()
    await db.close()
    // Back as it was, for the other tests of this backend.
    await update(deactivated!.id, { is_active: true })
  })

  it("writes a page again at once when its write fails, without RxDB's retry (5 s later)", async () => {
    const db = await createHumoDatabase({
      name: `humo-write-fails-${process.pid}`,
      storage: storageFailingOnce(),
      only: ['products'],
    })
    const replication = replicateProducts(backend.anon, db, { identifier: 'again', batchSize: 5 })
    try {
      // A failed cycle is reported on error$ before RxDB waits to retry it.
      const outcome = await Promise.race([
        replication.awaitInitialReplication().then(() => 'in sync'),
        new Promise((resolve) =>
          replication.error$.subscribe((error) => resolve(`error: ${error.message}`)),
        ),
      ])
      expect(outcome).toBe('in sync')
      const docs = await db.products.find().exec()
      expect(new Map(docs.map((d) => [d.id, d.serverModified]))).toEqual(await serverProducts())
    } finally {
      await replication.cancel()
      await db.close()
    }
  })

  it('leaves a device that holds products to the protocol', async () => {
    const { db } = await createTestDatabase()
    const first = replicateProducts(backend.anon, db, { identifier: 'held', batchSize: 5 })
    await first.awaitInitialReplication()
    await first.cancel()
    const held = await db.products.count().exec()
    const [one] = await db.products.find().exec()
    await one!.incrementalPatch({ name: 'Device Copy' })

    // A replication of another identifier starts from nothing, on a collection that is not
    // empty: its pages go through the protocol, which puts the server's version back.
    const second = replicateProducts(backend.anon, db, { identifier: 'held-again', batchSize: 5 })
    await second.awaitInitialReplication()
    expect(await db.products.count().exec()).toBe(held)
    expect((await db.products.findOne(one!.id).exec())?.name).not.toBe('Device Copy')
    await second.cancel()
    await db.close()
  })

  it('removes a product deactivated during the pull, its tombstone on a page written in bulk', async () => {
    const { db } = await createTestDatabase()
    const update = (id: string, change: Record<string, unknown>) =>
      backend.service.from('products').update(change).eq('id', id)
    // Before the second page is read, a product of the first page goes inactive and five others
    // change after it: its tombstone lands on a full page, written in bulk, not on the last one.
    let firstPage: { id: string; name: string }[] = []
    let calls = 0
    const client: RpcClient = {
      rpc: async (fn, args) => {
        calls++
        if (fn === 'pull_products' && calls === 2) {
          expect((await update(firstPage[0]!.id, { is_active: false })).error).toBeNull()
          for (const row of firstPage.slice(1))
            expect((await update(row.id, { name: `${row.name} Again` })).error).toBeNull()
        }
        const answer = (await backend.anon.rpc(fn, args)) as RpcAnswer
        if (calls === 1) firstPage = (answer.data as { rows: { id: string; name: string }[] }).rows
        return answer
      },
    }
    // No look-behind window: only the bulk write itself can remove the product.
    const replication = replicateByRpc<ProductDoc, ProductRow>(
      client,
      { rpc: 'pull_products', collection: db.products, toDoc: productRowToDoc, overlapMs: 0 },
      { identifier: 'bulk-tombstone', batchSize: 5 },
    )
    try {
      await replication.awaitInitialReplication()
      const expected = await serverProducts()
      expect(expected.has(firstPage[0]!.id)).toBe(false)
      const docs = await db.products.find().exec()
      expect(new Map(docs.map((d) => [d.id, d.serverModified]))).toEqual(expected)
    } finally {
      await replication.cancel()
      await db.close()
      await update(firstPage[0]!.id, { is_active: true })
      for (const row of firstPage.slice(1)) await update(row.id, { name: row.name })
    }
  })

  it('after a page fails mid-way, the retry repairs what was written in bulk', async () => {
    const { db } = await createTestDatabase()
    const update = (id: string, change: Record<string, unknown>) =>
      backend.service.from('products').update(change).eq('id', id)
    let firstPage: { id: string; name: string }[] = []
    let calls = 0
    const client: RpcClient = {
      rpc: async (fn, args) => {
        calls++
        if (fn === 'pull_products' && calls === 3) {
          // Pages one and two are written in bulk; the first page's first product then changes
          // on the server, and the third page fails.
          expect(
            (await update(firstPage[0]!.id, { name: 'Changed Mid Pull Haze' })).error,
          ).toBeNull()
          return { data: null, error: { message: 'connection lost' } } as RpcAnswer
        }
        const answer = (await backend.anon.rpc(fn, args)) as RpcAnswer
        if (calls === 1) firstPage = (answer.data as { rows: { id: string; name: string }[] }).rows
        return answer
      },
    }
    const replication = replicateProducts(client, db, { identifier: 'bulk-fails', batchSize: 5 })
    const errors: unknown[] = []
    replication.error$.subscribe((error) => errors.push(error))
    try {
      // RxDB retries the cycle (5 s later) with no checkpoint, on a collection that now holds
      // the pages written in bulk: the protocol takes it from the start.
      await replication.awaitInitialReplication()
      expect(errors.length).toBeGreaterThan(0)
      const expected = await serverProducts()
      const docs = await db.products.find().exec()
      expect(new Map(docs.map((d) => [d.id, d.serverModified]))).toEqual(expected)
      expect((await db.products.findOne(firstPage[0]!.id).exec())?.name).toBe(
        'Changed Mid Pull Haze',
      )
    } finally {
      await replication.cancel()
      await db.close()
      await update(firstPage[0]!.id, { name: firstPage[0]!.name })
    }
  })
})
