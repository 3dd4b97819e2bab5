// The anonymous catalogue cache (catalogue-cache.ts) through the real HTTP server: pulls and REST
// reads of the catalogue served again without reading the database (not even to learn the
// catalogue's version) and without a client slot, renewed by every kind of catalogue change,
// never used for a signed-in caller or anything but the catalogue, answering 304 to a known ETag
// and brotli or gzip as the client accepts.
import { randomUUID } from 'node:crypto'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createProduct,
  createUser,
  startRulesBackend,
  type RulesBackend,
} from '../../../tests/integration/server-rules/rules-backend'

let backend: RulesBackend
let adminToken: string
let shopper: string

/** A signed-in user's access token (createUser's client keeps it to itself). */
async function tokenFor(id: string): Promise<string> {
  return new SignJWT({ role: 'authenticated', aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(backend.jwtSecret))
}

beforeAll(async () => {
  backend = await startRulesBackend()
  adminToken = await tokenFor((await createUser(backend, { admin: true })).id)
  shopper = await tokenFor((await createUser(backend)).id)
})
afterAll(async () => {
  await backend?.close()
})

const FIRST_VISIT = { after_modified: null, after_id: null, max_rows: 1000, behind_from: null }

async function pull(
  name = 'pull_products',
  options: { headers?: Record<string, string>; args?: object; token?: string } = {},
) {
  return fetch(`${backend.url}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: {
      apikey: backend.anonKey,
      Authorization: `Bearer ${options.token ?? backend.anonKey}`,
      'Content-Type': 'application/json',
      'Accept-Encoding': 'identity',
      ...options.headers,
    },
    body: JSON.stringify(options.args ?? FIRST_VISIT),
  })
}

type Doc = { id: string; name?: string; price?: number; _deleted: boolean }
async function rows(name = 'pull_products', token?: string): Promise<Doc[]> {
  const response = await pull(name, token === undefined ? {} : { token })
  expect(response.status).toBe(200)
  return ((await response.json()) as { rows: Doc[] }).rows
}

/** A write the change feed does not hear (triggers off), to tell a cached answer from a fresh one. */
async function silently(sql: string, params: unknown[]): Promise<void> {
  await backend.db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`)
    await tx.query(sql, params)
  })
}

describe('anonymous catalogue pull cache', () => {
  it('serves the same answer again from the cache, and never to a signed-in caller', async () => {
    const product = await createProduct(backend, { name: 'Cached original' })
    const first = await pull()
    const firstBody = await first.text()
    await silently(`update public.products set name = 'Unheard rename' where id = $1`, [product.id])

    const again = await pull()
    expect(await again.text()).toBe(firstBody)
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'))
    expect((await rows()).find((d) => d.id === product.id)?.name).toBe('Cached original')

    // A signed-in shopper (or admin) reads the database: the unheard rename shows.
    const token = shopper
    expect((await rows('pull_products', token)).find((d) => d.id === product.id)?.name).toBe(
      'Unheard rename',
    )
    // Same arguments in another order or other values are another entry.
    const reordered = await pull('pull_products', {
      args: { max_rows: 1000, behind_from: null, after_id: null, after_modified: null },
    })
    expect(await reordered.text()).toBe(firstBody)
    const other = await pull('pull_products', { args: { ...FIRST_VISIT, max_rows: 999 } })
    const otherRows = ((await other.json()) as { rows: Doc[] }).rows
    expect(otherRows.find((d) => d.id === product.id)?.name).toBe('Unheard rename')
    // Undone as unheard, so the cache and the database agree again for the tests below.
    await silently(`update public.products set name = 'Cached original' where id = $1`, [
      product.id,
    ])
  })

  it('answers what an uncached read answers', async () => {
    for (const name of ['pull_products', 'pull_categories', 'pull_brands', 'pull_product_types']) {
      await pull(name)
      const cached = (await (await pull(name)).json()) as Record<string, unknown>
      const fresh = (await (await pull(name, { token: shopper })).json()) as Record<string, unknown>
      delete cached.read_at
      delete fresh.read_at
      expect(cached).toEqual(fresh)
    }
  })

  it('is renewed by every kind of catalogue change', async () => {
    const product = await createProduct(backend, { price: 10, quantity: 5 })
    const find = async () => (await rows()).find((d) => d.id === product.id)
    const brand = (await backend.db.query<{ id: string }>(`select id from public.brands limit 1`))
      .rows[0]!.id
    const changes: [string, () => Promise<unknown>, () => Promise<boolean>][] = [
      [
        'price',
        () => backend.db.query(`update public.products set price = 12 where id = $1`, [product.id]),
        async () => (await find())?.price === 12,
      ],
      [
        'stock',
        () =>
          backend.db.query(`update public.products set quantity_available = 1 where id = $1`, [
            product.id,
          ]),
        async () => (await find()) !== undefined,
      ],
      [
        'deactivation',
        () =>
          backend.db.query(`update public.products set is_active = false where id = $1`, [
            product.id,
          ]),
        async () => (await find())?._deleted === true,
      ],
      [
        'brand',
        () =>
          backend.db.query(`update public.brands set name = 'Renamed brand' where id = $1`, [
            brand,
          ]),
        async () => (await rows('pull_brands')).some((d) => d.name === 'Renamed brand'),
      ],
      [
        'category',
        () =>
          backend.db.query(
            `update public.categories set name = 'Renamed category' where slug = 'edibles'`,
          ),
        async () => (await rows('pull_categories')).some((d) => d.name === 'Renamed category'),
      ],
      [
        'product type',
        () =>
          backend.db.query(
            `update public.product_types set name = 'Renamed type' where id = (select id from public.product_types limit 1)`,
          ),
        async () => (await rows('pull_product_types')).some((d) => d.name === 'Renamed type'),
      ],
    ]
    for (const [kind, change, seen] of changes) {
      // Warm every pull's entry, then change: the next anonymous visitor sees the change.
      for (const name of ['pull_products', 'pull_brands', 'pull_categories', 'pull_product_types'])
        await pull(name)
      await change()
      expect(await seen(), kind).toBe(true)
    }

    // Soft delete.
    await createProductAndExpect(`update public.products set _deleted = true where id = $1`)

    // An import by the admin.
    await rows()
    const sku = `CACHE-${randomUUID().slice(0, 6)}`
    const imported = await fetch(`${backend.url}/rest/v1/rpc/admin_import_products`, {
      method: 'POST',
      headers: {
        apikey: backend.anonKey,
        Authorization: `Bearer ${adminToken}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        p_rows: [
          {
            id: randomUUID(),
            is_new: true,
            sku,
            name: `Imported ${sku}`,
            price: 25,
            quantity_available: 5,
            media: [{ media_url: 'seed/flower-1.png' }],
          },
        ],
      }),
    })
    expect(imported.status).toBe(200)
    expect((await rows()).some((d) => d.name === `Imported ${sku}`)).toBe(true)
  })

  it('answers 304 to the ETag it gave, and brotli or gzip as accepted', async () => {
    const first = await pull()
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    const body = await first.text()

    const notModified = await pull('pull_products', { headers: { 'If-None-Match': etag } })
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
    const otherTag = await pull('pull_products', { headers: { 'If-None-Match': '"nope"' } })
    expect(otherTag.status).toBe(200)
    await otherTag.text()

    // Node's fetch decompresses on its own; read the raw bytes with node:http instead.
    const raw = async (encoding: string) => {
      const { request } = await import('node:http')
      return new Promise<{ encoding: string | undefined; data: Buffer }>((resolve, reject) => {
        const req = request(
          `${backend.url}/rest/v1/rpc/pull_products`,
          {
            method: 'POST',
            headers: {
              apikey: backend.anonKey,
              Authorization: `Bearer ${backend.anonKey}`,
              'Content-Type': 'application/json',
              'Accept-Encoding': encoding,
            },
          },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () =>
              resolve({
                encoding: res.headers['content-encoding'],
                data: Buffer.concat(chunks),
              }),
            )
          },
        )
        req.on('error', reject)
        req.end(JSON.stringify(FIRST_VISIT))
      })
    }
    const br = await raw('gzip, br')
    expect(br.encoding).toBe('br')
    expect(brotliDecompressSync(br.data).toString()).toBe(body)
    const gz = await raw('gzip')
    expect(gz.encoding).toBe('gzip')
    expect(gunzipSync(gz.data).toString()).toBe(body)
    const plain = await raw('identity')
    expect(plain.encoding).toBeUndefined()
    expect(plain.data.toString()).toBe(body)
  })

  it("serves the app's GET pull from the cache too, 304 to its ETag", async () => {
    const { createRpcClient } = await import('../../../src/data/backend-client')
    const requests: string[] = []
    const original = globalThis.fetch
    const counting: typeof fetch = (input, init) => {
      requests.push(
        `${init?.method ?? 'GET'} ${input instanceof Request ? input.url : input.toString()}`,
      )
      return original(input, init)
    }
    globalThis.fetch = counting
    try {
      const client = createRpcClient({ supabaseUrl: backend.url, supabaseAnonKey: backend.anonKey })
      const answer = await client.rpc('pull_products', FIRST_VISIT)
      expect(answer.error).toBeNull()
      // The shop's settings are pulled the same way (not cached: no catalogue_changes signal).
      const settings = await client.rpc('pull_shop_settings', FIRST_VISIT)
      expect(settings.error).toBeNull()
      expect((settings.data as { rows: unknown[] }).rows).toHaveLength(1)
    } finally {
      globalThis.fetch = original
    }
    expect(requests).toEqual([
      `GET ${backend.url}/rest/v1/rpc/pull_products?max_rows=1000`,
      `GET ${backend.url}/rest/v1/rpc/pull_shop_settings?max_rows=1000`,
    ])

    const get = () =>
      fetch(`${backend.url}/rest/v1/rpc/pull_products?max_rows=1000`, {
        headers: { apikey: backend.anonKey, Authorization: `Bearer ${backend.anonKey}` },
      })
    const first = await get()
    const etag = first.headers.get('etag')!
    expect(etag).toBeTruthy()
    await first.text()
    const again = await fetch(`${backend.url}/rest/v1/rpc/pull_products?max_rows=1000`, {
      headers: {
        apikey: backend.anonKey,
        Authorization: `Bearer ${backend.anonKey}`,
        'If-None-Match': etag,
      },
    })
    expect(again.status).toBe(304)
  })
})

async function createProductAndExpect(sql: string): Promise<void> {
  const product = await createProduct(backend)
  expect((await rows()).find((d) => d.id === product.id)?._deleted).toBe(false)
  await backend.db.query(sql, [product.id])
  expect((await rows()).find((d) => d.id === product.id)?._deleted).toBe(true)
}

const anonHeaders = () => ({ apikey: backend.anonKey, Authorization: `Bearer ${backend.anonKey}` })

/** A REST read of the catalogue as a shopper's page makes it, or as `token`. */
async function page(path: string, token?: string, headers: Record<string, string> = {}) {
  return fetch(`${backend.url}/rest/v1/${path}`, {
    headers: {
      ...anonHeaders(),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  })
}

/** A catalogue row as the tests read it: its columns and embedded resources. */
type Row = Record<string, unknown> & {
  brands?: { name: string } | null
  categories?: { name: string } | null
  product_types?: { name: string } | null
}

async function pageRows(path: string, token?: string): Promise<Row[]> {
  const response = await page(path, token)
  expect(response.status).toBe(200)
  return (await response.json()) as Row[]
}

function placeOrder(productId: string, quantity: number) {
  return fetch(`${backend.url}/rest/v1/rpc/place_order`, {
    method: 'POST',
    headers: { ...anonHeaders(), 'Content-Type': 'application/json' },
    body: JSON.stringify({
      p_order: {
        id: randomUUID(),
        secret: randomUUID() + randomUUID(),
        customer: {
          email: 'cache@example.com',
          firstName: 'Cache',
          lastName: 'Test',
          phone: '(510) 555-0101',
        },
        fulfilment: 'delivery',
        deliveryMethod: 'standard',
        shippingAddress: {
          address1: '12 Grand Ave',
          city: 'Oakland',
          state: 'CA',
          zipCode: '94612',
        },
        paymentMethod: 'cash',
        items: [{ productId, quantity }],
      },
    }),
  })
}

describe('anonymous REST reads of the catalogue', () => {
  const one = (id: string) =>
    `products?select=id,name,price,quantity_available,brands(name),categories(name),product_types(name),product_media(media_url,_deleted),product_effects(effect_name,_deleted),terpene_profiles(terpene_name,_deleted)&id=eq.${id}`

  it('are served again from the cache, renewed by every kind of catalogue change', async () => {
    const product = await createProduct(backend, { name: 'Read original', quantity: 50 })
    const path = one(product.id)
    const first = await page(path)
    const firstBody = await first.text()
    expect(first.headers.get('etag')).toBeTruthy()
    await silently(`update public.products set name = 'Unheard read rename' where id = $1`, [
      product.id,
    ])
    expect(await (await page(path)).text()).toBe(firstBody)
    await silently(`update public.products set name = 'Read original' where id = $1`, [product.id])

    await backend.db.query(
      `update public.products set brand_id = (select id from public.brands limit 1),
              product_type_id = (select id from public.product_types limit 1) where id = $1`,
      [product.id],
    )
    const row = async () => (await pageRows(path))[0]
    const changes: [string, () => Promise<unknown>, () => Promise<boolean>][] = [
      [
        'price',
        () => backend.db.query(`update public.products set price = 13 where id = $1`, [product.id]),
        async () => Number((await row())?.price) === 13,
      ],
      [
        'stock',
        () =>
          backend.db.query(`update public.products set quantity_available = 40 where id = $1`, [
            product.id,
          ]),
        async () => (await row())?.quantity_available === 40,
      ],
      [
        'an order lowering the stock (place_order)',
        async () => {
          const placed = await placeOrder(product.id, 3)
          expect(((await placed.json()) as { status: string }).status).toBe('accepted')
        },
        async () => (await row())?.quantity_available === 37,
      ],
      [
        'media',
        () =>
          backend.db.query(
            `insert into public.product_media (product_id, media_url) values ($1, 'cache/new.webp')`,
            [product.id],
          ),
        async () =>
          ((await row())?.product_media as { media_url: string }[]).some(
            (m) => m.media_url === 'cache/new.webp',
          ),
      ],
      [
        'effects',
        () =>
          backend.db.query(
            `insert into public.product_effects (product_id, effect_name) values ($1, 'Cached calm')`,
            [product.id],
          ),
        async () =>
          ((await row())?.product_effects as { effect_name: string }[]).some(
            (e) => e.effect_name === 'Cached calm',
          ),
      ],
      [
        'terpenes',
        () =>
          backend.db.query(
            `insert into public.terpene_profiles (product_id, terpene_name) values ($1, 'Cachene')`,
            [product.id],
          ),
        async () =>
          ((await row())?.terpene_profiles as { terpene_name: string }[]).some(
            (t) => t.terpene_name === 'Cachene',
          ),
      ],
      [
        'brand',
        () =>
          backend.db.query(
            `update public.brands set name = 'Read brand' where id = (select brand_id from public.products where id = $1)`,
            [product.id],
          ),
        async () => (await row())?.brands?.name === 'Read brand',
      ],
      [
        'category',
        () =>
          backend.db.query(
            `update public.categories set name = 'Read category' where id = (select category_id from public.products where id = $1)`,
            [product.id],
          ),
        async () => (await row())?.categories?.name === 'Read category',
      ],
      [
        'product type',
        () =>
          backend.db.query(
            `update public.product_types set name = 'Read type' where id = (select product_type_id from public.products where id = $1)`,
            [product.id],
          ),
        async () => (await row())?.product_types?.name === 'Read type',
      ],
      [
        'an admin saving it through the API',
        () =>
          fetch(`${backend.url}/rest/v1/products?id=eq.${product.id}`, {
            method: 'PATCH',
            headers: {
              ...anonHeaders(),
              Authorization: `Bearer ${adminToken}`,
              'Content-Type': 'application/json',
            },
            body: JSON.stringify({ name: 'Saved by the admin' }),
          }),
        async () => (await row())?.name === 'Saved by the admin',
      ],
      [
        'deactivation',
        () =>
          backend.db.query(`update public.products set is_active = false where id = $1`, [
            product.id,
          ]),
        async () => (await row()) === undefined,
      ],
      [
        'reactivation',
        () =>
          backend.db.query(`update public.products set is_active = true where id = $1`, [
            product.id,
          ]),
        async () => (await row()) !== undefined,
      ],
      [
        'soft delete',
        () =>
          backend.db.query(`update public.products set _deleted = true where id = $1`, [
            product.id,
          ]),
        async () => (await row()) === undefined,
      ],
    ]
    for (const [kind, change, seen] of changes) {
      // Cached before the change (a second read is a hit), then the next visitor sees it.
      await page(path)
      await page(path)
      await change()
      expect(await seen(), kind).toBe(true)
    }

    // An import by the admin, read through a list of the catalogue.
    const list = 'products?select=name&order=name&name=like.Imported%20read*'
    expect(await pageRows(list)).toEqual([])
    const sku = `READ-${randomUUID().slice(0, 6)}`
    const imported = await fetch(`${backend.url}/rest/v1/rpc/admin_import_products`, {
      method: 'POST',
      headers: {
        ...anonHeaders(),
        Authorization: `Bearer ${adminToken}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        p_rows: [
          {
            id: randomUUID(),
            is_new: true,
            sku,
            name: `Imported read ${sku}`,
            price: 5,
            quantity_available: 5,
            media: [{ media_url: 'seed/flower-1.png' }],
          },
        ],
      }),
    })
    expect(imported.status).toBe(200)
    expect(await pageRows(list)).toEqual([{ name: `Imported read ${sku}` }])
  })

  it('renew the pulls too when an order lowers the stock or media change', async () => {
    const product = await createProduct(backend, { quantity: 20 })
    const find = async () =>
      (await rows()).find((d) => d.id === product.id) as Doc & Record<string, unknown>
    expect((await find()).quantity_available).toBe(20)
    expect(((await (await placeOrder(product.id, 2)).json()) as { status: string }).status).toBe(
      'accepted',
    )
    expect((await find()).quantity_available).toBe(18)
    await backend.db.query(
      `insert into public.product_media (product_id, media_url) values ($1, 'cache/pulled.webp')`,
      [product.id],
    )
    expect(
      ((await find()).product_media as { media_url: string }[]).some(
        (m) => m.media_url === 'cache/pulled.webp',
      ),
    ).toBe(true)
    await backend.db.query(`truncate public.product_effects`)
    await pull()
    await backend.db.query(
      `insert into public.product_effects (product_id, effect_name) values ($1, 'After truncate')`,
      [product.id],
    )
    expect(
      ((await find()).product_effects as { effect_name: string }[]).map((e) => e.effect_name),
    ).toEqual(['After truncate'])
  })

  it('answer 304 to their ETag until the catalogue changes', async () => {
    const product = await createProduct(backend)
    const path = one(product.id)
    const first = await page(path)
    const etag = first.headers.get('etag')!
    await first.text()
    expect((await page(path, undefined, { 'If-None-Match': etag })).status).toBe(304)
    await backend.db.query(`update public.products set price = 99 where id = $1`, [product.id])
    const changed = await page(path, undefined, { 'If-None-Match': etag })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
  })

  it('never serve one caller what another may read, nor anything but the catalogue', async () => {
    const hidden = await createProduct(backend, { name: 'Hidden from shoppers', active: false })
    const path = `products?select=id,name&id=eq.${hidden.id}`
    // The admin reads the inactive product first; a shopper asking the same is not told of it.
    expect(await pageRows(path, adminToken)).toEqual([{ id: hidden.id, name: hidden.name }])
    expect(await pageRows(path)).toEqual([])
    // And the other way round: what the anonymous shopper was answered is not the admin's answer.
    expect(await pageRows(path, adminToken)).toHaveLength(1)

    // A signed-in shopper reads the database: a change no one heard shows to them only.
    const visible = await createProduct(backend, { name: 'Seen by all' })
    const seen = `products?select=name&id=eq.${visible.id}`
    expect(await pageRows(seen)).toEqual([{ name: 'Seen by all' }])
    await silently(`update public.products set name = 'Unheard' where id = $1`, [visible.id])
    expect(await pageRows(seen)).toEqual([{ name: 'Seen by all' }])
    expect(await pageRows(seen, shopper)).toEqual([{ name: 'Unheard' }])
    await silently(`update public.products set name = 'Seen by all' where id = $1`, [visible.id])

    // Tables outside the catalogue are read every time, even anonymously.
    const settings = 'shop_settings?select=tax_rate'
    const before = (await pageRows(settings))[0]!.tax_rate
    await silently(`update public.shop_settings set tax_rate = 0.2 where id = 'shop'`, [])
    expect(Number((await pageRows(settings))[0]!.tax_rate)).toBe(0.2)
    await silently(`update public.shop_settings set tax_rate = $1 where id = 'shop'`, [before])
    const signals = 'catalogue_changes?select=table_name,changed_at&table_name=eq.brands'
    const signal = await pageRows(signals)
    await silently(`update public.catalogue_changes set changed_at = now() - interval '1 day'`, [])
    expect(await pageRows(signals)).not.toEqual(signal)

    // Nor is a catalogue read that embeds anything else, nor a function outside the pulls.
    const pending = await page(`products?select=id,order_items(id)&limit=1`)
    await pending.text()
    expect(pending.headers.get('etag')).toBeNull()
    const tracked = await fetch(`${backend.url}/rest/v1/rpc/pull_shop_settings?max_rows=1000`, {
      headers: anonHeaders(),
    })
    await tracked.text()
    expect(tracked.headers.get('etag')).toBeNull()
  })

  it('keep an answer read after a change that came while it waited for the database', async () => {
    const product = await createProduct(backend, { name: 'Queued read' })
    const path = `products?select=name,price&id=eq.${product.id}`
    let queued!: Promise<Response>
    // A shopper's read arrives while an admin's change holds the database; it is read after the
    // change commits, so it is kept for the catalogue as changed (not thrown away as old).
    await backend.db.transaction(async (tx) => {
      await tx.query(`update public.products set price = 21 where id = $1`, [product.id])
      queued = page(path)
      // Lets the request reach the server and wait for the database behind this transaction.
      await new Promise((resolve) => setTimeout(resolve, 300))
    })
    const first = await queued
    expect(await first.json()).toEqual([{ name: 'Queued read', price: 21 }])
    await silently(`update public.products set name = 'Unheard after queue' where id = $1`, [
      product.id,
    ])
    expect(await pageRows(path)).toEqual([{ name: 'Queued read', price: 21 }])
  })

  it('are answered without the database and without a client slot', async () => {
    const path = 'products?select=id,name&order=id&limit=50'
    const first = await page(path)
    const body = await first.text()
    const pullPath = 'rpc/pull_products?max_rows=1000'
    const pulled = await (await page(pullPath)).text()
    const held: Promise<Response>[] = []
    // The database is held by a transaction, and this client's four slots by signed-in reads that
    // wait for it: a cached answer needs neither (without the cache this test never ends).
    await backend.db.transaction(async (tx) => {
      await tx.query('select 1')
      for (let i = 0; i < 4; i++) held.push(page(`products?select=id&limit=${i + 1}`, shopper))
      const [again, pulledAgain] = await Promise.all([page(path), page(pullPath)])
      expect(again.status).toBe(200)
      expect(await again.text()).toBe(body)
      expect(await pulledAgain.text()).toBe(pulled)
    })
    for (const response of await Promise.all(held)) expect(response.status).toBe(200)
  })
})
