// A lawful sale in California (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md) through the real supabase-js:
// CDTFA's worked example priced from rules entered by an admin, daily limits across orders of the
// same person, the handoff's ID number, the server's totals winning over a device's stale rates,
// and the tax report. Medical patients are in california-medical.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shopDate } from '../../../src/lib/compliance-rules'
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
  rpc,
  startRulesBackend,
  stockOf,
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

describe('taxes from the rules in force, entered by an admin', () => {
  it('reproduces CDTFA’s worked example through a real order: $35 + 10% city tax + $5 delivery = $54.28', async () => {
    const today = shopDate()
    for (const rule of [
      { rule: 'sales_tax_rate', value: 0.085, effectiveFrom: today },
      {
        rule: 'local_tax_rate',
        value: 0.1,
        effectiveFrom: today,
        passedOn: true,
        label: 'City cannabis business tax',
      },
    ]) {
      const saved = await admin.client.rpc('admin_save_compliance_rule', { p_rule: rule })
      expect(saved.error).toBeNull()
      expect((saved.data as { compliance_rules: unknown[] }).compliance_rules).toContainEqual(
        expect.objectContaining({ rule: rule.rule, value: rule.value, effectiveFrom: today }),
      )
    }
    await backend.db.query(
      `update public.shop_settings set standard_shipping = 5, free_shipping_threshold = 100 where id = 'shop'`,
    )
    try {
      const product = await createProduct(backend, {
        category: 'flower',
        price: 35,
        weightGrams: 3.5,
      })
      const order = accepted(
        await placeOrder(
          backend.anon,
          orderInput([{ productId: product.id, quantity: 1 }], { customer: person() }),
        ),
      )
      expect(order).toMatchObject({ subtotal: 35, shipping: 5, tax: 14.28, total: 54.28 })
      expect(order.taxLines).toEqual([
        {
          kind: 'local',
          label: 'City cannabis business tax (10%)',
          rate: 0.1,
          base: 35,
          amount: 3.5,
        },
        {
          kind: 'excise',
          label: 'Cannabis excise tax (15%)',
          rate: 0.15,
          base: 43.5,
          amount: 6.53,
        },
        { kind: 'sales', label: 'Sales tax (8.5%)', rate: 0.085, base: 50.03, amount: 4.25 },
      ])

      // Handed over, it is in the tax report of the day (beside the demo orders handed over today).
      const report = async () => {
        const { data, error } = await rpc<Record<string, number>>(
          admin.client,
          'admin_tax_report',
          {
            p_from: today,
            p_to: today,
          },
        )
        expect(error).toBeNull()
        return data!
      }
      const before = await report()
      expect((await handOver(order.id)).applied).toBe(true)
      const after = await report()
      const added = (key: string) => Math.round((after[key]! - before[key]!) * 100) / 100
      const keys = ['orders', 'grossReceipts', 'exciseBase', 'exciseTax', 'salesTax', 'localTax']
      expect(keys.map(added)).toEqual([1, 40, 43.5, 6.53, 4.25, 3.5])
    } finally {
      await backend.db.query(
        `delete from public.compliance_rules where effective_from = public.shop_date() and rule in ('sales_tax_rate', 'local_tax_rate')`,
      )
      await backend.db.query(
        `update public.shop_settings set standard_shipping = 9.99, free_shipping_threshold = 50 where id = 'shop'`,
      )
    }
  })

  it('keeps history: a rate cannot take effect in the past, and one in force cannot be removed', async () => {
    const past = await admin.client.rpc('admin_save_compliance_rule', {
      p_rule: { rule: 'excise_rate', value: 0.2, effectiveFrom: '2024-01-01' },
    })
    expect(past.error?.message).toMatch(/cannot take effect in the past/)
    const gone = await admin.client.rpc('admin_delete_compliance_rule', {
      p_id: '00000000-0000-4000-8c00-000000000003',
    })
    expect(gone.error?.message).toMatch(/stays in the history/)
    for (const bad of [
      { rule: 'excise_rate', value: 15, effectiveFrom: '2099-01-01' },
      { rule: 'excise_rate', value: '0.15', effectiveFrom: '2099-01-01' },
      { rule: 'nope', value: 0.1, effectiveFrom: '2099-01-01' },
      { rule: 'sales_tax_rate', value: 0.1, effectiveFrom: 'tomorrow' },
      { rule: 'limit_adult_flower_g', value: -1, effectiveFrom: '2099-01-01' },
    ]) {
      const refused = await admin.client.rpc('admin_save_compliance_rule', { p_rule: bad })
      expect(refused.error?.code, JSON.stringify(bad)).toBe('22023')
    }
    const shopper = await createUser(backend)
    const notAdmin = await shopper.client.rpc('admin_save_compliance_rule', {
      p_rule: { rule: 'excise_rate', value: 0, effectiveFrom: '2099-01-01' },
    })
    expect(notAdmin.error?.code).toBe('42501')
  })

  it('applies a rate entered ahead of time only from its day', async () => {
    const nextYear = `${Number(shopDate().slice(0, 4)) + 1}-01-01`
    const ahead = await admin.client.rpc('admin_save_compliance_rule', {
      p_rule: { rule: 'sales_tax_rate', value: 0.11, effectiveFrom: nextYear },
    })
    expect(ahead.error).toBeNull()
    const product = await createProduct(backend, { price: 100 })
    const order = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: product.id, quantity: 1 }], { customer: person() }),
      ),
    )
    expect(order.taxLines?.find((l) => l.kind === 'sales')?.label).toBe('Sales tax (9.75%)')
    const { rows } = await backend.db.query<{ id: string }>(
      `select id from public.compliance_rules where effective_from = $1`,
      [nextYear],
    )
    const removed = await admin.client.rpc('admin_delete_compliance_rule', { p_id: rows[0]!.id })
    expect(removed.error).toBeNull()
  })
})

describe('the server’s totals win over a device’s stale rates', () => {
  it('refuses an order whose previewed total is not the server’s, with the new total, taking nothing', async () => {
    const product = await createProduct(backend, { price: 40, quantity: 5 })
    const input = orderInput([{ productId: product.id, quantity: 1 }], {
      customer: person(),
      // Priced with 8% tax on a device that never synced the new rules.
      expectedTotal: 43.2,
    })
    const result = await placeOrder(backend.anon, input)
    expect(result.status).toBe('refused')
    if (result.status !== 'refused') return
    expect(result.reasons).toEqual([
      expect.objectContaining({
        code: 'total_changed',
        total: 63.1,
        message:
          'The taxes changed since your cart was priced: this order now comes to $63.10 instead of $43.20. Check the new total and place the order again.',
      }),
    ])
    expect(await stockOf(backend, product.id)).toBe(5)
    // Placed again with the total the shopper has now seen, it goes through.
    const again = accepted(
      await placeOrder(backend.anon, { ...input, id: crypto.randomUUID(), expectedTotal: 63.1 }),
    )
    expect(again.total).toBe(63.1)
  })
})

describe('daily limits per person, across orders', () => {
  const flower = () =>
    createProduct(backend, { category: 'flower', weightGrams: 3.5, price: 30, quantity: 50 })

  it('counts the same phone written another way, and refuses with what remains today', async () => {
    const eighth = await flower()
    const first = person({ phone: '(415) 555-0134' })
    accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: eighth.id, quantity: 5 }], { customer: first }),
      ),
    )
    const samePhone = { ...person(), phone: '+1 415.555.0134' }
    const second = await placeOrder(
      backend.anon,
      orderInput([{ productId: eighth.id, quantity: 5 }], { customer: samePhone }),
    )
    expect(second).toEqual({
      status: 'refused',
      reasons: [
        {
          productId: null,
          message:
            "Today's limit is 28.5 g of flower. Your orders today already hold 17.5 g, so this order can add up to 11 g.",
        },
      ],
    })
    expect(await stockOf(backend, eighth.id)).toBe(45)
    // What remains still goes through.
    accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: eighth.id, quantity: 3 }], { customer: samePhone }),
      ),
    )
  })

  it('counts the same email in another case, and no longer counts a cancelled order', async () => {
    const eighth = await flower()
    const buyer = person()
    const placed = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: eighth.id, quantity: 8 }], { customer: buyer }),
      ),
    )
    const shouting = { ...person(), email: buyer.email.toUpperCase() }
    const refused = await placeOrder(
      backend.anon,
      orderInput([{ productId: eighth.id, quantity: 1 }], { customer: shouting }),
    )
    expect(refused.status === 'refused' && refused.reasons[0]!.message).toBe(
      "Today's limit is 28.5 g of flower. Your orders today already hold 28 g, so this order can add up to 0.5 g.",
    )
    const cancel = await admin.client.rpc('set_order_status', {
      p_id: placed.id,
      p_from: 'pending',
      p_to: 'cancelled',
      p_reason: 'Customer asked',
    })
    expect(cancel.error).toBeNull()
    accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: eighth.id, quantity: 1 }], { customer: shouting }),
      ),
    )
  })

  it('gives a medical patient 8 oz of flower a day, and an adult-use order after it nothing more', async () => {
    const ounce = await createProduct(backend, {
      category: 'flower',
      weightGrams: 28,
      price: 150,
      quantity: 50,
    })
    const patient = person()
    const medical = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: ounce.id, quantity: 8 }], {
          customer: patient,
          customerKind: 'medical',
        }),
      ),
    )
    expect(medical.customerKind).toBe('medical')
    const more = await placeOrder(
      backend.anon,
      orderInput([{ productId: ounce.id, quantity: 1 }], {
        customer: patient,
        customerKind: 'medical',
      }),
    )
    expect(more.status === 'refused' && more.reasons[0]!.message).toBe(
      "Today's limit is 226.8 g of flower. Your orders today already hold 224 g, so this order can add up to 2.8 g.",
    )
    // §15409(d): the limits are not combined.
    const adult = await placeOrder(
      backend.anon,
      orderInput([{ productId: ounce.id, quantity: 1 }], { customer: patient }),
    )
    expect(adult.status === 'refused' && adult.reasons[0]!.message).toMatch(
      /^Today's limit is 28.5 g of flower\./,
    )
  })

  it('refuses the handoff of an ID whose sales today would pass the limit', async () => {
    const eighth = await flower()
    const one = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: eighth.id, quantity: 6 }], { customer: person() }),
      ),
    )
    expect((await handOver(one.id, { idNumber: 'B7654321' })).applied).toBe(true)
    // Another email and phone: a different person until staff read the same ID.
    const two = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: eighth.id, quantity: 3 }], { customer: person() }),
      ),
    )
    const refused = await handOver(two.id, { idNumber: 'b-765 4321' })
    expect(refused).toMatchObject({
      applied: false,
      reason: 'daily_limit',
      // Out with its driver (handOverAs), and not handed over.
      order: { status: 'shipped' },
    })
    expect(refused.message).toBe(
      "This buyer's sales today would pass the daily limit. Today's limit is 28.5 g of flower. Their other sales today hold 21 g, so this order can add up to 7.5 g. Do not hand over this order.",
    )
    expect((await handOver(two.id, { idNumber: 'C1111111' })).applied).toBe(true)
  })

  it('needs the ID number at handoff and keeps only a keyed hash of it', async () => {
    const product = await createProduct(backend, { price: 10 })
    const order = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: product.id, quantity: 1 }], { customer: person() }),
      ),
    )
    expect(await handOver(order.id, { idNumber: null })).toMatchObject({
      applied: false,
      reason: 'id_number_required',
      message: "Enter the number on the buyer's ID before handing over the order.",
    })
    const done = await handOver(order.id, { idNumber: 'N9988776' })
    expect(done.applied).toBe(true)
    expect(done.order).toMatchObject({ idNumberRecorded: true })
    expect(JSON.stringify(done.order)).not.toContain('N9988776')
    const { rows } = await backend.db.query<{ id_number_hash: string }>(
      'select id_number_hash from public.orders where id = $1',
      [order.id],
    )
    expect(rows[0]!.id_number_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(rows[0]!.id_number_hash).not.toContain('N9988776')
  })
})
