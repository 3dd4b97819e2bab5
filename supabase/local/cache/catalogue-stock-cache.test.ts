// An order's stock change touches only the cached anonymous answers it can change
// (docs/decisions/045-order-path-costs.md, migration 20261126150000): the reads that show the ordered product are
// patched with its new stock (docs/decisions/049-patch-cached-pages-with-new-stock.md, migration 20261127100000) or read again; the pulls
// ordered by _modified and any read whose filter or order mentions the stock are read again.
// Every other change still drops everything, and a change still reaches the next visitor at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogueCache, type CachedAnswer, type ProducedAnswer } from './catalogue-cache.ts'
import {
  createProduct,
  orderInput,
  startRulesBackend,
  type RulesBackend,
} from '../../../tests/integration/server-rules/rules-backend'

let backend: RulesBackend

beforeAll(async () => {
  backend = await startRulesBackend()
})
afterAll(async () => {
  await backend?.close()
})

const anonHeaders = () => ({ apikey: backend.anonKey, Authorization: `Bearer ${backend.anonKey}` })

async function read<T = Record<string, unknown>[]>(path: string): Promise<T> {
  const response = await fetch(`${backend.url}/rest/v1/${path}`, { headers: anonHeaders() })
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

/** A write the change feed does not hear (triggers off), to tell a cached answer from a fresh one. */
async function silently(sql: string, params: unknown[]): Promise<void> {
  await backend.db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`)
    await tx.query(sql, params)
  })
}

async function placeOrder(productId: string, quantity: number): Promise<void> {
  const response = await fetch(`${backend.url}/rest/v1/rpc/place_order`, {
    method: 'POST',
    headers: { ...anonHeaders(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ p_order: orderInput([{ productId, quantity }]) }),
  })
  expect(((await response.json()) as { status: string }).status).toBe('accepted')
}

describe('an order lowering the stock', () => {
  it('keeps the cached answers that do not show the ordered product', async () => {
    const ordered = await createProduct(backend, { name: 'Ordered', quantity: 20 })
    const other = await createProduct(backend, { name: 'Untouched', quantity: 20 })
    const orderedPath = `products?select=id,name,quantity_available&id=eq.${ordered.id}`
    const otherPath = `products?select=id,name,quantity_available&id=eq.${other.id}`
    const otherPage = `products?select=*&order=id&id=in.(${other.id})&limit=50`
    const categories = `categories?select=id,name&order=id`
    await read(orderedPath)
    await read(otherPath)
    await read(otherPage)
    const categoryNames = await read(categories)
    // Unheard changes: an answer still cached after the order shows the old value.
    await silently(`update public.products set name = 'Unheard' where id = $1`, [other.id])
    await silently(`update public.categories set name = name || ' (unheard)'`, [])

    await placeOrder(ordered.id, 3)

    expect(await read(orderedPath)).toEqual([
      { id: ordered.id, name: 'Ordered', quantity_available: 17 },
    ])
    expect(await read(otherPath)).toEqual([
      { id: other.id, name: 'Untouched', quantity_available: 20 },
    ])
    expect((await read(otherPage))[0]?.name).toBe('Untouched')
    expect(await read(categories)).toEqual(categoryNames)

    // Any other change of a product still renews everything.
    await backend.db.query(`update public.products set price = 11 where id = $1`, [ordered.id])
    expect((await read(otherPath))[0]?.name).toBe('Unheard')
    expect((await read(categories))[0]?.name).toMatch(/\(unheard\)$/)
    await silently(`update public.products set name = 'Untouched' where id = $1`, [other.id])
    await silently(`update public.categories set name = replace(name, ' (unheard)', '')`, [])
  })

  it('renews the reads a stock change can change without showing the product', async () => {
    const low = await createProduct(backend, { name: 'Low stock soon', quantity: 5 })
    // A filter on the stock: the product is not in the answer until the order.
    const filtered = `products?select=id&quantity_available=lt.3&id=eq.${low.id}`
    expect(await read(filtered)).toEqual([])
    // A page that selects no id: which products it shows is unknown.
    const nameOnly = `products?select=name&id=eq.${low.id}`
    await read(nameOnly)
    await silently(`update public.products set name = 'Unheard low' where id = $1`, [low.id])
    // The first-visit pull is ordered by _modified, which the order moves.
    const pulled = async () =>
      (
        await read<{ rows: { id: string; quantity_available: number }[] }>(
          'rpc/pull_products?max_rows=1000',
        )
      ).rows.find((row) => row.id === low.id)?.quantity_available
    expect(await pulled()).toBe(5)

    await placeOrder(low.id, 3)

    expect(await read(filtered)).toEqual([{ id: low.id }])
    expect(await read(nameOnly)).toEqual([{ name: 'Unheard low' }])
    expect(await pulled()).toBe(2)
    await silently(`update public.products set name = 'Low stock soon' where id = $1`, [low.id])
  })
})

describe('an order lowering the stock, with the new stock in its notification', () => {
  async function text(path: string, headers: Record<string, string> = {}): Promise<string> {
    const response = await fetch(`${backend.url}/rest/v1/${path}`, {
      headers: { ...anonHeaders(), ...headers },
    })
    expect(response.status).toBe(200)
    return response.text()
  }

  it('writes it into the kept answers that show the product, as a fresh read would print them', async () => {
    const ordered = await createProduct(backend, { name: 'Patched', quantity: 30 })
    const neighbour = await createProduct(backend, { name: 'Neighbour', quantity: 30 })
    const ids = `id=in.(${ordered.id},${neighbour.id})`
    const pages = [
      `products?select=*&order=id&${ids}`,
      // Without an order (docs/decisions/049-patch-cached-pages-with-new-stock.md: kept and patched, no longer read again).
      `products?select=*&${ids}&limit=5`,
      `products?select=id,name,quantity_available&${ids}&order=name.desc`,
    ]
    for (const page of pages) await text(page)
    await text(`products?select=id,quantity_available&id=eq.${ordered.id}`, {
      Accept: 'application/vnd.pgrst.object+json',
    })
    // Unheard: an answer read again would show it, a patched one does not.
    await silently(`update public.products set name = 'Unheard neighbour' where id = $1`, [
      neighbour.id,
    ])

    await placeOrder(ordered.id, 4)

    const patched = await Promise.all(pages.map((page) => text(page)))
    for (const body of patched) {
      const rows = JSON.parse(body) as { id: string; name: string; quantity_available: number }[]
      expect(rows.find((row) => row.id === ordered.id)?.quantity_available).toBe(26)
      expect(rows.find((row) => row.id === neighbour.id)?.name).toBe('Neighbour')
    }
    expect(
      JSON.parse(
        await text(`products?select=id,quantity_available&id=eq.${ordered.id}`, {
          Accept: 'application/vnd.pgrst.object+json',
        }),
      ),
    ).toEqual({ id: ordered.id, quantity_available: 26 })

    // Byte for byte what the database prints (the timestamps the order moved included); the page
    // without an order holds the same rows, in the order they were read in.
    await silently(`update public.products set name = 'Neighbour' where id = $1`, [neighbour.id])
    await backend.db.query(`notify humo_catalogue`)
    const fresh = await Promise.all(pages.map((page) => text(page)))
    expect([fresh[0], fresh[2]]).toEqual([patched[0], patched[2]])
    const byId = (body: string) =>
      (JSON.parse(body) as { id: string }[]).sort((a, b) => a.id.localeCompare(b.id))
    expect(byId(fresh[1]!)).toEqual(byId(patched[1]!))
  })

  it('reads again what it cannot patch: a renamed or cast stock column', async () => {
    const ordered = await createProduct(backend, { name: 'Renamed stock', quantity: 8 })
    const renamed = `products?select=id,left:quantity_available&id=eq.${ordered.id}`
    const cast = `products?select=id,quantity_available::text&id=eq.${ordered.id}`
    expect(await read(renamed)).toEqual([{ id: ordered.id, left: 8 }])
    expect(await read(cast)).toEqual([{ id: ordered.id, quantity_available: '8' }])
    await placeOrder(ordered.id, 1)
    expect(await read(renamed)).toEqual([{ id: ordered.id, left: 7 }])
    expect(await read(cast)).toEqual([{ id: ordered.id, quantity_available: '7' }])
  })
})

describe('an order of unlimited products only', () => {
  it('changes no row of products, and leaves the cache and the change feed alone', async () => {
    const unlimited = await createProduct(backend, { name: 'Always there', quantity: null })
    const page = `products?select=id,name&id=eq.${unlimited.id}`
    await read(page)
    const feed = async () =>
      (
        await backend.db.query<{ at: string }>(
          `select changed_at::text as at from public.catalogue_changes where table_name = 'products'`,
        )
      ).rows[0]?.at
    const before = await feed()
    await silently(`update public.products set name = 'Unheard unlimited' where id = $1`, [
      unlimited.id,
    ])

    await placeOrder(unlimited.id, 2)

    expect(await read(page)).toEqual([{ id: unlimited.id, name: 'Always there' }])
    expect(await feed()).toBe(before)
    await silently(`update public.products set name = 'Always there' where id = $1`, [unlimited.id])
  })
})

describe('CatalogueCache', () => {
  it('joins a read under way past a stock change, patched, and reads again what it cannot patch', async () => {
    const cache = new CatalogueCache()
    const rows = (quantity: number) => `[{"id":"p1","quantity_available":${quantity}}]`
    let reads = 0
    let finish = () => {}
    const slowRead = (quantity: number) => () => {
      reads++
      const readAt = cache.currentVersion
      return new Promise<ProducedAnswer>((resolve) => {
        finish = () =>
          resolve({
            status: 200,
            headers: {},
            body: rows(quantity),
            readAt,
            stockIds: new Set(['p1']),
            stockPatch: { members: ['quantity_available'], stripNulls: false },
          })
      })
    }
    const body = async (answer: Promise<CachedAnswer>) => (await answer).body.toString()

    const first = cache.load('with values', slowRead(5))
    // An order commits while the read is on its way; a shopper asks after it.
    cache.invalidate('stockrows:{"p1": {"quantity_available": 4}}')
    const second = cache.load('with values', slowRead(99))
    finish()
    expect(await body(second)).toBe(rows(4))
    expect(await body(first)).toBe(rows(4))
    expect(reads).toBe(1)
    expect((cache.lookup('with values') as CachedAnswer).body.toString()).toBe(rows(4))

    // Ids alone cannot be patched in: whoever asked after the change gets a read of their own.
    const third = cache.load('ids only', slowRead(5))
    cache.invalidate('stock:p1')
    const fourth = cache.load('ids only', slowRead(3))
    finish()
    expect(await body(third)).toBe(rows(5))
    await Promise.resolve()
    finish()
    expect(await body(fourth)).toBe(rows(3))
    expect(reads).toBe(3)
  })

  const answer = (version: number, ids: string[] | null) => ({
    status: 200,
    headers: {},
    body: '[]',
    readAt: version,
    stockIds: ids && new Set(ids),
  })

  it("keeps a read that another product's stock change overtook, not one it changed", async () => {
    const cache = new CatalogueCache()
    const readWhile = async (key: string, ids: string[] | null, payload: string) => {
      await cache.load(key, () => {
        const readAt = cache.currentVersion
        // The change commits while the read's answer is on its way.
        cache.invalidate(payload)
        return Promise.resolve(answer(readAt, ids))
      })
      return cache.lookup(key) !== null
    }
    expect(await readWhile('a', ['p1'], 'stock:p2,p3')).toBe(true)
    expect(await readWhile('b', ['p1'], 'stock:p1')).toBe(false)
    expect(await readWhile('c', null, 'stock:p2')).toBe(false)
    expect(await readWhile('d', [], '')).toBe(false)
    // Kept entries go only when a change shows in them.
    await cache.load('e', () => Promise.resolve(answer(cache.currentVersion, ['p1'])))
    expect(cache.lookup('e')).not.toBeNull()
    cache.invalidate('stock:p9')
    expect(cache.lookup('e')).not.toBeNull()
    cache.invalidate('stock:p1')
    expect(cache.lookup('e')).toBeNull()
  })
})
