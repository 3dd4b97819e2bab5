// @vitest-environment node
// SPEC.md §7's table calls for the catalogue, made the way the app makes them, through the real
// supabase-js against the stand-in: the product list with its joins, search and range paging with
// a count, a product by slug, admin writes of products, media, effects, terpenes, categories,
// brands and product types, the profile lookup; and the same writes refused for anon (401) and a
// signed-in non-admin (403). Payloads are SPEC.md's (no slugs: the server makes them), hence an
// untyped client.
/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access,
   @typescript-eslint/no-unsafe-return --
   the untyped client on purpose: SPEC.md's payloads and fixture tables are outside the typed schema */
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, signedInUser } from '../contract-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

let backend: HumoBackend
let anon: SupabaseClient
let admin: SupabaseClient
let adminId: string
let customer: SupabaseClient

const PRODUCT_SELECT =
  '*, brand:brands(id, name), category:categories(id, name), product_type:product_types(name), product_media(*), product_effects(*), terpene_profiles(*)'

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true })
  anon = clientFor(backend, backend.anonKey)
  const made = await signedInUser(backend, 'owner')
  admin = made.client
  adminId = made.userId
  customer = (await signedInUser(backend, 'customer')).client
}, 60_000)

afterAll(async () => {
  await backend?.close()
})

/** The app's product list call: page and size to a range, with an exact count. */
async function listProducts(client: SupabaseClient, page: number, size: number, search = '') {
  let query = client
    .from('products')
    .select(PRODUCT_SELECT, { count: 'exact' })
    .eq('is_active', true)
    .order('created_at', { ascending: false })
  if (search)
    query = query.or(`name.ilike.%${search}%,sku.ilike.%${search}%,description.ilike.%${search}%`)
  const from = (page - 1) * size
  return query.range(from, from + size - 1)
}

describe('shop reads', () => {
  it('lists page 1 of 12 with every join and a total for the pager', async () => {
    const { data, count, error } = await listProducts(anon, 1, 12)
    expect(error).toBeNull()
    expect(data).toHaveLength(12)
    expect(count).toBeGreaterThan(12)
    const totalPages = Math.ceil(count! / 12)
    const last = await listProducts(anon, totalPages, 12)
    expect(last.data!.length).toBe(count! - (totalPages - 1) * 12)
    const product = data![0]!
    expect(product).toMatchObject({
      brand: { id: expect.any(String) as string, name: expect.any(String) as string },
      category: { id: expect.any(String) as string, name: expect.any(String) as string },
      product_type: { name: expect.any(String) as string },
    })
    expect(Array.isArray(product.product_media)).toBe(true)
    expect(Array.isArray(product.product_effects)).toBe(true)
    expect(Array.isArray(product.terpene_profiles)).toBe(true)
  })

  it('searches name, sku and description case-insensitively, and fetches the shop page of 1000', async () => {
    const all = await listProducts(anon, 1, 1000)
    const target = all.data![3]!
    const word = (target.name as string).split(' ')[0]!.toUpperCase()
    const hits = await listProducts(anon, 1, 12, word)
    expect(hits.error).toBeNull()
    expect(hits.data!.map((p) => p.id)).toContain(target.id)
    const bySku = await listProducts(anon, 1, 12, (target.sku as string).toLowerCase())
    expect(bySku.data!.map((p) => p.id)).toEqual([target.id])
    expect(all.count).toBe(all.data!.length)
  })

  it('reads one product by slug and by id with the same joins', async () => {
    const some = (await listProducts(anon, 1, 1)).data![0]!
    const bySlug = await anon.from('products').select(PRODUCT_SELECT).eq('slug', some.slug).single()
    expect(bySlug.error).toBeNull()
    expect(bySlug.data).toEqual(some)
    const byId = await anon.from('products').select(PRODUCT_SELECT).eq('id', some.id).maybeSingle()
    expect(byId.data).toEqual(some)
  })

  it('reads categories by display_order, brands and product types by name', async () => {
    const categories = await anon.from('categories').select('*').order('display_order')
    const orders = categories.data!.map((c) => c.display_order as number)
    expect(orders).toEqual([...orders].sort((a, b) => a - b))
    for (const table of ['brands', 'product_types']) {
      const { data } = await anon.from(table).select('*').order('name')
      const names = data!.map((r) => r.name as string)
      expect(names.length).toBeGreaterThan(0)
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    }
  })

  it("reads the signed-in user's role from user_profiles", async () => {
    const { data, error } = await admin
      .from('user_profiles')
      .select('role')
      .eq('user_id', adminId)
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({ role: 'owner' })
    const byAnon = await anon
      .from('user_profiles')
      .select('role')
      .eq('user_id', adminId)
      .maybeSingle()
    expect(byAnon.data).toBeNull()
  })
})

describe('admin writes', () => {
  let productId: string

  it('creates, checks, updates and reads back a product', async () => {
    const category = (await anon.from('categories').select('id').limit(1).single()).data!
    const created = await admin
      .from('products')
      .insert({
        name: 'Contract Kush',
        sku: 'CONTRACT-001',
        description: '<p>Test</p>',
        price: 30,
        original_price: 40,
        quantity_available: 5,
        is_unlimited_quantity: false,
        is_active: true,
        is_on_sale: true,
        is_featured: false,
        thc_percentage: 21.5,
        category_id: category.id,
      })
      .select()
      .single()
    expect(created.error).toBeNull()
    productId = created.data!.id as string
    expect(created.data).toMatchObject({ slug: 'contract-kush', price: 30, thc_percentage: 21.5 })

    const check = await admin.from('products').select('id, sku').eq('id', productId).single()
    expect(check.data).toEqual({ id: productId, sku: 'CONTRACT-001' })
    const clash = await admin
      .from('products')
      .select('id')
      .eq('sku', 'CONTRACT-001')
      .neq('id', productId)
      .maybeSingle()
    expect(clash.data).toBeNull()

    const updated = await admin
      .from('products')
      .update({ price: 25, quantity_available: null, is_unlimited_quantity: true })
      .eq('id', productId)
      .select()
      .single()
    expect(updated.error).toBeNull()
    expect(updated.data).toMatchObject({ price: 25, is_unlimited_quantity: true })
  })

  it('adds media, finds the next display order, sets the primary and removes by url list', async () => {
    const rows = ['a.png', 'b.mp4', 'c.png'].map((file, i) => ({
      product_id: productId,
      media_url: `${productId}/${file}`,
      media_type: file.endsWith('.mp4') ? 'video' : 'image',
      is_primary: i === 0,
      display_order: i,
    }))
    const inserted = await admin.from('product_media').insert(rows).select()
    expect(inserted.error).toBeNull()
    const highest = await admin
      .from('product_media')
      .select('display_order')
      .eq('product_id', productId)
      .order('display_order', { ascending: false })
      .limit(1)
    expect(highest.data).toEqual([{ display_order: 2 }])

    const chosen = inserted.data!.find((m) => (m.media_url as string).endsWith('c.png'))!
    const reset = await admin
      .from('product_media')
      .update({ is_primary: false })
      .eq('product_id', productId)
    expect(reset.error).toBeNull()
    const primary = await admin
      .from('product_media')
      .update({ is_primary: true })
      .eq('id', chosen.id)
    expect(primary.error).toBeNull()
    const media = await anon
      .from('product_media')
      .select('media_url, is_primary')
      .eq('product_id', productId)
      .order('display_order')
    expect(media.data!.filter((m) => m.is_primary)).toEqual([
      { media_url: `${productId}/c.png`, is_primary: true },
    ])

    const removed = await admin
      .from('product_media')
      .delete()
      .in('media_url', [`${productId}/a.png`, `${productId}/b.mp4`])
    expect(removed.error).toBeNull()
    const left = await admin.from('product_media').select('media_url').eq('product_id', productId)
    expect(left.data).toEqual([{ media_url: `${productId}/c.png` }])
  })

  it('replaces effects and terpenes', async () => {
    for (const [table, rows] of [
      ['product_effects', [{ effect_name: 'Relaxed' }, { effect_name: 'Happy' }]],
      [
        'terpene_profiles',
        [
          { terpene_name: 'Myrcene', percentage: 1.2 },
          { terpene_name: 'Linalool', percentage: null },
        ],
      ],
    ] as const) {
      expect((await admin.from(table).delete().eq('product_id', productId)).error).toBeNull()
      const added = await admin
        .from(table)
        .insert(rows.map((r) => ({ ...r, product_id: productId })))
      expect(added.error).toBeNull()
    }
    const product = await anon.from('products').select(PRODUCT_SELECT).eq('id', productId).single()
    expect(
      (product.data!.product_effects as { effect_name: string }[]).map((e) => e.effect_name).sort(),
    ).toEqual(['Happy', 'Relaxed'])
    expect(product.data!.terpene_profiles).toContainEqual(
      expect.objectContaining({ terpene_name: 'Myrcene', percentage: 1.2 }),
    )
  })

  it('creates, updates and deletes categories, brands and product types', async () => {
    const payloads = {
      categories: {
        name: 'Contract Category',
        description: 'x',
        display_order: 99,
        is_active: true,
      },
      brands: {
        name: 'Contract Brand',
        description: 'x',
        founded_year: 2020,
        logo_url: 'https://example.com/logo.png',
        is_active: true,
      },
      product_types: { name: 'Contract Type', description: 'x' },
    }
    for (const [table, payload] of Object.entries(payloads)) {
      const created = await admin.from(table).insert(payload).select().single()
      expect(created.error).toBeNull()
      const id = created.data!.id as string
      const patched = await admin
        .from(table)
        .update({ description: 'changed' })
        .eq('id', id)
        .select()
        .single()
      expect(patched.data).toMatchObject({ description: 'changed' })
      const removed = await admin.from(table).delete().eq('id', id)
      expect(removed.error).toBeNull()
      expect((await admin.from(table).select('id').eq('id', id)).data).toEqual([])
    }
  })

  it('refuses to delete a category still referenced by a product (409, SPEC message)', async () => {
    const product = await admin.from('products').select('category_id').eq('id', productId).single()
    const refused = await admin.from('categories').delete().eq('id', product.data!.category_id)
    expect(refused.status).toBe(409)
    expect(refused.error!.message).toBe(
      'Cannot delete category - it is still referenced by products. Please update or delete those products first.',
    )
  })

  it('deletes a product', async () => {
    const removed = await admin.from('products').delete().eq('id', productId)
    expect(removed.error).toBeNull()
    expect((await anon.from('products').select('id').eq('id', productId)).data).toEqual([])
  })
})

describe('RLS refusals', () => {
  it('refuses catalogue writes from anon with 401 and from a non-admin with 403', async () => {
    const row = { name: 'Nope', sku: 'NOPE-1', price: 1 }
    const byAnon = await anon.from('products').insert(row)
    expect(byAnon.status).toBe(401)
    expect(byAnon.error).toMatchObject({ code: '42501' })
    const byCustomer = await customer.from('products').insert(row)
    expect(byCustomer.status).toBe(403)
    expect(byCustomer.error).toMatchObject({ code: '42501' })
    for (const table of ['categories', 'brands', 'product_types']) {
      const attempt = await customer.from(table).insert({ name: 'Nope' })
      expect(attempt.status).toBe(403)
    }
    const profile = await customer.from('user_profiles').insert({ user_id: adminId, role: 'owner' })
    expect(profile.status).toBe(403)

    const some = (await anon.from('products').select('id, price').limit(1).single()).data!
    const patch = await customer.from('products').update({ price: 0 }).eq('id', some.id).select()
    expect(patch.data).toEqual([])
    const removal = await anon.from('products').delete().eq('id', some.id).select()
    expect(removal.data).toEqual([])
    const still = await anon.from('products').select('price').eq('id', some.id).single()
    expect(still.data!.price).toBe(some.price)
  })
})
