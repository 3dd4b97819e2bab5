// The anonymous catalogue pull cache (catalogue-cache.ts) through the real HTTP server: served
// again without reading the database, renewed by every kind of catalogue change, never used for
// a signed-in caller, answering 304 to a known ETag and brotli or gzip as the client accepts.
import { randomUUID } from 'node:crypto'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createProduct,
  createUser,
  startRulesBackend,
  type RulesBackend,
} from '../../tests/integration/server-rules/rules-backend'

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
    const { createRpcClient } = await import('../../src/data/backend-client')
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
