// Returns of completed orders (issue 32, docs/decisions/054-metrc-sales-export.md) through the real supabase-js with
// real tokens: returned cannabis is held for destruction and never back in stock, merchandise goes
// back to stock when staff say so, the return is a receipt of its own in "Metrc sales" (negative
// quantities from the package it was sold from), and the tax report deducts a full refund only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shopDate } from '../../../src/lib/compliance-rules'
import { accepted, handOverAs, person, useHandoffDriver } from './california-helpers'
import { metrcDay, recordedLayout } from './metrc-helpers'
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
  await useHandoffDriver(backend)
  admin = await createUser(backend, { admin: true })
  shopper = await createUser(backend)
})
afterAll(async () => {
  await backend?.close()
})

type TaxReportFigures = Record<
  | 'returns'
  | 'returnsNotDeducted'
  | 'returnedGoods'
  | 'returnedExciseTax'
  | 'returnedSalesTax'
  | 'refunds'
  | 'exciseTax'
  | 'salesTax'
  | 'exciseTaxDue'
  | 'salesTaxDue',
  number
>

type ReturnAnswer = {
  id: string
  goods: number
  taxes: number
  fullPrice: number
  fullRefund: boolean
}

const recordReturn = (
  staff: TestUser,
  orderId: string,
  lines: unknown,
  refund: unknown,
  reason: unknown = 'Customer changed their mind',
) =>
  staff.client.rpc('admin_record_return', {
    p_order: orderId,
    p_lines: lines,
    p_reason: reason,
    p_refund: refund,
  })

const heldOf = async (productId: string) =>
  (
    await backend.db.query<{ destruction_held: number }>(
      'select destruction_held from public.products where id = $1',
      [productId],
    )
  ).rows[0]!.destruction_held

/** A handed-over order of a $20 cannabis product ×2 and an $8 tote ×1, and its line ids. */
async function completedOrder() {
  const cannabis = await createProduct(backend, { name: 'Return Gummies', price: 20, quantity: 10 })
  const tote = await createProduct(backend, {
    name: 'Return Tote',
    price: 8,
    quantity: 5,
    isCannabis: false,
  })
  const order = accepted(
    await placeOrder(
      backend.anon,
      orderInput(
        [
          { productId: cannabis.id, quantity: 2 },
          { productId: tote.id, quantity: 1 },
        ],
        { customer: person() },
      ),
    ),
  )
  expect((await handOverAs(admin, order.id)).applied).toBe(true)
  const line = (productId: string) => order.items.find((i) => i.productId === productId)!.id
  return { cannabis, tote, order, cannabisLine: line(cannabis.id), toteLine: line(tote.id) }
}

describe('recording a return', () => {
  it('keeps returned cannabis out of stock (held for destruction) and puts merchandise back when asked', async () => {
    const { cannabis, tote, order, cannabisLine, toteLine } = await completedOrder()
    expect(await stockOf(backend, cannabis.id)).toBe(8)
    expect(await stockOf(backend, tote.id)).toBe(4)

    const response = await recordReturn(
      admin,
      order.id,
      [
        { itemId: cannabisLine, quantity: 1 },
        { itemId: toteLine, quantity: 1, restock: true },
      ],
      order.total,
    )
    expect(response.error).toBeNull()
    expect(await stockOf(backend, cannabis.id)).toBe(8)
    expect(await heldOf(cannabis.id)).toBe(1)
    expect(await stockOf(backend, tote.id)).toBe(5)
    expect(await heldOf(tote.id)).toBe(0)

    // What is left to return, for the order's dialog.
    const { data } = await rpc<{
      returnable: { itemId: string; returnable: number }[]
      returns: unknown[]
    }>(admin.client, 'admin_order_returns', { p_order: order.id })
    expect(data!.returns).toHaveLength(1)
    expect(data!.returnable).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ itemId: cannabisLine, returnable: 1 }),
        expect.objectContaining({ itemId: toteLine, returnable: 0 }),
      ]),
    )
  })

  it('refuses to put cannabis back on sale, more than was sold, an order not handed over, and a refund above what was paid, with a 4xx and the reason', async () => {
    const { cannabis, order, cannabisLine, toteLine } = await completedOrder()
    const refusals: [unknown, unknown, RegExp][] = [
      [[{ itemId: cannabisLine, quantity: 1, restock: true }], 0, /cannot go back on sale/],
      [[{ itemId: cannabisLine, quantity: 3 }], 0, /Return Gummies can come back 1 to 2 at a time/],
      [[{ itemId: cannabisLine, quantity: 0 }], 0, /can come back 1 to 2/],
      [[{ itemId: cannabisLine, quantity: 1.5 }], 0, /can come back 1 to 2/],
      [[{ itemId: cannabisLine }], 0, /Say how many of Return Gummies came back/],
      [[{ itemId: 'not-a-line', quantity: 1 }], 0, /is not a line of this order/],
      [
        [
          { itemId: cannabisLine, quantity: 1 },
          { itemId: cannabisLine, quantity: 1 },
        ],
        0,
        /listed twice/,
      ],
      [[], 0, /Choose at least one line/],
      ['nothing', 0, /Choose at least one line/],
      [[{ itemId: toteLine, quantity: 1, restock: 'yes' }], 0, /restock must be true or false/],
      [[{ itemId: cannabisLine, quantity: 1 }], order.total + 0.01, /more than the customer paid/],
      [[{ itemId: cannabisLine, quantity: 1 }], -1, /0 or more/],
      [[{ itemId: cannabisLine, quantity: 1 }], 1.001, /dollars and cents/],
    ]
    for (const [lines, refund, message] of refusals) {
      const response = await recordReturn(admin, order.id, lines, refund)
      expect(response.error?.message, JSON.stringify(lines)).toMatch(message)
      expect(response.status).toBe(400)
    }
    const noReason = await recordReturn(
      admin,
      order.id,
      [{ itemId: cannabisLine, quantity: 1 }],
      0,
      '   ',
    )
    expect(noReason.error?.message).toMatch(/reason is required/)

    // Nothing of the refused calls was written.
    expect(await heldOf(cannabis.id)).toBe(0)
    const { rows } = await backend.db.query(
      'select 1 from public.order_returns where order_id = $1',
      [order.id],
    )
    expect(rows).toHaveLength(0)

    // An order still pending takes no return.
    const pendingProduct = await createProduct(backend, { price: 10 })
    const pending = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: pendingProduct.id, quantity: 1 }], { customer: person() }),
      ),
    )
    const early = await recordReturn(
      admin,
      pending.id,
      [{ itemId: pending.items[0]!.id, quantity: 1 }],
      0,
    )
    expect(early.error?.message).toMatch(
      /Only a completed \(handed over\) order can take a return; this one is pending/,
    )
    expect(early.status).toBe(400)

    // Staff only.
    const denied = await recordReturn(shopper, order.id, [{ itemId: cannabisLine, quantity: 1 }], 0)
    expect(denied.error?.code).toBe('42501')
    const anon = await backend.anon.rpc('admin_record_return', {
      p_order: order.id,
      p_lines: [{ itemId: cannabisLine, quantity: 1 }],
      p_reason: 'x',
      p_refund: 0,
    })
    expect(anon.error).not.toBeNull()
  })

  it('counts earlier returns and refunds: the rest can come back, no more', async () => {
    const { order, cannabisLine } = await completedOrder()
    expect(
      (await recordReturn(admin, order.id, [{ itemId: cannabisLine, quantity: 1 }], 10)).error,
    ).toBeNull()
    const again = await recordReturn(admin, order.id, [{ itemId: cannabisLine, quantity: 2 }], 0)
    expect(again.error?.message).toMatch(
      /can come back 1 to 1 at a time \(2 sold, 1 returned before\)/,
    )
    const tooMuch = await recordReturn(
      admin,
      order.id,
      [{ itemId: cannabisLine, quantity: 1 }],
      Math.round((order.total - 9.99) * 100) / 100,
    )
    expect(tooMuch.error?.message).toMatch(/more than the customer paid less earlier refunds/)
  })
})

describe('returns in Metrc sales and the tax report', () => {
  it('writes the return as a receipt of its own with negative quantities from the package it was sold from', async () => {
    const { order, cannabisLine, toteLine } = await completedOrder()
    const { rows: tags } = await backend.db.query<{ metrc_package_tag: string }>(
      'select metrc_package_tag from public.order_items where id = $1',
      [cannabisLine],
    )
    const tag = tags[0]!.metrc_package_tag
    const response = await recordReturn(
      admin,
      order.id,
      [
        { itemId: cannabisLine, quantity: 2 },
        { itemId: toteLine, quantity: 1 },
      ],
      0,
      'Damaged packaging',
    )
    expect(response.error).toBeNull()
    const { header, rows } = await metrcDay(admin, shopDate())
    expect(header).toEqual(recordedLayout())
    const number = order.id.slice(0, 8).toUpperCase()
    expect(rows.filter((r) => r['Receipt Number'] === number)).toEqual([
      expect.objectContaining({ 'Package Label': tag, Quantity: '2', 'Total Amount': '40' }),
    ])
    expect(rows.filter((r) => r['Receipt Number'] === `${number}-R1`)).toEqual([
      expect.objectContaining({
        'Sales Customer Type': 'Consumer',
        'Package Label': tag,
        Quantity: '-2',
        'Unit Of Measure': 'Each',
        'Total Amount': '-40',
      }),
    ])
  })

  it('deducts a return refunded in full, with its taxes, in the period of the refund; a partial refund deducts nothing', async () => {
    const today = shopDate()
    const report = async () =>
      (
        await rpc<TaxReportFigures>(admin.client, 'admin_tax_report', {
          p_from: today,
          p_to: today,
        })
      ).data!
    const before = await report()

    const full = await completedOrder()
    const afterSale = await report()
    const gummies = full.order.items.find((i) => i.productId === full.cannabis.id)!
    const fullAnswer = await rpc<ReturnAnswer>(admin.client, 'admin_record_return', {
      p_order: full.order.id,
      p_lines: [{ itemId: full.cannabisLine, quantity: 2 }],
      p_reason: 'Wrong product',
      p_refund: full.order.total,
    })
    expect(fullAnswer.error).toBeNull()
    // $40 of cannabis: 15% excise $6.00, then 9.75% sales tax on $46.00 = $4.49.
    expect(fullAnswer.data).toMatchObject({
      goods: gummies.lineTotal,
      taxes: 10.49,
      fullPrice: 50.49,
      fullRefund: true,
    })

    const partial = await completedOrder()
    const partialAnswer = await rpc<ReturnAnswer>(admin.client, 'admin_record_return', {
      p_order: partial.order.id,
      p_lines: [{ itemId: partial.cannabisLine, quantity: 1 }],
      p_reason: 'Opened',
      p_refund: 10,
    })
    expect(partialAnswer.data).toMatchObject({ fullRefund: false })

    const after = await report()
    expect(after.returns - before.returns).toBe(2)
    expect(after.returnsNotDeducted - before.returnsNotDeducted).toBe(1)
    expect(after.returnedGoods - before.returnedGoods).toBeCloseTo(40, 2)
    expect(after.returnedExciseTax - before.returnedExciseTax).toBeCloseTo(6, 2)
    expect(after.returnedSalesTax - before.returnedSalesTax).toBeCloseTo(4.49, 2)
    expect(after.refunds - before.refunds).toBeCloseTo(full.order.total + 10, 2)
    // What is due is what was collected less what was given back in full.
    expect(after.exciseTaxDue).toBeCloseTo(after.exciseTax - after.returnedExciseTax, 2)
    expect(after.salesTaxDue).toBeCloseTo(after.salesTax - after.returnedSalesTax, 2)
    expect(after.exciseTax - afterSale.exciseTax).toBeGreaterThan(0)
  })
})

// Keep the type import used: the order documents these tests read.
export type { OrderDoc }
