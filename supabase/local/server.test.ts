// @vitest-environment node
// Contract tests: the real supabase-js against the embedded backend on a fresh in-memory PGlite.
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Database, PulledProduct, PullProductsResult } from './rest/api-types.ts'
import { startHumoBackend, type HumoBackend } from './server.ts'

type Client = SupabaseClient<Database>
const anyString: unknown = expect.any(String)
type FullProduct = Extract<PulledProduct, { _deleted: false }>
const isFull = (p: PulledProduct): p is FullProduct => !p._deleted

let backend: HumoBackend
let anon: Client
let service: Client

const clientFor = (key: string): Client =>
  createClient<Database>(backend.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  })

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true })
  anon = clientFor(backend.anonKey)
  service = clientFor(backend.serviceRoleKey)
}, 60_000)

afterAll(async () => {
  await backend?.close()
})

describe('REST select', () => {
  it('lists active products with embedded brand, category, type and children, newest first, with an exact count', async () => {
    const { data, error, count } = await anon
      .from('products')
      .select(
        'id, name, slug, price, created_at, brand:brands(id, name), category:categories(id, name, slug), product_type:product_types(name), product_media(*), product_effects(effect_name), terpene_profiles(terpene_name, percentage)',
        { count: 'exact' },
      )
      .eq('is_active', true)
      .order('created_at', { ascending: false })
      .range(0, 11)
    expect(error).toBeNull()
    expect(count).toBeGreaterThanOrEqual(12)
    expect(data).toHaveLength(12)
    const first = data![0]!
    expect(first.brand).toEqual({ id: anyString, name: anyString })
    expect(['flower', 'edibles', 'concentrates', 'branded-bags', 'wholesale']).toContain(
      first.category!.slug,
    )
    expect(first.product_type).toEqual({ name: anyString })
    expect(first.product_media).toEqual([
      expect.objectContaining({
        media_url: `${first.id}/cover.webp`,
        media_type: 'image',
        is_primary: true,
      }),
    ])
    expect(typeof first.price).toBe('number')
    const created = data!.map((p) => Date.parse(p.created_at))
    expect(created).toEqual([...created].sort((a, b) => b - a))
  })

  it('pages with range and reports the total in Content-Range', async () => {
    const page2 = await anon
      .from('products')
      .select('id', { count: 'exact' })
      .order('name')
      .range(12, 17)
    expect(page2.error).toBeNull()
    expect(page2.data).toHaveLength(6)
    const all = await anon.from('products').select('id').order('name')
    expect(page2.data!.map((p) => p.id)).toEqual(all.data!.slice(12, 18).map((p) => p.id))
    expect(page2.count).toBe(all.data!.length)
  })

  it('filters with ilike, in, or/and, not and is, and orders with nulls last', async () => {
    const search = await anon
      .from('products')
      .select('name')
      .or('name.ilike.*gummies*,sku.ilike.*gummies*,description.ilike.*gummies*')
    expect(search.error).toBeNull()
    expect(search.data!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['Watermelon Sea Salt Gummies']),
    )

    const edibles = await anon
      .from('products')
      .select('name, category:categories!inner(slug)')
      .eq('category.slug', 'edibles')
    expect(edibles.error).toBeNull()
    expect(edibles.data!.length).toBeGreaterThan(0)
    expect(edibles.data!.every((p) => p.category.slug === 'edibles')).toBe(true)

    const cheapOrFeaturedBulk = await anon
      .from('products')
      .select('name, price, is_featured')
      .or('price.lt.10,and(is_featured.eq.true,price.gt.1000)')
    expect(cheapOrFeaturedBulk.error).toBeNull()
    expect(cheapOrFeaturedBulk.data!.length).toBeGreaterThan(0)
    for (const p of cheapOrFeaturedBulk.data!)
      expect((p.price ?? 0) < 10 || (p.is_featured && (p.price ?? 0) > 1000)).toBe(true)

    const slugs = ['humboldt-purple-kush', 'gelato-shatter']
    const picked = await anon.from('products').select('slug').in('slug', slugs).order('slug')
    expect(picked.data!.map((p) => p.slug)).toEqual([...slugs].sort())

    const notFlower = await anon
      .from('products')
      .select('slug, quantity_available')
      .not('quantity_available', 'is', null)
      .lt('quantity_available', 10)
    expect(notFlower.error).toBeNull()
    expect(notFlower.data!.map((p) => p.quantity_available)).toEqual(expect.arrayContaining([0]))

    const ordered = await anon
      .from('products')
      .select('quantity_available')
      .order('quantity_available', { ascending: true, nullsFirst: false })
    const quantities = ordered.data!.map((p) => p.quantity_available)
    expect(quantities.at(-1)).toBeNull()
    const known = quantities.filter((q): q is number => q !== null)
    expect(known).toEqual([...known].sort((a, b) => a - b))
  })

  it('orders and limits embedded rows', async () => {
    const { data, error } = await anon
      .from('products')
      .select('slug, terpene_profiles(terpene_name, percentage)')
      .eq('slug', 'tangie-live-resin-sauce')
      .order('percentage', { referencedTable: 'terpene_profiles', ascending: true })
      .limit(1, { referencedTable: 'terpene_profiles' })
      .single()
    expect(error).toBeNull()
    expect(data!.terpene_profiles).toEqual([{ terpene_name: 'Ocimene', percentage: 1.4 }])
  })

  it('answers single() and maybeSingle() like PostgREST', async () => {
    const one = await anon
      .from('products')
      .select('name, brand:brands(name)')
      .eq('slug', 'humboldt-purple-kush')
      .single()
    expect(one.error).toBeNull()
    expect(one.data).toEqual({ name: 'Humboldt Purple Kush', brand: { name: 'Humboldt Heritage' } })

    const none = await anon.from('products').select('id').eq('slug', 'no-such-product').single()
    expect(none.status).toBe(406)
    expect(none.error).toMatchObject({ code: 'PGRST116' })

    const many = await anon.from('products').select('id').single()
    expect(many.status).toBe(406)
    expect(many.error).toMatchObject({ code: 'PGRST116' })

    const maybe = await anon
      .from('products')
      .select('id')
      .eq('slug', 'no-such-product')
      .maybeSingle()
    expect(maybe.error).toBeNull()
    expect(maybe.data).toBeNull()
  })

  it('reads categories ordered by display_order and brands by name', async () => {
    const categories = await anon.from('categories').select('slug').order('display_order')
    expect(categories.data!.map((c) => c.slug)).toEqual([
      'flower',
      'edibles',
      'concentrates',
      'branded-bags',
      'wholesale',
    ])
    const brands = await anon.from('brands').select('name').order('name')
    const names = brands.data!.map((b) => b.name)
    expect(names.length).toBeGreaterThan(5)
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)))
  })
})

describe('compressed API answers', () => {
  /** A raw HTTP exchange: fetch would decompress (and ask for an encoding) on its own. */
  function rawPost(path: string, body: string, acceptEncoding?: string) {
    return new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const request = httpRequest(
        `${backend.url}${path}`,
        {
          method: 'POST',
          headers: {
            apikey: backend.anonKey,
            Authorization: `Bearer ${backend.anonKey}`,
            'Content-Type': 'application/json',
            ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('end', () =>
            resolve({ headers: response.headers, body: Buffer.concat(chunks) }),
          )
          response.on('error', reject)
        },
      )
      request.on('error', reject)
      request.end(body)
    })
  }

  it('sends the catalogue pull brotli- or gzip-compressed to a client that accepts it, plain otherwise', async () => {
    const args = JSON.stringify({ max_rows: 1000 })
    const plain = await rawPost('/rest/v1/rpc/pull_products', args)
    expect(plain.headers['content-encoding']).toBeUndefined()
    const rows = (JSON.parse(plain.body.toString()) as { rows: unknown[] }).rows
    expect(rows.length).toBeGreaterThan(10)

    const br = await rawPost('/rest/v1/rpc/pull_products', args, 'gzip, deflate, br')
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toBe('Accept-Encoding')
    expect(br.body.length).toBeLessThan(plain.body.length / 3)
    const fromBr = JSON.parse(brotliDecompressSync(br.body).toString()) as { rows: unknown[] }
    expect(fromBr.rows).toEqual(rows)

    const gz = await rawPost('/rest/v1/rpc/pull_products', args, 'gzip')
    expect(gz.headers['content-encoding']).toBe('gzip')
    const fromGz = JSON.parse(gunzipSync(gz.body).toString()) as { rows: unknown[] }
    expect(fromGz.rows).toEqual(rows)
  })

  it('leaves a small answer as it is', async () => {
    // Nothing after a checkpoint far ahead: an answer of a few bytes.
    const settings = await rawPost(
      '/rest/v1/rpc/pull_shop_settings',
      JSON.stringify({ after_modified: '2999-01-01T00:00:00Z', after_id: 'shop' }),
      'br',
    )
    expect(settings.body.length).toBeLessThan(1024)
    expect(settings.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(settings.body.toString())).toHaveProperty('rows')
  })
})

describe('REST errors', () => {
  it('answers an unknown table with 404 PGRST205 and an unknown column with 400 42703', async () => {
    // Untyped on purpose: the typed client would not let us name a missing table or column.
    const untyped = anon as unknown as SupabaseClient
    const table = await untyped.from('no_such_table').select('*')
    expect(table.status).toBe(404)
    expect(table.error).toMatchObject({ code: 'PGRST205' })

    const column = await anon.from('products').select('no_such_column')
    expect(column.status).toBe(400)
    expect(column.error).toMatchObject({
      code: '42703',
      message: 'column products.no_such_column does not exist',
    })

    const filter = await untyped.from('products').select('id').eq('no_such_column', 1)
    expect(filter.status).toBe(400)
  })

  it('answers a JWT signed with another secret with 401 PGRST301', async () => {
    const forged = await new SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'))
    const result = await clientFor(forged).from('products').select('id')
    expect(result.status).toBe(401)
    expect(result.error).toMatchObject({ code: 'PGRST301' })
  })

  it('lets RLS hide user profiles and refuse writes from anon', async () => {
    const profiles = await anon.from('user_profiles').select('*')
    expect(profiles.error).toBeNull()
    expect(profiles.data).toEqual([])
    const update = await anon
      .from('products')
      .update({ price: 1 })
      .eq('slug', 'gelato-shatter')
      .select()
    expect(update.error).toBeNull()
    expect(update.data).toEqual([])
    const still = await anon.from('products').select('price').eq('slug', 'gelato-shatter').single()
    expect(still.data!.price).toBe(35)
  })
})

describe('pull_products', () => {
  const pull = async (
    args: Database['public']['Functions']['pull_products']['Args'],
  ): Promise<PullProductsResult> => {
    const { data, error } = await anon.rpc('pull_products', args)
    expect(error).toBeNull()
    // jsonb comes back as Json; api-results.ts describes what pull_products puts in it.
    return data as PullProductsResult
  }

  it('pages through every product by (_modified, id) checkpoint', async () => {
    const seen: PulledProduct[] = []
    let checkpoint: { after_modified: string; after_id: string } | null = null
    for (let guard = 0; guard < 50; guard++) {
      const page = await pull({ ...(checkpoint ?? {}), max_rows: 5 })
      expect(page.behind).toEqual([])
      if (page.rows.length === 0) break
      expect(page.rows.length).toBeLessThanOrEqual(5)
      seen.push(...page.rows)
      const last = page.rows.at(-1)!
      checkpoint = { after_modified: last._modified, after_id: last.id }
    }
    const total = await service.from('products').select('id', { count: 'exact', head: true })
    expect(seen).toHaveLength(total.count!)
    expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length)
    const keys = seen.map((p) => `${p._modified}|${p.id}`)
    expect(keys).toEqual([...keys].sort())
    expect(seen[0]!._modified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    const full = seen.filter(isFull).find((p) => p.name === 'Humboldt Purple Kush')!
    expect(full).toMatchObject({
      _deleted: false,
      brand: { name: 'Humboldt Heritage', slug: 'humboldt-heritage' },
      product_media: [
        { media_url: `${full.id}/cover.webp`, media_type: 'image', is_primary: true },
      ],
    })
  })

  it('hands a deactivated product to devices as a tombstone, while anon cannot select it', async () => {
    const head = await pull({ max_rows: 2000 })
    const last = head.rows.at(-1)!
    const target = head.rows.filter(isFull).find((p) => p.name === 'Gelato Shatter')!

    const deactivated = await service
      .from('products')
      .update({ is_active: false })
      .eq('id', target.id)
      .select('id, is_active, _modified')
    expect(deactivated.error).toBeNull()
    expect(deactivated.data).toEqual([{ id: target.id, is_active: false, _modified: anyString }])

    const after = await pull({ after_modified: last._modified, after_id: last.id })
    expect(after.rows).toEqual([{ id: target.id, _modified: anyString, _deleted: true }])
    expect(after.rows[0]!._modified > last._modified).toBe(true)

    const direct = await anon.from('products').select('id').eq('id', target.id)
    expect(direct.error).toBeNull()
    expect(direct.data).toEqual([])

    // The overlap window re-reads what is at or behind the checkpoint.
    const tomb = after.rows[0]!
    const overlap = await pull({
      after_modified: tomb._modified,
      after_id: tomb.id,
      behind_from: last._modified,
    })
    expect(overlap.rows).toEqual([])
    expect(overlap.behind.map((p) => p.id)).toContain(tomb.id)
    expect(overlap.behind.map((p) => p.id)).toContain(last.id)
  })

  it('moves a product when one of its children changes', async () => {
    const before = await service
      .from('products')
      .select('id, _modified')
      .eq('slug', 'humboldt-purple-kush')
      .single()
    const effect = await service
      .from('product_effects')
      .update({ effect_name: 'Calm' })
      .eq('product_id', before.data!.id)
      .eq('effect_name', 'Happy')
    expect(effect.error).toBeNull()
    const after = await service
      .from('products')
      .select('_modified')
      .eq('id', before.data!.id)
      .single()
    expect(Date.parse(after.data!._modified)).toBeGreaterThan(Date.parse(before.data!._modified))
  })
})

describe('storage and app config', () => {
  it('serves a product image from the public bucket, with byte ranges', async () => {
    const media = await anon.from('product_media').select('media_url').limit(1).single()
    const { data } = anon.storage.from('product_media').getPublicUrl(media.data!.media_url)
    expect(data.publicUrl).toBe(
      `${backend.url}/storage/v1/object/public/product_media/${media.data!.media_url}`,
    )

    const whole = await fetch(data.publicUrl)
    expect(whole.status).toBe(200)
    // The demo's covers are WebP pictures (supabase/seed/cover-image.ts), as a shop's photos are.
    expect(whole.headers.get('content-type')).toBe('image/webp')
    const picture = Buffer.from(await whole.arrayBuffer())
    expect(picture.subarray(0, 4).toString('latin1')).toBe('RIFF')
    expect(picture.subarray(8, 12).toString('latin1')).toBe('WEBP')

    const part = await fetch(data.publicUrl, { headers: { Range: 'bytes=0-99' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${picture.byteLength}`)
    expect(Buffer.from(await part.arrayBuffer())).toEqual(picture.subarray(0, 100))

    const outside = await fetch(data.publicUrl, {
      headers: { Range: `bytes=${picture.byteLength + 10}-` },
    })
    expect(outside.status).toBe(416)
  })

  it('refuses path traversal and missing objects', async () => {
    const traversal = await fetch(
      `${backend.url}/storage/v1/object/public/product_media/..%2F..%2Fetc%2Fpasswd`,
    )
    expect(traversal.status).toBe(400)
    const missing = await fetch(
      `${backend.url}/storage/v1/object/public/product_media/nope/cover.svg`,
    )
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ error: 'not_found' })
  })

  it('tells the app where its backend is', async () => {
    const response = await fetch(`${backend.url}/humo-config.json`)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(await response.json()).toEqual({
      supabaseUrl: backend.url,
      supabaseAnonKey: backend.anonKey,
    })
  })

  it('answers CORS preflights for the API', async () => {
    const response = await fetch(`${backend.url}/rest/v1/products`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'apikey, prefer',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range')
  })
})
