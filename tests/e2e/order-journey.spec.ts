import { expect, test } from '@playwright/test'
import { openDashboard } from './helpers/admin'
import { openHandoffHoursToday } from './helpers/legal-hours'
import { passAgeGate } from './helpers/storefront'

// Issue 22, both ends at once: a shopper places a pickup order paid in cash and keeps its page
// open; staff on another browser move it on the board; the shopper's page follows without a
// reload, and the handoff waits for the ID check.

// Pickups happen only within the legal hours (6 AM–10 PM shop time); the spec runs at any hour.
test.beforeAll(async ({ baseURL }) => {
  await openHandoffHoursToday(baseURL!)
})

test('staff move a pickup order on the board and the shopper’s open page follows', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await passAgeGate(page)
  await page.goto('/product/watermelon-sea-salt-gummies')
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await page.goto('/checkout')
  await page.getByLabel('First Name').fill('Rosa')
  await page.getByLabel('Last Name').fill('Journey')
  await page.getByLabel('Email').fill(`journey-${Date.now()}@example.com`)
  await page.getByLabel('Phone').fill('(510) 555-0123')
  await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
  const window = (await page.getByLabel('Pickup time').locator('option:checked').innerText())
    .trim()
    .replace(/^[^,]+, /, '')
  await page.getByRole('radio', { name: 'Cash', exact: true }).check()
  await page.getByRole('button', { name: 'Place Order' }).click()
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
  await page.getByRole('link', { name: 'Track your order' }).click()
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/)
  const id = page.url().split('/orders/')[1]!
  const number = `#${id.slice(0, 8).toUpperCase()}`
  const step = page.getByRole('list', { name: 'Order status' }).locator('[aria-current="step"]')
  await expect(step).toContainText('Received')
  let reloaded = false
  page.on('load', () => (reloaded = true))

  // Staff, on their own browser: the card speaks of pickup and shows the window.
  const staff = await browser.newContext({ viewport: { width: 1024, height: 768 } })
  const board = await staff.newPage()
  await openDashboard(board, baseURL!)
  const card = board.locator(`[data-order-id="${id}"]`)
  await expect(card).toBeVisible({ timeout: 15_000 })
  await expect(card).toContainText('Pickup')
  await expect(card).toContainText(window)
  await expect(card).not.toContainText(/Shipped|Delivery:/)

  await card.getByRole('button', { name: /^Move to…/ }).click()
  await board.getByRole('menuitem', { name: 'Ready for pickup' }).click()
  await expect(step).toContainText('Ready for pickup', { timeout: 5_000 })

  // The handoff asks for the ID check first; cancelled, nothing moves.
  const ready = board.getByTestId('column-shipped').locator(`[data-order-id="${id}"]`)
  await ready.getByRole('button', { name: /^Move to…/ }).click()
  await board.getByRole('menuitem', { name: 'Picked up' }).click()
  const check = board.getByRole('alertdialog').filter({ hasText: number })
  await expect(check.getByRole('button', { name: 'ID checked (21+)' })).toBeVisible()
  await check.getByRole('button', { name: 'Cancel' }).click()
  await expect(ready).toBeVisible()
  await board.waitForTimeout(1000)
  await expect(step).toContainText('Ready for pickup')

  await ready.getByRole('button', { name: /^Move to…/ }).click()
  await board.getByRole('menuitem', { name: 'Picked up' }).click()
  // The ID's number too (issue 31): the server counts the person's purchases today by it.
  await board
    .getByRole('alertdialog')
    .getByLabel('ID number')
    .fill(`D${Date.now() % 1e7}`)
  await board.getByRole('button', { name: 'ID checked (21+)' }).click()
  await expect(step).toContainText('Picked up', { timeout: 5_000 })
  expect(reloaded).toBe(false)
  await staff.close()
})
