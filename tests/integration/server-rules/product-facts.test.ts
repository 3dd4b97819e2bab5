// A product's facts in the admin's hands (issue 31, migration 20261128100500) through the real
// supabase-js: the product save takes and checks them with clear messages, the admin catalogue
// pull gives them, a save or an import that leaves them out keeps what the product has, and the
// limit grams staff enter for an edible are what place_order counts.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createUser,
  orderInput,
  placeOrder,
  rpc,
  startRulesBackend,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  admin = await createUser(backend, { admin: true, email: 'facts@humo.test' })
})
afterAll(async () => {
  await backend?.close()
})

type Facts = {
  is_cannabis: boolean
  limit_class: string | null
  limit_grams: number | null
  thc_mg: number | null
  cbd_mg: number | null
  servings: number | null
}

const product = (extra: Record<string, unknown> = {}) => {
  const sku = `FCT-${randomUUID().slice(0, 8).toUpperCase()}`
  return {
    id: randomUUID(),
    is_new: true,
    sku,
    name: `Facts ${sku}`,
    price: 20,
    quantity_available: 500,
    media: [{ media_url: `facts/${sku}.png` }],
    ...extra,
  }
}

async function save(payload: Record<string, unknown>) {
  return rpc<{ id: string }>(admin.client, 'admin_save_product', { p_product: payload })
}

/** The product's facts as the admin catalogue pull gives them. */
async function pulledFacts(id: string): Promise<Facts | undefined> {
  const { data } = await rpc<{ rows: (Facts & { id: string })[] }>(
    admin.client,
    'pull_products_admin',
    { max_rows: 2000 },
  )
  const row = data?.rows.find((r) => r.id === id)
  if (!row) return undefined
  const { is_cannabis, limit_class, limit_grams, thc_mg, cbd_mg, servings } = row
  return { is_cannabis, limit_class, limit_grams, thc_mg, cbd_mg, servings }
}

const GUMMIES = {
  is_cannabis: true,
  limit_class: 'concentrate',
  limit_grams: 0.1,
  thc_mg: 100,
  cbd_mg: null,
  servings: 10,
}

describe('admin_save_product', () => {
  it('takes an edible as milligrams per package and servings, counted by its THC', async () => {
    const gummies = product({ weight_grams: 50, ...GUMMIES })
    const saved = await save(gummies)
    expect(saved.error).toBeNull()
    expect(await pulledFacts(gummies.id)).toEqual(GUMMIES)
    // The storefront's pull gives the same.
    const shop = await rpc<{ rows: (Facts & { id: string })[] }>(backend.anon, 'pull_products', {
      max_rows: 2000,
    })
    expect(shop.data?.rows.find((r) => r.id === gummies.id)).toMatchObject(GUMMIES)
  })

  it('makes a new product cannabis, counted toward no limit, and keeps facts a save leaves out', async () => {
    const plain = product()
    expect((await save(plain)).error).toBeNull()
    expect(await pulledFacts(plain.id)).toEqual({
      is_cannabis: true,
      limit_class: null,
      limit_grams: null,
      thc_mg: null,
      cbd_mg: null,
      servings: null,
    })

    const eighth = product({ weight_grams: 3.5, limit_class: 'flower', thc_mg: 1 })
    expect((await save(eighth)).error).toBeNull()
    expect((await save({ id: eighth.id, price: 41 })).error).toBeNull()
    expect(await pulledFacts(eighth.id)).toMatchObject({ limit_class: 'flower', thc_mg: 1 })
    expect((await save({ id: eighth.id, thc_mg: null, is_cannabis: null })).error).toBeNull()
    expect(await pulledFacts(eighth.id)).toMatchObject({
      is_cannabis: true,
      limit_class: 'flower',
      thc_mg: null,
    })
  })

  it.each([
    [{ limit_class: 'edible' }, 'Daily limit must be flower, concentrate or none'],
    [{ is_cannabis: 'yes' }, 'Cannabis product must be true or false'],
    [{ servings: 0 }, 'Servings per package must be a whole number from 1 to 1000'],
    [{ servings: 12.5 }, 'Servings per package must be a whole number from 1 to 1000'],
    [{ thc_mg: -1 }, 'THC mg per package must be between 0 and 100000'],
    [{ cbd_mg: 100001 }, 'CBD mg per package must be between 0 and 100000'],
    [{ limit_grams: 'a lot' }, 'Grams counted toward the daily limit must be a number'],
    [
      { is_cannabis: false, limit_class: 'flower', weight_grams: 3.5 },
      'A product that is not cannabis counts toward no daily limit: choose None',
    ],
    [
      { limit_class: 'concentrate' },
      'A product that counts toward the concentrate limit needs the grams counted per unit (or its weight)',
    ],
  ])('refuses %j with a message, saving nothing', async (facts, message) => {
    const refused = product(facts)
    const { error } = await save(refused)
    expect(error?.message).toBe(message)
    const { rows } = await backend.db.query('select 1 from public.products where sku = $1', [
      refused.sku,
    ])
    expect(rows).toEqual([])
  })

  it('refuses an update that leaves a product counted by its weight without one', async () => {
    const eighth = product({ weight_grams: 3.5, limit_class: 'flower' })
    expect((await save(eighth)).error).toBeNull()
    const { error } = await save({ id: eighth.id, weight_grams: null })
    expect(error?.message).toBe(
      'A product that counts toward the flower limit needs the grams counted per unit (or its weight)',
    )
    const bag = product({ is_cannabis: false })
    expect((await save(bag)).error).toBeNull()
    expect(
      (await save({ id: bag.id, limit_class: 'concentrate', weight_grams: 5 })).error?.message,
    ).toBe('A product that is not cannabis counts toward no daily limit: choose None')
    expect(await pulledFacts(bag.id)).toMatchObject({ is_cannabis: false, limit_class: null })
  })
})

describe('admin_import_products', () => {
  it('keeps the facts of products a file without them updates, and applies those it gives', async () => {
    const gummies = product({ weight_grams: 50, ...GUMMIES })
    const bag = product({ is_cannabis: false })
    expect((await save(gummies)).error).toBeNull()
    expect((await save(bag)).error).toBeNull()
    const fresh = product({ limit_class: 'flower', weight_grams: 7, thc_mg: null })

    const { error } = await rpc(admin.client, 'admin_import_products', {
      p_rows: [
        // An export from before the facts: their keys left out.
        { id: gummies.id, price: 18 },
        { id: bag.id, price: 30, is_cannabis: false, limit_class: null },
        fresh,
      ],
    })
    expect(error).toBeNull()
    expect(await pulledFacts(gummies.id)).toEqual(GUMMIES)
    expect(await pulledFacts(bag.id)).toMatchObject({ is_cannabis: false, limit_class: null })
    expect(await pulledFacts(fresh.id)).toMatchObject({ is_cannabis: true, limit_class: 'flower' })
  })

  it('refuses a row whose facts do not hold together, naming it, and writes nothing', async () => {
    const good = product()
    const bad = product({ is_cannabis: false, limit_class: 'flower', weight_grams: 1 })
    const { error } = await rpc(admin.client, 'admin_import_products', { p_rows: [good, bad] })
    expect(error?.message).toBe(
      `Row 2 (SKU ${bad.sku}): A product that is not cannabis counts toward no daily limit: choose None`,
    )
    const { rows } = await backend.db.query('select 1 from public.products where sku = $1', [
      good.sku,
    ])
    expect(rows).toEqual([])
  })
})

describe('an edible saved with its limit grams', () => {
  it('counts them toward the concentrate limit when ordered, not its weight', async () => {
    const gummies = product({ weight_grams: 50, ...GUMMIES })
    expect((await save(gummies)).error).toBeNull()
    const email = `gummies-${randomUUID().slice(0, 6)}@example.com`
    const customer = { email, firstName: 'Ana', lastName: 'Ruiz', phone: '(213) 555-0101' }

    // 80 packages of 100 mg hold 8 g of THC: the adult limit exactly.
    const fits = await placeOrder(
      admin.client,
      orderInput([{ productId: gummies.id, quantity: 80 }], { customer }),
    )
    expect(fits.status).toBe('accepted')
    const past = await placeOrder(
      admin.client,
      orderInput([{ productId: gummies.id, quantity: 1 }], {
        customer: { ...customer, phone: '(213) 555-0199' },
      }),
    )
    expect(past).toMatchObject({
      status: 'refused',
      reasons: [
        {
          message:
            "Today's limit is 8 g of concentrate. Your orders today already hold 8 g, so this order can add no more concentrate today.",
        },
      ],
    })
  })
})
