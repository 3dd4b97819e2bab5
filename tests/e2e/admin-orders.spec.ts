import { expect, test, type Locator, type Page } from '@playwright/test'
import { adminClient, openDashboard } from './helpers/admin'

test.describe.configure({ mode: 'serial' })

async function dragTo(page: Page, card: Locator, target: Locator) {
  const from = (await card.boundingBox())!
  const to = (await target.boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + 20)
  await page.mouse.down()
  // Past the 8 px activation distance, then to the column.
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + 24, { steps: 4 })
  await page.mouse.move(to.x + to.width / 2, to.y + 40, { steps: 12 })
  await page.mouse.up()
}

async function serverStatus(baseURL: string, id: string) {
  const admin = await adminClient(baseURL)
  const { data } = await admin
    .from('orders')
    .select('status')
    .eq('id', id)
    .single<{ status: string }>()
  return data?.status
}

test('dragging an order from Pending to Processing reaches a second staff device', async ({
  page,
  browser,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  const pending = page.getByTestId('column-pending')
  const processing = page.getByTestId('column-processing')
  const card = pending.getByTestId('order-card').first()
  await expect(card).toBeVisible()
  const id = (await card.getAttribute('data-order-id'))!
  const before = Number(await processing.getByTestId('column-count').innerText())

  // A short drag (under 8 px) and a drop on the same column change nothing.
  await dragTo(page, card, pending)
  await expect(pending.locator(`[data-order-id="${id}"]`)).toBeVisible()

  const other = await browser.newContext()
  const second = await other.newPage()
  await openDashboard(second, baseURL!)
  await expect(
    second.getByTestId('column-pending').locator(`[data-order-id="${id}"]`),
  ).toBeVisible()

  await dragTo(page, card, processing)
  await expect(processing.locator(`[data-order-id="${id}"]`)).toBeVisible()
  await expect(processing.getByTestId('column-count')).toHaveText(String(before + 1))
  await expect.poll(() => serverStatus(baseURL!, id)).toBe('processing')

  // The other device hears of it through the live feed, without a reload.
  await expect(
    second.getByTestId('column-processing').locator(`[data-order-id="${id}"]`),
  ).toBeVisible()
  await other.close()

  // Order detail on click.
  await processing.locator(`[data-order-id="${id}"]`).getByRole('button', { name: /^#/ }).click()
  const detail = page.getByRole('dialog')
  await expect(detail.getByText('Items')).toBeVisible()
  await expect(detail.getByText('Status history')).toBeVisible()
  await expect(detail.getByText('Payment method')).toBeVisible()
})

test('a status changed offline waits on the device, then reaches the server', async ({
  page,
  context,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  const card = page.getByTestId('column-pending').getByTestId('order-card').first()
  await expect(card).toBeVisible()
  const id = (await card.getAttribute('data-order-id'))!

  await context.setOffline(true)
  await expect(page.getByTestId('sync-status')).toContainText('Offline')
  // The keyboard way: the card's "Move to…" menu.
  await card.getByRole('button', { name: /Move order/ }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('menuitem', { name: 'Shipped' }).click()
  const moved = page.getByTestId('column-shipped').locator(`[data-order-id="${id}"]`)
  await expect(moved).toBeVisible()
  await expect(moved.getByTestId('waiting-to-sync')).toBeVisible()
  expect(await serverStatus(baseURL!, id)).toBe('pending')

  await context.setOffline(false)
  await expect.poll(() => serverStatus(baseURL!, id), { timeout: 20_000 }).toBe('shipped')
  await expect(moved.getByTestId('waiting-to-sync')).toBeHidden({ timeout: 20_000 })
})

test('cancelled orders stay findable', async ({ page, baseURL }) => {
  await openDashboard(page, baseURL!)
  await page.getByRole('button', { name: /Cancelled \(/ }).click()
  await expect(
    page.getByRole('region', { name: 'Cancelled orders' }).getByTestId('order-card'),
  ).not.toHaveCount(0)
})

test('an admin with an earlier session gets the dashboard offline, from the device', async ({
  page,
  context,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  await expect(page.getByTestId('order-card').first()).toBeVisible()
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await context.setOffline(true)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
  await expect(page.getByText('Total Orders')).toBeVisible()
  await expect(page.getByTestId('sync-status')).toContainText('Offline')
  await expect(page.getByTestId('order-card').first()).toBeVisible()
  await context.setOffline(false)
})
