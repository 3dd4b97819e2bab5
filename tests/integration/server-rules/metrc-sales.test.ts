// Sales by Metrc package (issue 32, docs/decisions/054-metrc-sales-export.md) through the real supabase-js with real
// tokens: a cannabis product without a package is refused at the handoff with what to fix, the
// package is recorded on each line at the handoff and kept when the product changes package, and
// "Metrc sales" of a day — a pickup, a delivery, a medical sale — checked against the column
// layout the decision records. Returns are in metrc-returns.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shopDate } from '../../../src/lib/compliance-rules'
import { METRC_SALES_COLUMNS } from '../../../src/features/admin/metrc/metrc-layout'
import { accepted, handOverAs, person, useHandoffDriver } from './california-helpers'
import { giveImage, metrcDay, pickupInput, recordedLayout } from './metrc-helpers'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  rpc,
  startRulesBackend,
  testPackageTag,
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

const itemsOf = async (orderId: string) =>
  (
    await backend.db.query<{
      product_name: string
      metrc_package_tag: string | null
      metrc_unit: string | null
      metrc_unit_quantity: string | null
    }>(
      `select product_name, metrc_package_tag, metrc_unit, metrc_unit_quantity::text
         from public.order_items where order_id = $1 order by line_number`,
      [orderId],
    )
  ).rows

describe('the handoff and the Metrc package', () => {
  it('refuses to hand over a cannabis product without a package tag, saying what to fix, and hands it over once entered', async () => {
    const untagged = await createProduct(backend, { name: 'Untagged Kush 3.5g', metrc: null })
    const order = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: untagged.id, quantity: 1 }], { customer: person() }),
      ),
    )
    const refused = await handOverAs(admin, order.id)
    expect(refused).toMatchObject({
      applied: false,
      reason: 'package_tag_missing',
      message:
        'Untagged Kush 3.5g has no Metrc package tag. Enter its Metrc package tag in Products (edit the product, Metrc package) before handing over this order.',
    })
    // Out with its driver (handOverAs, docs/decisions/055-delivery-by-the-rules.md), and not handed over.
    expect(refused.order).toMatchObject({ status: 'shipped' })

    // An owner's direct update cannot go around it either.
    await expect(
      backend.db.query(`update public.orders set status = 'delivered' where id = $1`, [order.id]),
    ).rejects.toThrow(/ID checked|Metrc package tag/)

    // Staff enter the tag (lower case, with spaces, as typed) through the product save.
    await giveImage(backend, untagged.id)
    const saved = await rpc<{ product: Record<string, unknown> }>(
      admin.client,
      'admin_save_product',
      {
        p_product: {
          id: untagged.id,
          metrc_package_tag: ' 1a4ff01000000220000 00123 ',
          metrc_unit: 'Each',
        },
      },
    )
    expect(saved.error).toBeNull()
    expect(saved.data!.product).toMatchObject({
      metrc_package_tag: '1A4FF0100000022000000123',
      metrc_unit: 'Each',
    })
    expect((await handOverAs(admin, order.id)).applied).toBe(true)
  })

  it('refuses a package without its unit, and a weighed unit without the product’s weight', async () => {
    const noUnit = await createProduct(backend, {
      name: 'No Unit Gummies',
      metrc: { tag: testPackageTag(), unit: 'Each' },
    })
    await backend.db.query(`update public.products set metrc_unit = null where id = $1`, [
      noUnit.id,
    ])
    const first = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: noUnit.id, quantity: 1 }], { customer: person() }),
      ),
    )
    const noUnitAnswer = await handOverAs(admin, first.id)
    expect(noUnitAnswer).toMatchObject({ applied: false, reason: 'package_unit_missing' })
    expect(noUnitAnswer.message).toContain('No Unit Gummies has no Metrc unit of measure')

    const weightless = await createProduct(backend, {
      name: 'Weightless Shake',
      weightGrams: null,
      metrc: { tag: testPackageTag(), unit: 'Grams' },
    })
    const second = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: weightless.id, quantity: 1 }], { customer: person() }),
      ),
    )
    const weightlessAnswer = await handOverAs(admin, second.id)
    expect(weightlessAnswer).toMatchObject({ applied: false, reason: 'package_unit_missing' })
    expect(weightlessAnswer.message).toContain('counted in Grams but the product has no weight')
  })

  it('does not ask a package of merchandise', async () => {
    const bag = await createProduct(backend, { isCannabis: false, price: 12 })
    const order = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: bag.id, quantity: 1 }], { customer: person() }),
      ),
    )
    expect((await handOverAs(admin, order.id)).applied).toBe(true)
    expect(await itemsOf(order.id)).toEqual([
      expect.objectContaining({ metrc_package_tag: null, metrc_unit: null }),
    ])
  })

  it('records the package on each line at the handoff and keeps it when the product moves to a new package', async () => {
    const firstTag = testPackageTag()
    const flower = await createProduct(backend, {
      category: 'flower',
      price: 40,
      weightGrams: 3.5,
      metrc: { tag: firstTag, unit: 'Grams' },
    })
    const order = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: flower.id, quantity: 2 }], { customer: person() }),
      ),
    )
    // Not yet handed over: nothing recorded.
    expect((await itemsOf(order.id))[0]).toMatchObject({ metrc_package_tag: null })
    expect((await handOverAs(admin, order.id)).applied).toBe(true)
    expect((await itemsOf(order.id))[0]).toMatchObject({
      metrc_package_tag: firstTag,
      metrc_unit: 'Grams',
      metrc_unit_quantity: '3.500000',
    })

    // New stock arrives in another package, counted Each.
    await giveImage(backend, flower.id)
    const secondTag = testPackageTag()
    const moved = await rpc(admin.client, 'admin_save_product', {
      p_product: { id: flower.id, metrc_package_tag: secondTag, metrc_unit: 'Each' },
    })
    expect(moved.error).toBeNull()
    expect((await itemsOf(order.id))[0]).toMatchObject({
      metrc_package_tag: firstTag,
      metrc_unit: 'Grams',
    })

    const { rows } = await metrcDay(admin, shopDate())
    expect(rows.filter((r) => r['Package Label'] === firstTag)).toEqual([
      expect.objectContaining({ Quantity: '7', 'Unit Of Measure': 'Grams', 'Total Amount': '80' }),
    ])
    expect(rows.some((r) => r['Package Label'] === secondTag)).toBe(false)
  })
})

describe('the product’s package in the admin save', () => {
  it('refuses a tag of the wrong shape, a unit Metrc does not use and a tag without a unit, with a 4xx and the reason', async () => {
    const product = await createProduct(backend, { metrc: null })
    await giveImage(backend, product.id)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ metrc_package_tag: '1A4FF01000000220000001' }, /24-character UID/],
      [{ metrc_package_tag: 'ZZ4FF0100000022000000123' }, /1A4 then 21 letters A-F or digits/],
      [{ metrc_package_tag: '1A4FF010000002200000012G' }, /24-character UID/],
      [{ metrc_package_tag: 42 }, /must be text/],
      [
        { metrc_package_tag: testPackageTag(), metrc_unit: 'Bushels' },
        /unit of measure must be one of Each, Grams/,
      ],
      [{ metrc_package_tag: testPackageTag() }, /Choose the Metrc package's unit of measure/],
    ]
    for (const [fields, message] of cases) {
      const response = await admin.client.rpc('admin_save_product', {
        p_product: { id: product.id, ...fields },
      })
      expect(response.error?.message).toMatch(message)
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
    }
    const bag = await createProduct(backend, { isCannabis: false })
    await giveImage(backend, bag.id)
    const merchandise = await admin.client.rpc('admin_save_product', {
      p_product: { id: bag.id, metrc_package_tag: testPackageTag(), metrc_unit: 'Each' },
    })
    expect(merchandise.error?.message).toMatch(/not cannabis is not sold from a Metrc package/)
    const { rows } = await backend.db.query<{ metrc_package_tag: string | null }>(
      'select metrc_package_tag from public.products where id = any($1)',
      [[product.id, bag.id]],
    )
    expect(rows.every((r) => r.metrc_package_tag === null)).toBe(true)
  })

  it('gives the package to the admin catalogue pull', async () => {
    const tag = testPackageTag()
    const product = await createProduct(backend, { metrc: { tag, unit: 'Each' } })
    const { data } = await rpc<{ rows: Record<string, unknown>[] }>(
      admin.client,
      'pull_products_admin',
      {
        max_rows: 2000,
      },
    )
    expect(data!.rows.find((r) => r.id === product.id)).toMatchObject({
      metrc_package_tag: tag,
      metrc_unit: 'Each',
    })
  })
})

describe('Metrc sales of a day', () => {
  it('writes a pickup, a delivery and a medical sale in the recorded layout, one receipt per order, cannabis lines only', async () => {
    expect(recordedLayout()).toEqual([...METRC_SALES_COLUMNS])
    const gummies = await createProduct(backend, { name: 'Metrc Gummies', price: 20 })
    const preRoll = await createProduct(backend, {
      name: 'Metrc Pre-roll',
      category: 'flower',
      price: 12.5,
      weightGrams: 1,
      metrc: { tag: testPackageTag(), unit: 'Grams' },
    })
    const bag = await createProduct(backend, { name: 'Metrc Tote', price: 8, isCannabis: false })
    const gummiesTag = (
      await backend.db.query<{ t: string }>(
        'select metrc_package_tag t from public.products where id = $1',
        [gummies.id],
      )
    ).rows[0]!.t

    const pickup = accepted(
      await placeOrder(
        backend.anon,
        pickupInput(
          [
            { productId: gummies.id, quantity: 2 },
            { productId: bag.id, quantity: 1 },
          ],
          { customer: person() },
        ),
      ),
    )
    const delivery = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: preRoll.id, quantity: 3 }], {
          customer: person(),
          shippingAddress: {
            address1: '1 Main St',
            city: 'Los Angeles',
            state: 'CA',
            zipCode: '90012',
          },
        }),
      ),
    )
    const medical = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: gummies.id, quantity: 1 }], {
          customer: person(),
          customerKind: 'medical',
          mmic: { number: 'MMIC9876', expiry: '2099-12-31' },
        }),
      ),
    )
    for (const order of [pickup, delivery, medical])
      expect((await handOverAs(admin, order.id, { mmicChecked: order === medical })).applied).toBe(
        true,
      )

    const { header, rows, day } = await metrcDay(admin, shopDate())
    expect(header).toEqual(recordedLayout())
    expect(day.complete).toBe(false)
    const receipt = (orderId: string) =>
      rows.filter((r) => r['Receipt Number'] === orderId.slice(0, 8).toUpperCase())
    const dateTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/

    expect(receipt(pickup.id)).toEqual([
      {
        'Receipt Number': pickup.id.slice(0, 8).toUpperCase(),
        'Sales Date Time': receipt(pickup.id)[0]?.['Sales Date Time'],
        'Sales Customer Type': 'Consumer',
        'Patient License Number': '',
        'Caregiver License Number': '',
        'Identification Method': '',
        'Package Label': gummiesTag,
        Quantity: '2',
        'Unit Of Measure': 'Each',
        'Total Amount': '40',
        'Recipient Address City': '',
        'Recipient Address County': '',
        'Recipient Address Postal Code': '',
      },
    ])
    expect(receipt(pickup.id)[0]?.['Sales Date Time']).toMatch(dateTime)
    expect(receipt(pickup.id)[0]?.['Sales Date Time']?.slice(0, 10)).toBe(shopDate())
    expect(receipt(delivery.id)).toEqual([
      expect.objectContaining({
        'Sales Customer Type': 'Consumer',
        Quantity: '3',
        'Unit Of Measure': 'Grams',
        'Total Amount': '37.5',
        'Recipient Address City': 'Los Angeles',
        'Recipient Address County': '',
        'Recipient Address Postal Code': '90012',
      }),
    ])
    expect(receipt(medical.id)).toEqual([
      expect.objectContaining({
        'Sales Customer Type': 'Patient',
        'Patient License Number': 'MMIC9876',
        'Package Label': gummiesTag,
        Quantity: '1',
        'Total Amount': '20',
        'Recipient Address City': 'San Francisco',
        'Recipient Address Postal Code': '94110',
      }),
    ])
    // The tote is merchandise: not in Metrc.
    expect(rows.some((r) => r['Total Amount'] === '8')).toBe(false)
  })

  it('is for staff only, and refuses a day still to come', async () => {
    const denied = await shopper.client.rpc('admin_metrc_sales', { p_day: shopDate() })
    expect(denied.error?.code).toBe('42501')
    const anon = await backend.anon.rpc('admin_metrc_sales', { p_day: shopDate() })
    expect(anon.error).not.toBeNull()
    const future = await admin.client.rpc('admin_metrc_sales', { p_day: '2999-01-01' })
    expect(future.error?.message).toMatch(/No sales yet on 2999-01-01/)
    expect(future.status).toBe(400)
    const nonsense = await admin.client.rpc('admin_metrc_sales', { p_day: 'yesterday-ish' })
    expect(nonsense.error).not.toBeNull()
    expect(nonsense.status).toBeLessThan(500)
    const mark = await shopper.client.rpc('admin_mark_metrc_exported', { p_day: shopDate() })
    expect(mark.error?.code).toBe('42501')
  })

  it('says which completed days are not exported yet, until they are, and again when a day gains a receipt', async () => {
    const product = await createProduct(backend, { price: 15 })
    const order = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: product.id, quantity: 1 }], { customer: person() }),
      ),
    )
    expect((await handOverAs(admin, order.id)).applied).toBe(true)
    // Handed over three days ago.
    await backend.db.query(
      `update public.orders set handed_off_at = handed_off_at - interval '3 days' where id = $1`,
      [order.id],
    )
    const { rows: dayRows } = await backend.db.query<{ day: string }>(
      `select to_char(public.shop_date(handed_off_at), 'YYYY-MM-DD') as day from public.orders where id = $1`,
      [order.id],
    )
    const day = dayRows[0]!.day
    const pending = async () =>
      (
        (
          await rpc<{ day: string; receipts: number }[]>(
            admin.client,
            'admin_metrc_unexported_days',
            {},
          )
        ).data ?? []
      ).map((d) => d.day)
    expect(await pending()).toContain(day)
    // Today is never "not exported yet": the day is not over.
    expect(await pending()).not.toContain(shopDate())

    const marked = await rpc<{ receipts: number }>(admin.client, 'admin_mark_metrc_exported', {
      p_day: day,
    })
    expect(marked.error).toBeNull()
    expect(marked.data!.receipts).toBeGreaterThanOrEqual(1)
    expect(await pending()).not.toContain(day)
    const { data } = await rpc<{ lastExport: { by: string } }>(admin.client, 'admin_metrc_sales', {
      p_day: day,
    })
    expect(data!.lastExport.by).toBe(admin.email)

    // Had that export been made earlier that day, before the sale, the sale would still be due.
    await backend.db.query(
      `update public.metrc_exports
          set exported_at = (select handed_off_at - interval '1 minute' from public.orders where id = $1)
        where day = $2::date`,
      [order.id, day],
    )
    expect(await pending()).toContain(day)
  })
})
