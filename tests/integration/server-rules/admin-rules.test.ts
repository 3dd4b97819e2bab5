// The admin's server-side rules through the real supabase-js: order status compare-and-set,
// claiming the first admin, the product save with SPEC.md §5's messages, delete guards for
// categories, brands and product types, and the admin order pull.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  rpc,
  startRulesBackend,
  stockOf,
  type OrderDoc,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser
let shopper: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  admin = await createUser(backend, { admin: true, email: 'manager@humo.test' })
  shopper = await createUser(backend)
})
afterAll(async () => {
  await backend?.close()
})

async function newOrder(quantity = 2) {
  const product = await createProduct(backend, { price: 20, quantity: 10 })
  const input = orderInput([{ productId: product.id, quantity }])
  const result = await placeOrder(backend.anon, input)
  if (result.status !== 'accepted') throw new Error('order refused')
  return { product, input, order: result.order }
}

type StatusAnswer = { applied: boolean; order: OrderDoc }

describe('set_order_status', () => {
  it('applies a change from the status the device saw and records who made it', async () => {
    const { order } = await newOrder()
    const { data, error } = await rpc<StatusAnswer>(admin.client, 'set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'processing',
    })
    expect(error).toBeNull()
    const answer = data!
    expect(answer.applied).toBe(true)
    expect(answer.order.status).toBe('processing')
    expect(answer.order.statusHistory.map((h) => [h.status, h.by])).toEqual([
      ['pending', null],
      ['processing', 'manager@humo.test'],
    ])
  })

  it('changes nothing when the order has moved on, and returns the current order', async () => {
    const { order } = await newOrder()
    await admin.client.rpc('set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'shipped',
    })
    const { data } = await rpc<StatusAnswer>(admin.client, 'set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'cancelled',
    })
    const answer = data!
    expect(answer.applied).toBe(false)
    expect(answer.order.status).toBe('shipped')
    expect(answer.order).toMatchObject({
      _deleted: false,
      _modified: expect.any(String) as unknown,
    })
    expect(answer.order.statusHistory).toHaveLength(2)
  })

  it('gives the stock back on cancellation exactly once', async () => {
    const { order, product } = await newOrder(3)
    expect(await stockOf(backend, product.id)).toBe(7)
    const move = (from: string, to: string) =>
      admin.client.rpc('set_order_status', { p_id: order.id, p_from: from, p_to: to })
    await move('pending', 'cancelled')
    expect(await stockOf(backend, product.id)).toBe(10)
    await move('cancelled', 'pending')
    await move('pending', 'cancelled')
    expect(await stockOf(backend, product.id)).toBe(10)
  })

  it('is for admins only', async () => {
    const { order } = await newOrder()
    for (const client of [backend.anon, shopper.client]) {
      const { error } = await client.rpc('set_order_status', {
        p_id: order.id,
        p_from: 'pending',
        p_to: 'processing',
      })
      expect(error?.code).toBe('42501')
    }
  })

  it('lets an admin PATCH the status through REST with the same history, but no other field', async () => {
    const { order } = await newOrder()
    const patched = await admin.client
      .from('orders')
      .update({ status: 'processing' })
      .eq('id', order.id)
      .select('status, status_history')
    expect(patched.error).toBeNull()
    expect(patched.data![0]!.status_history).toHaveLength(2)
    const tampered = await admin.client.from('orders').update({ total: 0 }).eq('id', order.id)
    expect(tampered.error?.code).toBe('42501')
  })
})

describe('pull_orders_admin', () => {
  it('pulls every order with its items by checkpoint', async () => {
    const { order } = await newOrder()
    const first = await admin.client.rpc('pull_orders_admin', { max_rows: 1000 })
    expect(first.error).toBeNull()
    const rows = (first.data as { rows: (OrderDoc & { _modified: string })[] }).rows
    const pulled = rows.find((r) => r.id === order.id)!
    expect(pulled).toMatchObject({ id: order.id, status: 'pending', _deleted: false })
    expect(pulled.items).toHaveLength(1)

    const last = rows.at(-1)!
    await admin.client.rpc('set_order_status', {
      p_id: order.id,
      p_from: 'pending',
      p_to: 'processing',
    })
    const next = await admin.client.rpc('pull_orders_admin', {
      after_modified: last._modified,
      after_id: last.id,
    })
    expect((next.data as { rows: OrderDoc[] }).rows.map((r) => [r.id, r.status])).toEqual([
      [order.id, 'processing'],
    ])
  })
})

describe('claim_first_admin', () => {
  type Claim = { claimed: boolean; reason?: string; message?: string }
  const codeOf = (b: RulesBackend) => {
    if (b.setup.status !== 'ready') throw new Error('a fresh backend has a setup code')
    return b.setup.code
  }
  const roleOf = async (b: RulesBackend, userId: string) =>
    (
      await b.db.query<{ role: string }>(
        'select role from public.user_profiles where user_id = $1 and not _deleted',
        [userId],
      )
    ).rows[0]?.role ?? null

  it('makes only the first claimant with the setup code an admin; a stranger without it cannot', async () => {
    const fresh = await startRulesBackend()
    try {
      const code = codeOf(fresh)
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/)
      const stranger = await createUser(fresh)
      // The old way in, a claim without a code, is gone.
      const bare = await stranger.client.rpc('claim_first_admin')
      expect(bare.error).not.toBeNull()
      const empty = await stranger.client.rpc('claim_first_admin', { p_setup_code: ' ' })
      expect(empty.error).toMatchObject({ code: '22023' })
      const wrong = await rpc<Claim>(stranger.client, 'claim_first_admin', {
        p_setup_code: 'AAAA-BBBB-CCCC-DDDD',
      })
      expect(wrong.error).toBeNull()
      expect(wrong.data).toMatchObject({ claimed: false, reason: 'wrong_code' })
      expect(wrong.data?.message).toMatch(/^That setup code is not right/)
      expect(await roleOf(fresh, stranger.id)).toBeNull()
      expect((await fresh.anon.rpc('admin_exists')).data).toBe(false)

      const [a, b] = [await createUser(fresh), await createUser(fresh)]
      // Typed any case, without dashes: read as the same code.
      const results = await Promise.all([
        rpc<Claim>(a.client, 'claim_first_admin', {
          p_setup_code: code.replace(/-/g, '').toLowerCase(),
        }),
        rpc<Claim>(b.client, 'claim_first_admin', { p_setup_code: code }),
      ])
      expect(results.map((r) => r.error)).toEqual([null, null])
      expect(results.map((r) => r.data?.claimed).sort()).toEqual([false, true])
      expect(results.find((r) => !r.data?.claimed)?.data).toMatchObject({ reason: 'admin_exists' })
      const winner = results[0]?.data?.claimed ? a : b
      // Claiming again is harmless for the admin, and still no for anyone else.
      expect((await winner.client.rpc('claim_first_admin', { p_setup_code: 'x' })).data).toEqual({
        claimed: true,
      })
      const late = await createUser(fresh)
      expect(
        (await late.client.rpc('claim_first_admin', { p_setup_code: code })).data,
      ).toMatchObject({ claimed: false, reason: 'admin_exists' })

      const profile = await winner.client.from('user_profiles').select('role').single()
      // The first admin is the shop's owner (issue 32).
      expect(profile.data).toEqual({ role: 'owner' })
      const anonClaim = await fresh.anon.rpc('claim_first_admin', { p_setup_code: code })
      expect(anonClaim.error).not.toBeNull()
      // The database keeps only a hash, where the API cannot read it.
      const stored = await fresh.db.query<{ code_hash: string; used_at: Date | null }>(
        'select code_hash, used_at from private.setup_codes',
      )
      expect(stored.rows).toHaveLength(1)
      expect(stored.rows[0]!.code_hash).not.toContain(code.replace(/-/g, ''))
      expect(stored.rows[0]!.used_at).not.toBeNull()
      const viaApi = await winner.client.schema('private').from('setup_codes').select('*')
      expect(viaApi.error).not.toBeNull()
    } finally {
      await fresh.close()
    }
  })

  it('spends the code: once used, it claims nothing again', async () => {
    const fresh = await startRulesBackend()
    try {
      const code = codeOf(fresh)
      const first = await createUser(fresh)
      expect((await first.client.rpc('claim_first_admin', { p_setup_code: code })).data).toEqual({
        claimed: true,
      })
      // Even if the shop loses its admin, the printed code stays spent.
      await fresh.db.query('update public.user_profiles set _deleted = true where user_id = $1', [
        first.id,
      ])
      const again = await createUser(fresh)
      const reuse = await again.client.rpc('claim_first_admin', { p_setup_code: code })
      expect(reuse.error?.message).toMatch(/^This shop has no setup code yet/)
      expect(await roleOf(fresh, again.id)).toBeNull()
    } finally {
      await fresh.close()
    }
  })

  it('refuses a setup code guesser with 429, even with the right code', async () => {
    const fresh = await startRulesBackend()
    try {
      const code = codeOf(fresh)
      const guesser = await createUser(fresh)
      for (let i = 0; i < 5; i++) {
        const guess = await rpc<Claim>(guesser.client, 'claim_first_admin', {
          p_setup_code: `WRNG-C0DE-0000-000${i}`,
        })
        expect(guess.data).toMatchObject({ claimed: false, reason: 'wrong_code' })
      }
      const limited = await guesser.client.rpc('claim_first_admin', { p_setup_code: code })
      expect(limited.status).toBe(429)
      expect(limited.error).toMatchObject({
        code: 'PT429',
        message: 'Too many wrong codes. Please wait 15 minutes and try again.',
      })
      expect(await roleOf(fresh, guesser.id)).toBeNull()
      // From the same address, other accounts get 5 more wrong codes between them, then 429 too.
      for (let i = 0; i < 5; i++) {
        const other = await createUser(fresh)
        await other.client.rpc('claim_first_admin', { p_setup_code: `WRNG-C0DE-1111-111${i}` })
      }
      const next = await createUser(fresh)
      const byAddress = await next.client.rpc('claim_first_admin', { p_setup_code: code })
      expect(byAddress.status).toBe(429)
    } finally {
      await fresh.close()
    }
  })
})

// admin_save_product ----------------------------------------------------------------------------

type SavedProduct = {
  id: string
  slug: string
  sku: string
  created: boolean
  product: Record<string, unknown>
  product_media: { id: string; media_url: string; is_primary: boolean; display_order: number }[]
  product_effects: { effect_name: string }[]
  terpene_profiles: { terpene_name: string; percentage: number | null }[]
}

async function save(product: Record<string, unknown>) {
  return rpc<SavedProduct>(admin.client, 'admin_save_product', { p_product: product })
}

async function lookupIds() {
  const { rows } = await backend.db.query<{ category: string; brand: string; type: string }>(
    `select (select id from categories where slug = 'flower') as category,
            (select id from brands where slug = 'humboldt-heritage') as brand,
            (select id from product_types where name = 'Indica') as type`,
  )
  return rows[0]!
}

describe('admin_save_product', () => {
  it('creates a product with its effects, terpenes and media, a slug and one primary', async () => {
    const ids = await lookupIds()
    const sku = `FLW-T-${randomUUID().slice(0, 6)}`
    const { data, error } = await save({
      sku,
      name: 'Test Purple Punch',
      category_id: ids.category,
      brand_id: ids.brand,
      product_type_id: ids.type,
      price: 44,
      quantity_available: 12,
      thc_percentage: 23.4,
      effects: ['Relaxed', ' ', 'Sleepy', 'Relaxed'],
      terpenes: [{ name: 'Myrcene', percentage: 1.1 }, { name: '  ' }],
      media: [{ media_url: 'tmp/front.jpg' }, { media_url: 'tmp/clip.mp4', display_order: 1 }],
    })
    expect(error).toBeNull()
    expect(data).toMatchObject({ sku, slug: 'test-purple-punch', created: true })
    expect(data!.product).toMatchObject({ price: 44, is_active: true, quantity_available: 12 })
    expect(data!.product_effects.map((e) => e.effect_name).sort()).toEqual(['Relaxed', 'Sleepy'])
    expect(data!.terpene_profiles).toEqual([
      expect.objectContaining({ terpene_name: 'Myrcene', percentage: 1.1 }),
    ])
    expect(data!.product_media.map((m) => [m.media_url, m.is_primary])).toEqual([
      ['tmp/front.jpg', true],
      ['tmp/clip.mp4', false],
    ])

    // Same name again: a unique slug.
    const twin = await save({
      sku: `${sku}-2`,
      name: 'Test Purple Punch',
      media: [{ media_url: 'tmp/twin.jpg' }],
    })
    expect(twin.data!.slug).toBe('test-purple-punch-2')
  })

  it('updates in place: replaces effects, keeps what was left out, soft-deletes removed media', async () => {
    const created = await save({
      sku: `UPD-${randomUUID().slice(0, 6)}`,
      name: 'Update Me',
      price: 10,
      effects: ['Happy', 'Calm'],
      terpenes: [{ name: 'Limonene', percentage: 0.5 }],
      media: [{ media_url: 'u/a.jpg' }, { media_url: 'u/b.jpg', is_primary: true }],
    })
    const id = created.data!.id
    const [a, b] = created.data!.product_media
    expect(b!.is_primary).toBe(true)

    const updated = await save({
      id,
      price: 12.5,
      effects: ['Calm', 'Focused'],
      media: [{ id: a!.id, media_url: a!.media_url }, { media_url: 'u/c.mp4' }],
    })
    expect(updated.error).toBeNull()
    expect(updated.data).toMatchObject({ id, created: false, slug: 'update-me' })
    expect(updated.data!.product).toMatchObject({ name: 'Update Me', price: 12.5 })
    expect(updated.data!.product_effects.map((e) => e.effect_name).sort()).toEqual([
      'Calm',
      'Focused',
    ])
    expect(updated.data!.terpene_profiles.map((t) => t.terpene_name)).toEqual(['Limonene'])
    expect(updated.data!.product_media.map((m) => [m.id, m.is_primary])).toEqual([
      [a!.id, true],
      [expect.any(String), false],
    ])
    const { rows } = await backend.db.query<{ _deleted: boolean }>(
      'select _deleted from product_media where id = $1',
      [b!.id],
    )
    expect(rows[0]!._deleted).toBe(true)

    const cleared = await save({ id, effects: [], terpenes: [] })
    expect(cleared.data!.product_effects).toEqual([])
    expect(cleared.data!.terpene_profiles).toEqual([])
  })

  it('answers with SPEC.md §5’s messages', async () => {
    const existing = await save({
      sku: `DUP-${randomUUID().slice(0, 6)}`,
      name: 'Original',
      media: [{ media_url: 'd/a.jpg' }],
    })
    const other = await save({
      sku: `OTH-${randomUUID().slice(0, 6)}`,
      name: 'Other',
      media: [{ media_url: 'd/b.jpg' }],
    })
    const missing = randomUUID()
    const cases: [Record<string, unknown>, string][] = [
      [{ id: missing, name: 'Ghost' }, `Product with ID ${missing} not found`],
      [
        { id: other.data!.id, sku: existing.data!.sku },
        `SKU ${existing.data!.sku} already exists for another product`,
      ],
      [
        { sku: existing.data!.sku, name: 'Copy', media: [{ media_url: 'x.jpg' }] },
        `SKU ${existing.data!.sku} already exists for another product`,
      ],
      [{ sku: ' ', name: 'No SKU', media: [{ media_url: 'x.jpg' }] }, 'SKU is required'],
      [{ sku: 'NEW-1', name: '', media: [{ media_url: 'x.jpg' }] }, 'Product name is required'],
      [{ sku: 'NEW-2', name: 'No media' }, 'Please upload at least one product image or video'],
      [{ id: other.data!.id, media: [] }, 'Product must have at least one image or video'],
      [
        { sku: 'NEW-3', name: 'Cheap', price: -1, media: [{ media_url: 'x.jpg' }] },
        'Price must be at least 0',
      ],
      [
        { sku: 'NEW-4', name: 'Strong', thc_percentage: 101, media: [{ media_url: 'x.jpg' }] },
        'THC percentage must be between 0 and 100',
      ],
    ]
    for (const [input, message] of cases) {
      const { error } = await save(input)
      expect(error, message).toMatchObject({ code: 'P0001', message })
    }
  })

  it('is for admins only', async () => {
    const { error } = await shopper.client.rpc('admin_save_product', {
      p_product: { sku: 'X', name: 'X', media: [{ media_url: 'x.jpg' }] },
    })
    expect(error?.code).toBe('42501')
  })

  it('admin_delete_product soft-deletes, frees the SKU and pulls as a tombstone', async () => {
    const sku = `DEL-${randomUUID().slice(0, 6)}`
    const created = await save({ sku, name: 'Short Lived', media: [{ media_url: 'z.jpg' }] })
    const id = created.data!.id
    const deleted = await admin.client.rpc('admin_delete_product', { p_id: id })
    expect(deleted.error).toBeNull()
    const again = await admin.client.rpc('admin_delete_product', { p_id: id })
    expect(again.error?.message).toBe(`Product with ID ${id} not found`)

    const reused = await save({ sku, name: 'Short Lived', media: [{ media_url: 'z.jpg' }] })
    expect(reused.error).toBeNull()
    expect(reused.data!.slug).toBe('short-lived')

    const pulled = await backend.anon.rpc('pull_products', { max_rows: 2000 })
    const rows = (pulled.data as { rows: { id: string; _deleted: boolean }[] }).rows
    expect(rows.find((r) => r.id === id)).toEqual({
      id,
      _modified: expect.any(String) as unknown,
      _deleted: true,
    })
  })
})

// delete guards -----------------------------------------------------------------------------------

describe('deleting a category, brand or product type that products use', () => {
  const message = (kind: string) =>
    `Cannot delete ${kind} - it is still referenced by products. Please update or delete those products first.`

  it.each([
    ['category', 'categories', 'category_id'],
    ['brand', 'brands', 'brand_id'],
    ['product type', 'product_types', 'product_type_id'],
  ])('refuses a %s in use, by hard and by soft delete', async (kind, table, column) => {
    const { rows } = await backend.db.query<{ id: string }>(
      `select ${column} as id from products where ${column} is not null and not _deleted limit 1`,
    )
    const id = rows[0]!.id
    await expect(backend.db.query(`delete from ${table} where id = $1`, [id])).rejects.toThrow(
      message(kind),
    )
    await expect(
      backend.db.query(`update ${table} set _deleted = true where id = $1`, [id]),
    ).rejects.toThrow(message(kind))

    const rest = await admin.client.from(table).delete().eq('id', id)
    expect(rest.error).toMatchObject({ code: '23503', message: message(kind) })
  })

  it('allows deleting one no live product uses, and pulls it as a tombstone', async () => {
    const { rows } = await backend.db.query<{ id: string }>(
      `insert into categories (name) values ('Seasonal') returning id`,
    )
    const id = rows[0]!.id
    const { rows: slugRows } = await backend.db.query<{ slug: string }>(
      'select slug from categories where id = $1',
      [id],
    )
    expect(slugRows[0]!.slug).toBe('seasonal')
    const gone = await admin.client.from('categories').update({ _deleted: true }).eq('id', id)
    expect(gone.error).toBeNull()

    const pulled = await backend.anon.rpc('pull_categories', {})
    const docs = (pulled.data as { rows: { id: string; _deleted: boolean; name?: string }[] }).rows
    expect(docs.find((d) => d.id === id)).toMatchObject({ _deleted: true })
    expect(docs.find((d) => d.id === id)).not.toHaveProperty('name')
    expect(docs.filter((d) => !d._deleted).length).toBeGreaterThanOrEqual(5)
  })
})

describe('pull_brands and pull_product_types', () => {
  it('return live rows whole and inactive or deleted ones as tombstones, by checkpoint', async () => {
    const brands = await backend.anon.rpc('pull_brands', { max_rows: 3 })
    expect(brands.error).toBeNull()
    const page = (brands.data as { rows: { id: string; _modified: string; name: string }[] }).rows
    expect(page).toHaveLength(3)
    expect(page[0]).toMatchObject({ name: expect.any(String) as unknown, _deleted: false })

    const { rows } = await backend.db.query<{ id: string }>(
      `insert into brands (name, is_active) values ('Dormant Farms', false) returning id`,
    )
    const after = await backend.anon.rpc('pull_brands', {
      after_modified: page.at(-1)!._modified,
      after_id: page.at(-1)!.id,
      max_rows: 1000,
    })
    const tail = (after.data as { rows: { id: string; _deleted: boolean }[] }).rows
    expect(tail.at(-1)).toEqual({
      id: rows[0]!.id,
      _modified: expect.any(String) as unknown,
      _deleted: true,
    })

    const types = await backend.anon.rpc('pull_product_types', {})
    expect((types.data as { rows: unknown[] }).rows.length).toBeGreaterThanOrEqual(18)
  })
})
