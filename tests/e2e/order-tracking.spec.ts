import { expect, test, type Page } from '@playwright/test'
import { adminClient } from './helpers/admin'
import { openHandoffHoursToday } from './helpers/legal-hours'
import { passAgeGate } from './helpers/storefront'

// Issue 22: a pickup order paid in cash, followed live on the shopper's order page while staff
// move it, offline and back, and looked up from another device with Track Order.

// Watermelon Sea Salt Gummies: $22, 60 in stock (supabase/seed/catalogue.ts).
const PRODUCT = '/product/watermelon-sea-salt-gummies'

// Pickups happen only within the legal hours (6 AM–10 PM shop time); the spec runs at any hour.
test.beforeAll(async ({ baseURL }) => {
  await openHandoffHoursToday(baseURL!)
})

test.beforeEach(async ({ context }) => {
  await passAgeGate(context)
})

const currentStep = (page: Page) =>
  page.getByRole('list', { name: 'Order status' }).locator('[aria-current="step"]')

async function placePickupOrder(page: Page, email: string) {
  await page.goto(PRODUCT)
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await page.goto('/checkout')
  await page.getByLabel('First Name').fill('Ana')
  await page.getByLabel('Last Name').fill('Reyes')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Phone').fill('(510) 555-0100')
  await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
  // The earliest window is preselected; the shop's address is shown for pickup.
  const pickupTime = page.getByLabel('Pickup time')
  await expect(pickupTime).not.toHaveValue('')
  const chosen = (await pickupTime.locator('option:checked').innerText()).trim()
  await expect(
    page.getByRole('main').getByText(/^Pick up at .*1820 Sunset Boulevard/),
  ).toBeVisible()
  await expect(page.getByRole('radio', { name: 'Debit card at pickup' })).toBeVisible()
  await page.getByRole('radio', { name: 'Cash', exact: true }).check()
  await page.getByRole('button', { name: 'Place Order' }).click()
  await expect(page).toHaveURL(/\/checkout\/success/)
  return chosen
}

test('a pickup order paid in cash is followed live, offline and back, and tracked from another device', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const email = `track-${Date.now()}@example.com`
  const chosen = await placePickupOrder(page, email)

  // The confirmation tells the truth: no payment taken, no delivery estimate, the window.
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
  await expect(
    page.getByText(/^Pay \$\d+\.\d\d in cash when you pick up your order\.$/),
  ).toBeVisible()
  await expect(page.getByText(chosen.replace(/^[^,]+, /, ''), { exact: false })).toBeVisible()
  await expect(page.getByText(/payment was received/i)).toHaveCount(0)
  await expect(page.getByText(/2-3 business days/)).toHaveCount(0)
  await expect(page.getByText('Will be provided via email')).toHaveCount(0)

  await page.getByRole('link', { name: 'Track your order' }).click()
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/)
  const id = page.url().split('/orders/')[1]!
  const number = id.slice(0, 8).toUpperCase()
  await expect(page.getByRole('heading', { name: `Order #${number}` })).toBeVisible()
  await expect(currentStep(page)).toContainText('Received')
  await expect(page.getByText('Cash at pickup')).toBeVisible()
  await expect(page.getByText(/Shipped|Delivery:/)).toHaveCount(0)

  // Staff move the order: the open page follows within seconds, without a reload.
  const admin = await adminClient(baseURL!)
  const move = async (from: string, to: string, idChecked = false) => {
    const moved = await admin.rpc('set_order_status', {
      p_id: id,
      p_from: from,
      p_to: to,
      p_id_checked: idChecked,
      // A handoff records the ID's number (issue 31); any will do for an edible.
      p_id_number: idChecked ? `D${Date.now() % 1e7}` : null,
    })
    expect(moved.error).toBeNull()
    expect((moved.data as { applied?: boolean }).applied).toBe(true)
  }
  let reloaded = false
  page.on('load', () => (reloaded = true))
  await move('pending', 'processing')
  await expect(currentStep(page)).toContainText('Preparing', { timeout: 5_000 })
  await move('processing', 'shipped')
  await expect(currentStep(page)).toContainText('Ready for pickup', { timeout: 5_000 })

  // Offline: the last known status, and when it was known.
  await context.setOffline(true)
  await expect(page.getByText(/You're offline\. Showing the last known status\./)).toBeVisible()
  await expect(page.getByText(/Last updated /)).toBeVisible()
  await expect(currentStep(page)).toContainText('Ready for pickup')
  // Staff hand it over meanwhile (the ID checked); the shopper catches up on reconnect.
  await move('shipped', 'delivered', true)
  await context.setOffline(false)
  await expect(currentStep(page)).toContainText('Picked up', { timeout: 10_000 })
  await expect(page.getByText(/You're offline/)).toHaveCount(0)
  expect(reloaded).toBe(false)

  // Another device: Track Order by number and email, never the secret.
  const other = await browser.newContext()
  await passAgeGate(other)
  const phone = await other.newPage()
  await phone.goto(`/track?number=${number}`)
  await expect(phone.getByLabel('Order number')).toHaveValue(number)
  await phone.getByLabel('Email or phone').fill('someone-else@example.com')
  await phone.getByRole('button', { name: 'Track' }).click()
  await expect(
    phone.getByText("We couldn't find an order with that number and email or phone."),
  ).toBeVisible()
  await phone.getByLabel('Email or phone').fill(email)
  await phone.getByRole('button', { name: 'Track' }).click()
  await expect(phone.getByRole('heading', { name: `Order #${number}` })).toBeVisible()
  await expect(currentStep(phone)).toContainText('Picked up')
  await expect(phone.getByText('Cash at pickup')).toBeVisible()
  await expect(phone.getByText('Watermelon Sea Salt Gummies × 1')).toBeVisible()
  // The pair is never put in the address or on the device.
  expect(phone.url()).not.toContain(encodeURIComponent(email))
  const stored = await phone.evaluate(() => JSON.stringify({ ...localStorage }))
  expect(stored).not.toContain(email)

  // The order is not on this other device: its order page says so and points to Track Order.
  await phone.goto(`/orders/${id}`)
  await expect(phone.getByRole('heading', { name: 'Order not found on this device' })).toBeVisible()
  await expect(phone.getByRole('link', { name: 'Track Order' }).last()).toHaveAttribute(
    'href',
    '/track',
  )
  await other.close()
})

test('Track Order follows a status change live on another device', async ({
  browser,
  page,
  baseURL,
}) => {
  const email = `track-live-${Date.now()}@example.com`
  await placePickupOrder(page, email)
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
  const href = await page.getByRole('link', { name: 'Track your order' }).getAttribute('href')
  const id = href!.split('/orders/')[1]!
  const number = id.slice(0, 8).toUpperCase()

  const other = await browser.newContext()
  await passAgeGate(other)
  const phone = await other.newPage()
  await phone.goto('/track')
  await phone.getByLabel('Order number').fill(number)
  await phone.getByLabel('Email or phone').fill('(510) 555-0100')
  await phone.getByRole('button', { name: 'Track' }).click()
  await expect(phone.getByRole('heading', { name: `Order #${number}` })).toBeVisible()
  await expect(currentStep(phone)).toContainText('Received')

  const admin = await adminClient(baseURL!)
  const { error } = await admin.rpc('set_order_status', {
    p_id: id,
    p_from: 'pending',
    p_to: 'processing',
    p_id_checked: false,
  })
  expect(error).toBeNull()
  await expect(currentStep(phone)).toContainText('Preparing', { timeout: 5_000 })
  await other.close()
})
