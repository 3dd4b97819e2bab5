// An order's stock change drops only the cached anonymous answers it can change
// (docs/decisions/045, migration 20261126150000): the reads that show the ordered product, the
// pulls ordered by _modified, and any read whose filter, order or page a stock change could move.
// Every other change still drops everything, and a change still reaches the next visitor at once.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogueCache } from './catalogue-cache.ts'
import {
  createProduct,
  startRulesBackend,
  type RulesBackend,
} from '../../tests/integration/server-rules/rules-backend'

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
    body: JSON.stringify({
      p_order: {
        id: randomUUID(),
        secret: randomUUID() + randomUUID(),
        customer: {
          email: 'stock-cache@example.com',
          firstName: 'Stock',
          lastName: 'Cache',
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
    // A page without a fixed order: an updated row can move in or out of it.
    const unordered = `products?select=id&limit=1`
    await read(unordered)
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

describe('CatalogueCache', () => {
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
