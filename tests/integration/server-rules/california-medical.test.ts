// Medical patients (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md) through the real supabase-js: no sales tax on
// cannabis with a valid MMIC, "MMIC checked" at handoff, expired cards refused with the reason;
// and products that say nothing of the limits count by their category.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accepted,
  handOverAs,
  person,
  useHandoffDriver,
  type HandoffArgs,
} from './california-helpers'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  startRulesBackend,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  await useHandoffDriver(backend)
  admin = await createUser(backend, { admin: true })
})
afterAll(async () => {
  await backend?.close()
})

const handOver = (orderId: string, args: HandoffArgs = {}) => handOverAs(admin, orderId, args)

describe('medical patients with an MMIC', () => {
  it('pays no sales tax on cannabis with a valid card, and staff must confirm "MMIC checked" at handoff', async () => {
    const tincture = await createProduct(backend, { price: 50 })
    const bag = await createProduct(backend, { price: 20, isCannabis: false })
    const input = orderInput(
      [
        { productId: tincture.id, quantity: 1 },
        { productId: bag.id, quantity: 1 },
      ],
      {
        customer: person(),
        customerKind: 'medical',
        mmic: { number: 'ab-12 cd3', expiry: '2099-12-31' },
      },
    )
    const order = accepted(await placeOrder(backend.anon, input))
    expect(order.salesTaxExempt).toBe(true)
    // Excise on the tincture; sales tax only on the bag (free delivery from $50).
    expect(order.taxLines).toEqual([
      { kind: 'excise', label: 'Cannabis excise tax (15%)', rate: 0.15, base: 50, amount: 7.5 },
      { kind: 'sales', label: 'Sales tax (9.75%)', rate: 0.0975, base: 20, amount: 1.95 },
    ])
    const shopperView = await backend.anon.rpc('get_order', {
      p_id: order.id,
      p_secret: input.secret,
    })
    expect(JSON.stringify(shopperView.data)).not.toContain('AB12CD3')

    expect(await handOver(order.id, { mmicChecked: false })).toMatchObject({
      applied: false,
      reason: 'mmic_check_required',
      message: 'Confirm "MMIC checked" before handing over a medical order without sales tax.',
    })
    const done = await handOver(order.id, { mmicChecked: true })
    expect(done.applied).toBe(true)
    expect(done.order).toMatchObject({
      mmic: { number: 'AB12CD3', expiry: '2099-12-31', checked: true },
    })
    const history = done.order.statusHistory as { status: string; mmicChecked?: boolean }[]
    expect(history.at(-1)).toMatchObject({
      status: 'delivered',
      idChecked: true,
      mmicChecked: true,
    })
  })

  it('refuses an expired card with the reason, and an MMIC on an adult-use order', async () => {
    const product = await createProduct(backend, { price: 30 })
    const expired = await placeOrder(
      backend.anon,
      orderInput([{ productId: product.id, quantity: 1 }], {
        customer: person(),
        customerKind: 'medical',
        mmic: { number: 'ZZ99887', expiry: '2020-01-31' },
      }),
    )
    expect(expired).toEqual({
      status: 'refused',
      reasons: [
        {
          productId: null,
          message:
            'Your MMIC expired on January 31, 2020. An expired card cannot exempt this order from sales tax: enter a valid card, or remove it to pay sales tax.',
        },
      ],
    })
    const adult = await backend.anon.rpc('place_order', {
      p_order: orderInput([{ productId: product.id, quantity: 1 }], {
        customer: person(),
        mmic: { number: 'ZZ99887', expiry: '2099-01-31' },
      }),
    })
    expect(adult.error).toMatchObject({
      code: '22023',
      message: "An MMIC can only be given for a medical patient's order",
    })
  })

  it('refuses to hand over tax-free an order whose card expired since', async () => {
    const product = await createProduct(backend, { price: 30 })
    const order = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: product.id, quantity: 1 }], {
          customer: person(),
          customerKind: 'medical',
          mmic: { number: 'EX12345', expiry: '2099-01-31' },
        }),
      ),
    )
    await backend.db.query(`update public.orders set mmic_expiry = '2021-06-30' where id = $1`, [
      order.id,
    ])
    const refused = await handOver(order.id, { mmicChecked: true })
    expect(refused).toMatchObject({ applied: false, reason: 'mmic_expired' })
    expect(refused.message).toMatch(/^The patient's MMIC expired on June 30, 2021/)
  })
})

describe('products that say nothing of the limits', () => {
  it('count by their category when created: flower toward flower, concentrates toward concentrate', async () => {
    const { rows } = await backend.db.query<{ slug: string; limit_class: string | null }>(
      `insert into public.products (name, slug, sku, price, weight_grams, category_id)
       select 'Untold ' || c.slug, 'untold-' || c.slug, 'UNTOLD-' || c.slug, 20, 3.5, c.id
         from public.categories c where c.slug in ('flower', 'concentrates', 'edibles')
       returning (select slug from public.categories where id = category_id) as slug, limit_class`,
    )
    expect(Object.fromEntries(rows.map((r) => [r.slug, r.limit_class]))).toEqual({
      flower: 'flower',
      concentrates: 'concentrate',
      edibles: null,
    })
  })
})
