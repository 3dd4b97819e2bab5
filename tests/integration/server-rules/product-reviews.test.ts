// Real reviews (issue 33, docs/decisions/056-real-reviews-or-none.md) through the real API: a review needs the order's
// secret, an order handed over and a product in it, once per product and order; staff hide one
// with a reason and the product's average and count (what the catalogue pull carries) follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accepted, handOverAs, person, useHandoffDriver } from './california-helpers'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  rpc,
  startRulesBackend,
  type RulesBackend,
  type TestProduct,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let owner: TestUser
let manager: TestUser
let budtender: TestUser
let gummies: TestProduct
let chocolate: TestProduct
let other: TestProduct

beforeAll(async () => {
  backend = await startRulesBackend()
  owner = await createUser(backend, { role: 'owner' })
  manager = await createUser(backend, { role: 'manager' })
  budtender = await createUser(backend, { role: 'budtender' })
  await useHandoffDriver(backend)
  gummies = await createProduct(backend, { name: 'Review gummies' })
  chocolate = await createProduct(backend, { name: 'Review chocolate' })
  other = await createProduct(backend, { name: 'Never ordered' })
})
afterAll(async () => {
  await backend?.close()
})

type Placed = { id: string; secret: string }

async function order(productIds: string[]): Promise<Placed> {
  const input = orderInput(
    productIds.map((productId) => ({ productId, quantity: 1 })),
    { customer: person(), paymentMethod: 'cash', cardLast4: null },
  )
  accepted(await placeOrder(backend.anon, input))
  return { id: input.id, secret: input.secret }
}

async function handedOver(productIds: string[]): Promise<Placed> {
  const placed = await order(productIds)
  const answer = await handOverAs(owner, placed.id)
  expect(answer.applied, answer.message).toBe(true)
  return placed
}

const review = (
  placed: Placed,
  productId: string,
  rating: unknown,
  extra: Record<string, unknown> = {},
) =>
  backend.anon.rpc('submit_product_review', {
    p_order_id: placed.id,
    p_secret: placed.secret,
    p_product_id: productId,
    p_rating: rating,
    ...extra,
  })

async function totals(productId: string) {
  const { rows } = await backend.db.query<{ rating: string | null; review_count: number }>(
    'select rating, review_count from public.products where id = $1',
    [productId],
  )
  return {
    rating: rows[0]!.rating === null ? null : Number(rows[0]!.rating),
    count: rows[0]!.review_count,
  }
}

/** The product as the catalogue pull hands it to a device. */
async function pulled(productId: string) {
  const { data, error } = await rpc<{
    rows: { id: string; rating: number | null; review_count: number }[]
  }>(backend.anon, 'pull_products', { max_rows: 2000 })
  expect(error).toBeNull()
  return data!.rows.find((row) => row.id === productId)
}

describe('a review needs a handed-over order that holds the product', () => {
  it('refuses an order not picked up or delivered yet', async () => {
    const placed = await order([gummies.id])
    const { error, status } = await review(placed, gummies.id, 5)
    expect(status).toBe(400)
    expect(error?.message).toBe('Reviews open once the order has been picked up or delivered')
    expect(await totals(gummies.id)).toEqual({ rating: null, count: 0 })
  })

  it("refuses another order's secret and a made-up one", async () => {
    const mine = await handedOver([gummies.id])
    const theirs = await handedOver([gummies.id])
    const { error, status } = await review({ id: mine.id, secret: theirs.secret }, gummies.id, 4)
    expect(status).toBe(401)
    expect(error?.message).toBe('This order could not be found')
    const guessed = await review({ id: mine.id, secret: 'x'.repeat(43) }, gummies.id, 4)
    expect(guessed.status).toBe(401)
    expect(await totals(gummies.id)).toEqual({ rating: null, count: 0 })
  })

  it('refuses a product that is not in the order', async () => {
    const placed = await handedOver([gummies.id])
    const { error, status } = await review(placed, other.id, 5)
    expect(status).toBe(400)
    expect(error?.message).toBe('That product is not in this order')
  })

  it('refuses a rating outside 1–5 stars, a fraction and an overlong text or name', async () => {
    const placed = await handedOver([gummies.id])
    for (const rating of [0, 6, 4.5, -1, null]) {
      const { error, status } = await review(placed, gummies.id, rating)
      expect(status, String(rating)).toBe(400)
      expect(error?.message).toBe('Rating must be a whole number of stars from 1 to 5')
    }
    const long = await review(placed, gummies.id, 5, { p_body: 'a'.repeat(1001) })
    expect(long.status).toBe(400)
    expect(long.error?.message).toBe('A review can be at most 1000 characters')
    const name = await review(placed, gummies.id, 5, { p_display_name: 'n'.repeat(41) })
    expect(name.status).toBe(400)
    expect(name.error?.message).toBe('The name shown can be at most 40 characters')
    expect(await totals(gummies.id)).toEqual({ rating: null, count: 0 })
  })
})

describe('a good review counts once, and staff hide it', () => {
  it('accepts one review per product per order and keeps the average and count', async () => {
    const first = await handedOver([chocolate.id, gummies.id])
    const left = await review(first, chocolate.id, 5, {
      p_body: '  Rich and smooth.  ',
      p_display_name: ' Rosa ',
    })
    const { error, status } = left
    const data = left.data as unknown
    expect(error).toBeNull()
    expect(status).toBe(200)
    expect(data).toMatchObject({
      productId: chocolate.id,
      rating: 5,
      body: 'Rich and smooth.',
      displayName: 'Rosa',
    })
    expect(await totals(chocolate.id)).toEqual({ rating: 5, count: 1 })

    const again = await review(first, chocolate.id, 1)
    expect(again.status).toBe(409)
    expect(again.error?.message).toBe('You have already reviewed this product for this order')
    expect(await totals(chocolate.id)).toEqual({ rating: 5, count: 1 })

    // Another product of the same order, and the same product from another order.
    expect((await review(first, gummies.id, 3)).error).toBeNull()
    const second = await handedOver([chocolate.id])
    expect((await review(second, chocolate.id, 2)).error).toBeNull()
    expect(await totals(chocolate.id)).toEqual({ rating: 3.5, count: 2 })
    expect(await pulled(chocolate.id)).toMatchObject({ rating: 3.5, review_count: 2 })

    // The shopper's order page reads back what it reviewed; a wrong secret reads nothing.
    const mine = await rpc<{ productId: string; rating: number }[]>(
      backend.anon,
      'get_order_reviews',
      {
        p_order_id: first.id,
        p_secret: first.secret,
      },
    )
    expect(mine.data?.map((r) => r.productId).sort()).toEqual([chocolate.id, gummies.id].sort())
    const wrong = await rpc<unknown[]>(backend.anon, 'get_order_reviews', {
      p_order_id: first.id,
      p_secret: second.secret,
    })
    expect(wrong.data).toEqual([])
  })

  it('drops a hidden review out of the average, count and list, and back when shown', async () => {
    const list = await rpc<{ rows: { id: string; rating: number; body: string | null }[] }>(
      manager.client,
      'admin_reviews',
    )
    expect(list.error).toBeNull()
    const low = list.data!.rows.find((r) => r.rating === 2)!
    expect(low).toBeDefined()

    // A reason is required; budtenders and shoppers cannot.
    const noReason = await manager.client.rpc('admin_set_review_hidden', {
      p_id: low.id,
      p_hidden: true,
    })
    expect(noReason.status).toBe(400)
    expect(noReason.error?.message).toBe('Say why the review is hidden')
    const byBudtender = await budtender.client.rpc('admin_set_review_hidden', {
      p_id: low.id,
      p_hidden: true,
      p_reason: 'x',
    })
    expect(byBudtender.status).toBe(403)
    expect((await backend.anon.rpc('admin_reviews')).status).toBe(401)

    const hidden = await manager.client.rpc('admin_set_review_hidden', {
      p_id: low.id,
      p_hidden: true,
      p_reason: 'Names another shop',
    })
    expect(hidden.error).toBeNull()
    expect(await totals(chocolate.id)).toEqual({ rating: 5, count: 1 })
    expect(await pulled(chocolate.id)).toMatchObject({ rating: 5, review_count: 1 })
    const shown = await rpc<{ rows: { id: string }[] }>(backend.anon, 'get_product_reviews', {
      p_product_id: chocolate.id,
    })
    expect(shown.data!.rows.map((r) => r.id)).not.toContain(low.id)
    expect(shown.data!.rows).toHaveLength(1)

    // Audited, with the reason.
    const { rows: audit } = await backend.db.query<{ action: string; after: { reason: string } }>(
      `select action, after from public.audit_log where entity = 'review' and entity_id = $1 order by id`,
      [low.id],
    )
    expect(audit).toEqual([
      { action: 'review.hide', after: { hidden: true, reason: 'Names another shop' } },
    ])

    const back = await owner.client.rpc('admin_set_review_hidden', {
      p_id: low.id,
      p_hidden: false,
    })
    expect(back.error).toBeNull()
    expect(await totals(chocolate.id)).toEqual({ rating: 3.5, count: 2 })
  })

  it('hiding every review leaves no rating at all', async () => {
    const { data } = await rpc<{ rows: { id: string; productId: string }[] }>(
      owner.client,
      'admin_reviews',
    )
    for (const r of data!.rows.filter((row) => row.productId === gummies.id)) {
      const { error } = await owner.client.rpc('admin_set_review_hidden', {
        p_id: r.id,
        p_hidden: true,
        p_reason: 'Test',
      })
      expect(error).toBeNull()
    }
    expect(await totals(gummies.id)).toEqual({ rating: null, count: 0 })
  })

  it("keeps staff's direct writes from setting a rating", async () => {
    const { error } = await owner.client
      .from('products')
      .update({ rating: 4.9, review_count: 500, name: 'Review gummies (renamed)' })
      .eq('id', gummies.id)
    expect(error).toBeNull()
    expect(await totals(gummies.id)).toEqual({ rating: null, count: 0 })
  })
})

describe("the demo's ratings", () => {
  it('come from its seeded reviews of handed-over orders, and no product has one without', async () => {
    const { rows } = await backend.db.query<{
      name: string
      rating: string
      review_count: number
      reviews: number
    }>(
      `select p.name, p.rating, p.review_count,
              (select count(*)::int from public.product_reviews r
                 join public.orders o on o.id = r.order_id
                where r.product_id = p.id and r.hidden_at is null and o.status = 'delivered') as reviews
         from public.products p
        where p.rating is not null or p.review_count > 0
           or exists (select 1 from public.product_reviews r where r.product_id = p.id)
        order by p.name`,
    )
    const seeded = rows.filter((row) => !row.name.startsWith('Review '))
    expect(seeded.map((row) => [row.name, Number(row.rating), row.review_count])).toEqual([
      ['Child-Resistant Mylar Bags (1,000 ct)', 4, 1],
      ['Mendocino Mango Cookies', 5, 1],
      ['Yuzu Sparkling Tonic', 4, 1],
    ])
    for (const row of rows) expect(row.review_count, row.name).toBe(row.reviews)
  })
})
