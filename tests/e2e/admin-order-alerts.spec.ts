import { expect, test, type Page } from '@playwright/test'
import { openDashboard } from './helpers/admin'
import { placeShopperOrder } from './helpers/staff-orders'

test.describe.configure({ mode: 'serial' })

/** Counts the tones the page starts (the new-order chime is generated with Web Audio). */
async function countTones(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __tones: number }
    w.__tones = 0
    const start = Object.getOwnPropertyDescriptor(AudioScheduledSourceNode.prototype, 'start')!
      .value as (this: AudioScheduledSourceNode, when?: number) => void
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      w.__tones++
      start.call(this, when)
    }
  })
}

const tones = (page: Page) =>
  page.evaluate(() => (window as unknown as { __tones: number }).__tones)

/** "(3) Humo Admin" → 3; "Humo Admin" → 0. */
async function titleCount(page: Page) {
  const match = /^\((\d+)\) Humo Admin$/.exec(await page.title())
  return match ? Number(match[1]) : 0
}

test('a new order on an open board: toast, sound and the tab title’s count', async ({
  page,
  baseURL,
}) => {
  await countTones(page)
  await openDashboard(page, baseURL!)
  await expect(page.getByTestId('order-card').first()).toBeVisible()
  // The orders already there when the board opened are not announced.
  await page.waitForTimeout(1500)
  await expect(page.getByText(/^New order #/)).toHaveCount(0)
  // One interaction lets the browser play sound.
  await page.getByRole('heading', { name: 'Humo Admin' }).click()
  await expect(page).toHaveTitle(/Humo Admin$/)
  const before = await titleCount(page)

  const started = Date.now()
  const order = await placeShopperOrder(baseURL!, 'pickup', 'Nova')
  await expect(page.getByText(`New order ${order.number}`)).toBeVisible({ timeout: 5_000 })
  test.info().annotations.push({
    type: 'new order → toast (ms)',
    description: String(Date.now() - started),
  })
  await expect(page).toHaveTitle(`(${before + 1}) Humo Admin`)
  await expect.poll(() => tones(page)).toBeGreaterThan(0)
  const card = page.getByTestId('column-pending').locator(`[data-order-id="${order.id}"]`)
  await expect(card).toContainText('Pickup')

  // Opening the order counts it as seen, on this device, after a reload too.
  await card.getByRole('button', { name: order.number, exact: true }).click()
  await expect(page.getByRole('dialog', { name: `Order ${order.number}` })).toBeVisible()
  await expect(page).toHaveTitle(before > 0 ? `(${before}) Humo Admin` : 'Humo Admin')
  await page.keyboard.press('Escape')
  await page.reload()
  await expect(page.getByTestId('order-card').first()).toBeVisible()
  await expect.poll(() => titleCount(page)).toBe(before)
})

test('the mute switch silences the sound and is remembered on the device', async ({
  page,
  baseURL,
}) => {
  await countTones(page)
  await openDashboard(page, baseURL!)
  const mute = page.getByRole('checkbox', { name: 'Mute new order sound' })
  await expect(mute).not.toBeChecked()
  await page.getByText('Mute new order sound').click()
  await expect(mute).toBeChecked()
  await page.reload()
  await expect(page.getByRole('checkbox', { name: 'Mute new order sound' })).toBeChecked()
  await expect(page.getByTestId('order-card').first()).toBeVisible()
  await page.waitForTimeout(1000)
  await page.getByRole('heading', { name: 'Humo Admin' }).click()

  const order = await placeShopperOrder(baseURL!, 'delivery', 'Quinn')
  await expect(page.getByText(`New order ${order.number}`)).toBeVisible({ timeout: 5_000 })
  expect(await tones(page)).toBe(0)

  // Unmuted again for the next specs on this device.
  await page.getByText('Mute new order sound').click()
  await expect(page.getByRole('checkbox', { name: 'Mute new order sound' })).not.toBeChecked()
})
