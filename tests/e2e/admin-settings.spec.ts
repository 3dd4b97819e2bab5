import { expect, test, type Page } from '@playwright/test'
import type { SupabaseClient } from '@supabase/supabase-js'
import { formatMoney } from '../../src/lib/money'
import { adminClient, openDashboard, settingsPanel } from './helpers/admin'
import { expectedTotals, rulesOnServer } from './helpers/compliance'
import { passAgeGate } from './helpers/storefront'

// Watermelon Sea Salt Gummies: $22 (supabase/seed/catalogue.ts).
const PRODUCT = '/product/watermelon-sea-salt-gummies'

async function runCommand(page: Page, text: string) {
  await page.keyboard.press('Control+k')
  const search = page.getByPlaceholder('Search commands...')
  await expect(search).toBeVisible()
  await search.fill(text)
  await page.keyboard.press('Enter')
  await expect(search).toBeHidden()
}

type SettingsRow = {
  standard_shipping: number
  express_delivery: number
  free_shipping_threshold: number
  facts: Record<string, unknown>
  opening_hours: ({ open: string; close: string } | null)[]
  pickup_prep_minutes: number
  pickup_slot_minutes: number
}

let admin: SupabaseClient
let before: SettingsRow

test.beforeAll(async ({ baseURL }) => {
  admin = await adminClient(baseURL!)
  const { data, error } = await admin.from('shop_settings').select('*').single<SettingsRow>()
  if (error) throw error
  before = data
})

// Other specs run against the same shop: put its settings back as they were.
test.afterAll(async () => {
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

test('offline, Admin Settings shows the settings this device holds and says saving needs a connection', async ({
  page,
  context,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  await context.setOffline(true)
  await runCommand(page, 'Admin Settings')
  const dialog = settingsPanel(page)
  await expect(dialog.getByLabel('Express delivery fee ($)')).toHaveValue(
    before.express_delivery.toFixed(2),
  )
  await expect(dialog.getByLabel('Shop name')).toHaveValue(String(before.facts.name))
  await expect(dialog.getByText(/You are offline\..*saving needs a connection/)).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled()
  // The taxes and limits read from the device too; deleting one needs the connection as well.
  await expect(dialog.getByLabel('Cannabis excise rate (%)')).toHaveValue('15')
  await expect(dialog.getByTestId('rule-in-force-excise_rate')).toContainText('In force today')
  await context.setOffline(false)
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled()
})

test('an admin changes the express fee and slogan; a shopper is charged them with the taxes in force', async ({
  page,
  browser,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  await runCommand(page, 'Admin Settings')
  const dialog = settingsPanel(page)
  // The single "Tax rate" of SPEC.md's sample shop is gone: the taxes are rules with dates.
  await expect(dialog.getByLabel('Tax rate (%)', { exact: true })).toHaveCount(0)
  await expect(dialog.getByLabel('Sales tax rate (%)')).toBeVisible()
  await expect(dialog.getByLabel('Express delivery fee ($)')).toHaveValue('19.99')

  // A bad value is refused with a message, and nothing is saved.
  await dialog.getByLabel('Express delivery fee ($)').fill('fast')
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(dialog.getByText('Express delivery fee must be a number')).toBeVisible()
  await expect(dialog.getByText(/Nothing was saved: 1 field needs fixing/)).toBeVisible()
  await expect(dialog.getByLabel('Express delivery fee ($)')).toBeFocused()

  await dialog.getByLabel('Express delivery fee ($)').fill('24.99')
  await dialog.getByLabel('Slogan').fill('Fuma más, vive más, en Echo Park.')
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(dialog.getByText('Express delivery fee must be a number')).toHaveCount(0)
  // The form keeps the saved values while this device pulls them (no flick back to the old ones).
  await expect(dialog.getByLabel('Express delivery fee ($)')).toHaveValue('24.99')

  // A shopper on another device.
  const shopper = await browser.newContext()
  await passAgeGate(shopper)
  const shop = await shopper.newPage()
  await shop.goto(PRODUCT)
  await expect(shop.getByRole('contentinfo')).toContainText('Fuma más, vive más, en Echo Park.')
  await shop.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(shop.getByTestId('cart-count')).toHaveText('1')
  await shop.goto('/checkout')

  const email = `settings-${Date.now()}@example.com`
  await shop.getByLabel('First Name').fill('Ana')
  await shop.getByLabel('Last Name').fill('Reyes')
  await shop.getByLabel('Email').fill(email)
  await shop.getByLabel('Phone').fill('(510) 555-0100')
  await shop.getByLabel('Address', { exact: true }).fill('12 Grand Ave')
  await shop.getByLabel('City').fill('Oakland')
  await shop.getByLabel('ZIP Code').fill('94612')
  await shop.getByRole('radio', { name: /Express \$24\.99/ }).check()

  // $22 of gummies and express $24.99, taxed with the rules in force today (docs/decisions/051-california-taxes-and-daily-limits.md).
  const expected = expectedTotals(await rulesOnServer(admin), { cannabis: 22, deliveryFee: 24.99 })
  const summary = shop.getByRole('complementary', { name: 'Order Summary' })
  await expect(summary).toContainText('$24.99')
  await expect(summary).toContainText(formatMoney(expected.total))

  await shop.getByRole('radio', { name: 'Cash', exact: true }).check()
  await shop.getByRole('button', { name: 'Place Order' }).click()
  await expect(shop.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()

  // The server charged the same: its own computation with the saved fee and its rules.
  await expect
    .poll(async () => {
      const { data } = await admin
        .from('orders')
        .select('subtotal, tax, shipping, total')
        .eq('customer_email', email)
      return data
    })
    .toEqual([{ subtotal: 22, tax: expected.tax, shipping: 24.99, total: expected.total }])
  await shopper.close()
})

test('an admin edits the weekly opening hours and pickup rules; the contact page follows', async ({
  page,
  browser,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  await runCommand(page, 'Admin Settings')
  const dialog = settingsPanel(page)
  await expect(dialog.getByLabel('Monday opens')).toHaveValue('09:00')
  await expect(dialog.getByLabel('Sunday closes')).toHaveValue('17:00')

  // A day that closes before it opens is refused, naming the day.
  await dialog.getByLabel('Tuesday opens').fill('21:00')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByText('Tuesday: the shop must open before it closes')).toBeVisible()
  await dialog.getByLabel('Tuesday opens').fill('09:00')

  await dialog.getByLabel('Monday opens').fill('10:30')
  await dialog.getByLabel('Monday closes').fill('19:00')
  await dialog.getByRole('group', { name: 'Sunday' }).getByLabel('Closed').check()
  await expect(dialog.getByLabel('Sunday opens')).toBeDisabled()
  await dialog.getByLabel('Preparation time (minutes)').fill('45')
  await dialog.getByLabel('Pickup window length').selectOption('60')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()

  const { data } = await admin.from('shop_settings').select('*').single<SettingsRow>()
  expect(data!.opening_hours[1]).toEqual({ open: '10:30', close: '19:00' })
  expect(data!.opening_hours[0]).toBeNull()
  expect(data!.pickup_prep_minutes).toBe(45)
  expect(data!.pickup_slot_minutes).toBe(60)
  expect(data!.facts.hours).toEqual([
    { days: 'Mon', hours: '10:30 AM-7:00 PM' },
    { days: 'Tue-Fri', hours: '9:00 AM-8:00 PM' },
    { days: 'Sat', hours: '10:00 AM-6:00 PM' },
    { days: 'Sun', hours: 'Closed' },
  ])

  // A shopper's contact page shows the same hours.
  const shopper = await browser.newContext()
  await passAgeGate(shopper)
  const shop = await shopper.newPage()
  await shop.goto('/contact')
  await expect(shop.getByText('10:30 AM-7:00 PM')).toBeVisible()
  await shopper.close()
})
