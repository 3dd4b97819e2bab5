// The walking skeleton's thread through every layer below the UI: PGlite → the embedded
// backend's REST → supabase-js → our pull replication → RxDB on Dexie.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { firstValueFrom, filter } from 'rxjs'
import { startTestBackend, type TestBackend } from '../fixtures/backend'
import { createTestDatabase } from '../fixtures/memory-database'
import { replicateProducts } from '../../src/data/replication/catalogue-replication'
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

describe('catalogue pull through supabase-js into RxDB', () => {
  it('pulls every active product with its brand, category and media', async () => {
    const expected = await activeProductCount()
    expect(expected).toBeGreaterThanOrEqual(12)

    const replication = replicateProducts(backend.anon, db, {
      live: false,
      identifier: 'pull-1',
    })
    await replication.awaitInitialReplication()
    await replication.cancel()

    const docs = await db.products.find().exec()
    expect(docs).toHaveLength(expected)
    for (const doc of docs) {
      expect(doc.name).not.toBe('')
      expect(doc.category?.name).toBeTruthy()
      expect(doc.media.length).toBeGreaterThan(0)
    }
    const categories = new Set(docs.map((d) => d.categorySlug))
    for (const slug of ['flower', 'edibles', 'concentrates', 'branded-bags', 'wholesale']) {
      expect(categories.has(slug)).toBe(true)
    }
  })

  it('removes a product from the device once it is deactivated on the server', async () => {
    const replication = replicateProducts(backend.anon, db, { identifier: 'pull-2' })
    await replication.awaitInitialReplication()
    const victim = (await db.products.find().exec())[0]!
    const { error } = await backend.service
      .from('products')
      .update({ is_active: false })
      .eq('id', victim.id)
    expect(error).toBeNull()

    replication.nudge()
    await firstValueFrom(db.products.findOne(victim.id).$.pipe(filter((doc) => doc === null)))
    expect(await db.products.findOne(victim.id).exec()).toBeNull()
    await replication.cancel()
  })
})
