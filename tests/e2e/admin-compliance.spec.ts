import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import type { SupabaseClient } from '@supabase/supabase-js'
import { EXCISE_INCLUDED_TEXT } from '../../src/lib/california-tax'
import { shopDate } from '../../src/lib/compliance-rules'
import { ADMIN, adminClient, leaveSettings, openDashboard, openSettingsTab } from './helpers/admin'
import { deleteRulesFromToday, rulesOnServer } from './helpers/compliance'
import { handOverDelivery } from './helpers/drivers'
import { moveOnServer, newIdNumber, placeShopperOrder } from './helpers/staff-orders'
import { passAgeGate } from './helpers/storefront'

// Issue 31 through the back office: CDTFA's worked example entered in Admin Settings and paid by
// a real shopper, and the handoff with the ID number and, for a medical patient, "MMIC checked".
test.describe.configure({ mode: 'serial' })

// Gelato Shatter: a $35 concentrate of 1 g (supabase/seed/catalogue.ts).
const PRODUCT = 'Gelato Shatter'
const PRODUCT_PAGE = '/product/gelato-shatter'

type SettingsRow = {
  standard_shipping: number
  express_delivery: number
  free_shipping_threshold: number
  facts: Record<string, unknown>
  opening_hours: unknown
  pickup_prep_minutes: number
  pickup_slot_minutes: number
}

let admin: SupabaseClient
let before: SettingsRow

/** A phone number of its own, so no other spec's orders count toward this buyer's day. */
const newPhone = () => `(213) 555-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`

async function openSettings(page: Page) {
  const dialog = await openSettingsTab(page)
  await expect(dialog.getByRole('heading', { name: 'Taxes and daily limits' })).toBeVisible()
  return dialog
}

test.beforeAll(async ({ baseURL }) => {
  admin = await adminClient(baseURL!)
  const { data, error } = await admin.from('shop_settings').select('*').single<SettingsRow>()
  if (error) throw error
  before = data
  // Each run takes some of the product; the spec's data folder lives on between runs.
  const { data: product } = await admin
    .from('products')
    .select('id')
    .eq('name', PRODUCT)
    .single<{ id: string }>()
  const restocked = await admin.rpc('admin_save_product', {
    p_product: { id: product!.id, quantity_available: 100 },
  })
  if (restocked.error) throw restocked.error
})

// Other specs run against the same shop: its rules and fees as they were.
test.afterAll(async () => {
  await deleteRulesFromToday(admin, ['sales_tax_rate', 'local_tax_rate', 'excise_rate'])
  const { error } = await admin.rpc('admin_save_shop_settings', {
    p_settings: {
      standardShipping: before.standard_shipping,
      expressDelivery: before.express_delivery,
      freeShippingThreshold: before.free_shipping_threshold,
      facts: before.facts,
      openingHours: before.opening_hours,
      pickupPrepMinutes: before.pickup_prep_minutes,
      pickupSlotMinutes: before.pickup_slot_minutes,
    },
  })
  if (error) throw error
})

test("CDTFA's example entered in Admin Settings: a $35 product delivered totals $54.28", async ({
  page,
  browser,
  baseURL,
}) => {
  const today = shopDate()
  await openDashboard(page, baseURL!)
  const dialog = await openSettings(page)

  // Each rule shows the value in force today and opens with it, from today.
  const sales = dialog.getByRole('group', { name: 'Sales tax' })
  await expect(sales.getByTestId('rule-in-force-sales_tax_rate')).toContainText('In force today')
  await expect(dialog.getByLabel('Cannabis excise rate (%)')).toHaveValue('15')
  await expect(dialog.getByLabel('Local cannabis business tax rate (%)')).toHaveValue('10')
  await expect(sales.getByLabel('Takes effect on')).toHaveValue(today)

  // A bad rate or a day in the past is refused with a message, and nothing is saved.
  await dialog.getByLabel('Sales tax rate (%)').fill('8.5555')
  await sales.getByLabel('Takes effect on').fill('2020-01-01')
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(sales.getByText('Sales tax rate can have at most 3 decimals')).toBeVisible()
  await expect(sales.getByText(/The date cannot be before today/)).toBeVisible()
  await expect(dialog.getByText(/Nothing was saved: 2 fields need fixing/)).toBeVisible()
  // Only the tax rules: other specs open today's handoff hours (helpers/legal-hours.ts).
  const taxRule = (r: { rule: string }) =>
    ['sales_tax_rate', 'local_tax_rate', 'excise_rate'].includes(r.rule)
  expect(
    (await rulesOnServer(admin)).filter((r) => r.effectiveFrom === today && taxRule(r)),
  ).toEqual([])

  // Sales tax 8.5% from today, the 10% city tax passed on; standard delivery $5, free from $100.
  await dialog.getByLabel('Sales tax rate (%)').fill('8.5')
  await sales.getByLabel('Takes effect on').fill(today)
  await sales.getByLabel('Source (optional)').fill('CDTFA worked example')
  await dialog.getByLabel('Passed on to the buyer, separately stated').check()
  await dialog.getByLabel('Standard delivery fee ($)').fill('5')
  await dialog.getByLabel('Free delivery threshold ($)').fill('100')
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(sales.getByTestId('rule-in-force-sales_tax_rate')).toContainText('8.5%')
  await expect(
    dialog.getByRole('group', { name: 'Local cannabis business tax' }).getByTestId(/rule-in-force/),
  ).toContainText('passed on to the buyer as "City cannabis business tax"')
  await expect(dialog.getByLabel('Sales tax rate (%)')).toHaveValue('8.5')

  const saved = (await rulesOnServer(admin)).filter((r) => r.effectiveFrom === today)
  expect(
    saved.map(({ rule, value, passedOn, source }) => ({ rule, value, passedOn, source })),
  ).toEqual(
    expect.arrayContaining([
      { rule: 'sales_tax_rate', value: 0.085, passedOn: false, source: 'CDTFA worked example' },
      { rule: 'local_tax_rate', value: 0.1, passedOn: true, source: null },
    ]),
  )
  await leaveSettings(page)

  // A shopper buys one $35 concentrate, delivered.
  const shopper = await browser.newContext()
  await passAgeGate(shopper)
  const shop = await shopper.newPage()
  await shop.goto(PRODUCT_PAGE)
  await shop.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(shop.getByTestId('cart-count')).toHaveText('1')
  await shop.goto('/checkout')
  const email = `cdtfa-${Date.now()}@example.com`
  await shop.getByLabel('First Name').fill('Casey')
  await shop.getByLabel('Last Name').fill('Diaz')
  await shop.getByLabel('Email').fill(email)
  await shop.getByLabel('Phone').fill(newPhone())
  await shop.getByRole('radio', { name: 'Delivery', exact: true }).check()
  await shop.getByRole('radio', { name: /^Standard/ }).check()
  await shop.getByLabel('Address', { exact: true }).fill('12 Grand Ave')
  await shop.getByLabel('City').fill('Oakland')
  await shop.getByLabel('ZIP Code').fill('94612')
  await shop.getByRole('radio', { name: 'Cash', exact: true }).check()
  const summary = shop.getByRole('complementary', { name: 'Order Summary' })
  await expect(summary).toContainText('$54.28')
  await shop.getByRole('button', { name: 'Place Order' }).click()
  await expect(shop.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
  await expect(shop.getByText('$54.28').first()).toBeVisible()
  await shopper.close()

  const { data: placed } = await admin
    .from('orders')
    .select('id, total')
    .eq('customer_email', email)
    .single<{ id: string; total: number }>()
  expect(placed!.total).toBe(54.28)
  const number = `#${placed!.id.slice(0, 8).toUpperCase()}`

  // The board's order detail: each tax on its own line, the total, the excise statement.
  const card = page.locator(`[data-order-id="${placed!.id}"]`)
  await card.getByRole('button', { name: number, exact: true }).click()
  const detail = page.getByRole('dialog', { name: `Order ${number}` })
  const totals = detail.getByTestId('order-totals')
  const lines: [string, string][] = [
    ['Subtotal', '$35.00'],
    ['Delivery fee', '$5.00'],
    ['City cannabis business tax (10%)', '$3.50'],
    ['Cannabis excise tax (15%)', '$6.53'],
    ['Sales tax (8.5%)', '$4.25'],
    ['Total', '$54.28'],
  ]
  for (const [label, amount] of lines) {
    // Each amount on the line of its label.
    await expect(totals.locator(`dt:text-is("${label}") + dd`)).toHaveText(amount)
  }
  await expect(totals).toContainText(EXCISE_INCLUDED_TEXT)
  await expect(detail.getByTestId('customer-kind')).toHaveText('Adult use (21+)')
})

test('a handoff records the ID number, and a medical order without sales tax needs "MMIC checked"', async ({
  page,
  baseURL,
}) => {
  const adult = await placeShopperOrder(baseURL!, 'delivery', 'Ada', { phone: newPhone() })
  const nextYear = `${Number(shopDate().slice(0, 4)) + 1}-06-30`
  const mmicNumber = `P${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
  const patient = await placeShopperOrder(baseURL!, 'pickup', 'Mica', {
    customerKind: 'medical',
    mmic: { number: mmicNumber, expiry: nextYear },
    phone: newPhone(),
  })
  for (const order of [adult, patient]) {
    await moveOnServer(baseURL!, order.id, 'pending', 'processing')
    await moveOnServer(baseURL!, order.id, 'processing', 'shipped')
  }
  await openDashboard(page, baseURL!)
  const shipped = page.getByTestId('column-shipped')

  // Adult use: 21+, and the number on the ID.
  const adultCard = shipped.locator(`[data-order-id="${adult.id}"]`)
  await adultCard.getByRole('button', { name: /^Move to…/ }).click()
  await page.getByRole('menuitem', { name: 'Delivered' }).click()
  // A delivery's handoff is the door flow: the receipt, the ID check, the customer's signature.
  const door = page.getByRole('dialog', { name: `Delivery receipt: order ${adult.number}` })
  await expect(door.getByRole('checkbox', { name: 'MMIC checked' })).toHaveCount(0)
  const idNumber = newIdNumber()
  await handOverDelivery(page, adult.number, idNumber)
  const check = page.getByRole('alertdialog')
  await expect(
    page.getByTestId('column-delivered').locator(`[data-order-id="${adult.id}"]`),
  ).toBeVisible()
  await expect
    .poll(async () => {
      const { data } = await admin
        .from('orders')
        .select('status, id_number_hash')
        .eq('id', adult.id)
        .single<{ status: string; id_number_hash: string | null }>()
      return data?.status === 'delivered' && data.id_number_hash !== null
    })
    .toBe(true)

  // Medical with a valid MMIC, no sales tax: 18+, the card shown, and "MMIC checked" required.
  const patientCard = shipped.locator(`[data-order-id="${patient.id}"]`)
  await patientCard.getByRole('button', { name: /^Move to…/ }).click()
  await page.getByRole('menuitem', { name: 'Picked up' }).click()
  await expect(check.getByTestId('mmic-check')).toContainText(mmicNumber)
  await check.getByLabel('ID number').fill(newIdNumber())
  await check.getByRole('button', { name: 'ID checked (18+)' }).click()
  await expect(
    check.getByText('Check the patient\'s MMIC and tick "MMIC checked" first'),
  ).toBeVisible()
  expect((await moveOnServer(baseURL!, patient.id, 'shipped', 'delivered')).reason).toBe(
    'mmic_check_required',
  )
  await check.getByRole('checkbox', { name: 'MMIC checked' }).check()
  await check.getByRole('button', { name: 'ID checked (18+)' }).click()
  await expect(check).toBeHidden()
  const done = page.getByTestId('column-delivered').locator(`[data-order-id="${patient.id}"]`)
  await expect(done).toContainText('Picked up')
  await done.getByRole('button', { name: patient.number, exact: true }).click()
  const detail = page.getByRole('dialog', { name: `Order ${patient.number}` })
  await expect(detail.getByText(`ID checked (18+), MMIC checked by ${ADMIN.email}`)).toBeVisible({
    timeout: 20_000,
  })
  await expect(detail.getByTestId('customer-kind')).toHaveText('Medical patient (18+)')
  await expect(detail.getByTestId('mmic')).toContainText(mmicNumber)
  await expect(detail.getByTestId('order-totals')).not.toContainText('Sales tax')
  await expect(page.locator('body')).not.toContainText(idNumber)
})

test("the server's refusal of a handoff over the buyer's daily limit reads as a notice", async ({
  page,
  baseURL,
}) => {
  // Two orders of 5 g of concentrate with different emails and phones: the same ID at handoff
  // makes them one person's 10 g, over the 8 g of a day.
  const first = await placeShopperOrder(baseURL!, 'delivery', 'Lee', {
    product: PRODUCT,
    quantity: 5,
    phone: newPhone(),
  })
  const second = await placeShopperOrder(baseURL!, 'delivery', 'Lea', {
    product: PRODUCT,
    quantity: 5,
    phone: newPhone(),
  })
  const idNumber = newIdNumber()
  for (const order of [first, second]) {
    await moveOnServer(baseURL!, order.id, 'pending', 'processing')
    await moveOnServer(baseURL!, order.id, 'processing', 'shipped')
  }
  expect(
    (await moveOnServer(baseURL!, first.id, 'shipped', 'delivered', { idNumber })).applied,
  ).toBe(true)

  await openDashboard(page, baseURL!)
  const card = page.getByTestId('column-shipped').locator(`[data-order-id="${second.id}"]`)
  await card.getByRole('button', { name: /^Move to…/ }).click()
  await page.getByRole('menuitem', { name: 'Delivered' }).click()
  await handOverDelivery(page, second.number, idNumber.toLowerCase())

  const notice = page.getByRole('list', { name: 'Order notices' }).getByRole('alert')
  await expect(notice).toContainText(
    `Order ${second.number} was not moved to Delivered: This buyer's sales today would pass the daily limit.`,
  )
  await expect(notice).toContainText("Today's limit is 8 g of concentrate.")
  await expect(notice).toContainText('Do not hand over this order.')
  await expect(card).toBeVisible()
})

test('a rate entered ahead shows as upcoming until its day, and can be deleted', async ({
  page,
  baseURL,
}) => {
  const today = shopDate()
  const day = `${Number(today.slice(0, 4)) + 1}-01-01`
  await openDashboard(page, baseURL!)
  const dialog = await openSettings(page)
  const excise = dialog.getByRole('group', { name: 'Cannabis excise tax' })
  await dialog.getByLabel('Cannabis excise rate (%)').fill('17.5')
  await excise.getByLabel('Takes effect on').fill(day)
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  const label = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  })
  await expect(excise).toContainText(`From ${label}`)
  await expect(excise).toContainText('17.5%')
  // Today's rate is still the one in force, and the form opens with it again.
  await expect(excise.getByTestId('rule-in-force-excise_rate')).toContainText('15%')
  await expect(dialog.getByLabel('Cannabis excise rate (%)')).toHaveValue('15')

  await excise
    .getByRole('button', { name: `Delete the cannabis excise rate from ${label}` })
    .click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete this rule?' })
  await expect(confirm).toContainText('The value before it stays in force.')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Rule deleted')).toBeVisible()
  await expect(excise).not.toContainText('17.5%')
  expect((await rulesOnServer(admin)).filter((r) => r.effectiveFrom === day)).toEqual([])
})

test('Analytics: the tax report of the month, as the server counts it, with its CSV', async ({
  page,
  baseURL,
}) => {
  const today = shopDate()
  const from = `${today.slice(0, 8)}01`
  const to = `${today.slice(0, 8)}${String(new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 0)).getUTCDate()).padStart(2, '0')}`
  await openDashboard(page, baseURL!)
  await page.getByRole('tab', { name: 'Analytics' }).click()
  const panel = page.getByRole('region', { name: 'Tax report' })
  await panel.getByRole('combobox', { name: 'Report for' }).click()
  await page.getByRole('option', { name: 'Month' }).click()
  const answer = await admin.rpc('admin_tax_report', { p_from: from, p_to: to })
  const report = answer.data as { orders: number; exciseTax: number; salesTax: number }
  // The handoffs above are this month's: at least them.
  expect(report.orders).toBeGreaterThan(0)
  await expect(panel.getByTestId('tax-report-orders')).toHaveText(String(report.orders))
  await expect(panel.getByTestId('tax-report-exciseTax')).toHaveText(
    `$${Number(report.exciseTax).toFixed(2)}`,
  )
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download tax report CSV' }).click(),
  ])
  const csv = await readFile(await file.path(), 'utf8')
  expect(csv.split('\r\n')[0]).toBe('metric,value,key')
  expect(csv).toContain(
    `Cannabis excise tax collected,${Number(report.exciseTax).toFixed(2)},exciseTax`,
  )
  expect(csv).toContain(`Sales tax collected,${Number(report.salesTax).toFixed(2)},salesTax`)
})
