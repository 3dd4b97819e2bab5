// The admin's catalogue through the real supabase-js: the admin product pull (inactive products
// included, admins only) into a device database, renames reaching the products that embed the
// name, and Import Products / Bulk Edit as one all-or-nothing transaction.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replicateAdminProducts } from '../../../src/data/replication/admin-products-replication'
import { createTestDatabase } from '../../fixtures/memory-database'
import {
  createProduct,
  createUser,
  rpc,
  startRulesBackend,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser
let shopper: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  admin = await createUser(backend, { admin: true, email: 'catalogue@humo.test' })
  shopper = await createUser(backend)
})
afterAll(async () => {
  await backend?.close()
})

type PullRow = { id: string; _deleted: boolean; is_active?: boolean; name?: string }
type Pull = { rows: PullRow[]; behind: PullRow[] }

async function pullAll(fn: 'pull_products_admin' | 'pull_products', client = admin.client) {
  return rpc<Pull>(client, fn, { max_rows: 2000 })
}

async function skusPresent(skus: string[]) {
  const { rows } = await backend.db.query<{ sku: string }>(
    'select sku from public.products where sku = any($1) and not _deleted',
    [skus],
  )
  return rows.map((r) => r.sku).sort()
}

describe('pull_products_admin', () => {
  it('gives an admin inactive products whole, where shoppers get a tombstone', async () => {
    const hidden = await createProduct(backend, { name: 'Back Room Haze', active: false })
    const admins = await pullAll('pull_products_admin')
    expect(admins.error).toBeNull()
    const row = admins.data!.rows.find((r) => r.id === hidden.id)
    expect(row).toMatchObject({ _deleted: false, is_active: false, name: 'Back Room Haze' })

    const shoppers = await pullAll('pull_products', backend.anon)
    expect(shoppers.data!.rows.find((r) => r.id === hidden.id)).toEqual(
      expect.objectContaining({ _deleted: true }),
    )
    expect(shoppers.data!.rows.find((r) => r.id === hidden.id)?.name).toBeUndefined()
  })

  it('refuses anonymous callers and signed-in shoppers', async () => {
    const anon = await pullAll('pull_products_admin', backend.anon)
    expect(anon.data).toBeNull()
    expect(anon.error).not.toBeNull()
    const signedIn = await pullAll('pull_products_admin', shopper.client)
    expect(signedIn.data).toBeNull()
    expect(signedIn.error?.code).toBe('42501')
  })

  it('fills an admin device, which keeps inactive products and drops deleted ones', async () => {
    const inactive = await createProduct(backend, { name: 'Dormant Diesel', active: false })
    const doomed = await createProduct(backend, { name: 'Gone Glue' })
    const { db } = await createTestDatabase(undefined, ['admin_products'])
    try {
      const replication = replicateAdminProducts(admin.client, db, {
        identifier: 'admin-products-test',
        live: false,
      })
      await replication.awaitInitialReplication()
      const doc = await db.admin_products.findOne(inactive.id).exec()
      expect(doc?.isActive).toBe(false)
      expect(doc?.name).toBe('Dormant Diesel')
      expect(doc?.categoryId).toBeTruthy()
      expect(await db.admin_products.findOne(doomed.id).exec()).not.toBeNull()
      const seeded = await db.admin_products.count().exec()
      expect(seeded).toBeGreaterThan(60)

      await rpc(admin.client, 'admin_delete_product', { p_id: doomed.id })
      const again = replicateAdminProducts(admin.client, db, {
        identifier: 'admin-products-test',
        live: false,
      })
      await again.awaitInitialReplication()
      expect(await db.admin_products.findOne(doomed.id).exec()).toBeNull()
      expect(await db.admin_products.findOne(inactive.id).exec()).not.toBeNull()
    } finally {
      await db.close()
    }
  })

  it('brings a product again when its category is renamed', async () => {
    const product = await createProduct(backend, { category: 'concentrates' })
    const before = await pullAll('pull_products_admin')
    const last = before.data!.rows.at(-1)!
    const { rows } = await backend.db.query<{ name: string }>(
      "select name from public.categories where slug = 'concentrates'",
    )
    const oldName = rows[0]!.name
    const renamed = await admin.client
      .from('categories')
      .update({ name: 'Dabs & Concentrates' })
      .eq('slug', 'concentrates')
    expect(renamed.error).toBeNull()
    const { data } = await rpc<{ rows: (PullRow & { category: { name: string } })[] }>(
      admin.client,
      'pull_products_admin',
      { after_modified: (last as unknown as { _modified: string })._modified, after_id: last.id },
    )
    const moved = data!.rows.find((r) => r.id === product.id)
    expect(moved?.category.name).toBe('Dabs & Concentrates')
    await admin.client.from('categories').update({ name: oldName }).eq('slug', 'concentrates')
  })
})

describe('admin_import_products', () => {
  const row = (sku: string, extra: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    is_new: true,
    sku,
    name: `Imported ${sku}`,
    price: 25,
    quantity_available: 5,
    media: [{ media_url: 'seed/flower-1.png' }],
    ...extra,
  })

  it('writes nothing when one row is invalid, and names that row', async () => {
    const tag = randomUUID().slice(0, 6).toUpperCase()
    const skus = [`IMP-${tag}-1`, `IMP-${tag}-2`, `IMP-${tag}-3`]
    const { data, error } = await rpc(admin.client, 'admin_import_products', {
      p_rows: [row(skus[0]!), row(skus[1]!), row(skus[2]!, { price: -4 })],
    })
    expect(data).toBeNull()
    expect(error?.message).toBe(`Row 3 (SKU ${skus[2]}): Price must be at least 0`)
    expect(await skusPresent(skus)).toEqual([])

    const noName = await rpc(admin.client, 'admin_import_products', {
      p_rows: [row(skus[0]!), row(skus[1]!, { name: '  ' })],
    })
    expect(noName.error?.message).toBe(`Row 2 (SKU ${skus[1]}): Product name is required`)
    expect(await skusPresent(skus)).toEqual([])
  })

  it('writes every row of a valid import, creating and updating in one call', async () => {
    const tag = randomUUID().slice(0, 6).toUpperCase()
    const existing = await createProduct(backend, { price: 10 })
    await backend.db.query(
      `insert into public.product_media (product_id, media_url, media_type, is_primary) values ($1, 'x.png', 'image', true)`,
      [existing.id],
    )
    const skus = [`IMP-${tag}-A`, `IMP-${tag}-B`]
    const { data, error } = await rpc<{ count: number; created: number; updated: number }>(
      admin.client,
      'admin_import_products',
      {
        p_rows: [row(skus[0]!), row(skus[1]!), { id: existing.id, price: 12.5, is_active: false }],
      },
    )
    expect(error).toBeNull()
    expect(data).toMatchObject({ count: 3, created: 2, updated: 1 })
    expect(await skusPresent(skus)).toEqual(skus)
    const { rows } = await backend.db.query<{ price: string; is_active: boolean }>(
      'select price, is_active from public.products where id = $1',
      [existing.id],
    )
    expect(rows[0]).toEqual({ price: '12.50', is_active: false })
  })

  it('refuses a second row with the same SKU, keeping the first one unwritten too', async () => {
    const sku = `IMP-${randomUUID().slice(0, 6).toUpperCase()}-D`
    const { error } = await rpc(admin.client, 'admin_import_products', {
      p_rows: [row(sku), row(sku)],
    })
    expect(error?.message).toBe(`Row 2 (SKU ${sku}): SKU ${sku} already exists for another product`)
    expect(await skusPresent([sku])).toEqual([])
  })

  it('is for admins only', async () => {
    const sku = `IMP-${randomUUID().slice(0, 6).toUpperCase()}-X`
    const signedIn = await rpc(shopper.client, 'admin_import_products', { p_rows: [row(sku)] })
    expect(signedIn.error?.code).toBe('42501')
    const anon = await rpc(backend.anon, 'admin_import_products', { p_rows: [row(sku)] })
    expect(anon.error).not.toBeNull()
    expect(await skusPresent([sku])).toEqual([])
  })
})
