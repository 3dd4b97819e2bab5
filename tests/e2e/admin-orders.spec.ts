import { expect, test, type Locator, type Page } from '@playwright/test'
import { ADMIN, adminClient, openDashboard } from './helpers/admin'
import { handOverDelivery } from './helpers/drivers'
import { moveOnServer, newIdNumber, placeShopperOrder } from './helpers/staff-orders'

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
  // A pickup order: a delivery going out asks for its driver (delivery-rules.spec.ts).
  const { id } = await placeShopperOrder(baseURL!, 'pickup', 'Olly')
  await openDashboard(page, baseURL!)
  const card = page.getByTestId('column-pending').locator(`[data-order-id="${id}"]`)
  await expect(card).toBeVisible()

  await context.setOffline(true)
  await expect(page.getByTestId('sync-status')).toContainText('Offline')
  // The keyboard way: the card's "Move to…" menu.
  await card.getByRole('button', { name: /^Move to…/ }).focus()
  await page.keyboard.press('Enter')
  // In the order's own words: "Ready for pickup" or "Out for delivery", never "Shipped".
  await expect(page.getByRole('menuitem', { name: 'Shipped' })).toHaveCount(0)
  await page.getByRole('menuitem', { name: 'Ready for pickup' }).click()
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

test('a pickup order reads as pickup, and is handed over only once staff confirm the ID check', async ({
  page,
  baseURL,
}) => {
  const order = await placeShopperOrder(baseURL!, 'pickup', 'Pia')
  await moveOnServer(baseURL!, order.id, 'pending', 'processing')
  await openDashboard(page, baseURL!)
  const card = page.getByTestId('column-processing').locator(`[data-order-id="${order.id}"]`)
  await expect(card).toBeVisible()
  await expect(card).toContainText('Preparing')
  await expect(card).toContainText('3 items')
  await expect(card).toContainText(/ago|just now/)
  await expect(card.getByTestId('order-fulfilment')).toHaveText(
    /^Pickup · (Today|Tomorrow|\w{3}, \w{3} \d+), \d+:\d{2} (AM|PM) – \d+:\d{2} (AM|PM)$/,
  )
  await expect(card).not.toContainText('Delivery:')
  await expect(card).not.toContainText('Shipped')

  // Its "Move to…" menu speaks of pickup.
  await card.getByRole('button', { name: /^Move to…/ }).click()
  const menu = page.getByRole('menu')
  await expect(menu.getByRole('menuitem', { name: 'Ready for pickup' })).toBeVisible()
  await expect(menu.getByRole('menuitem', { name: 'Picked up' })).toBeVisible()
  await expect(menu.getByRole('menuitem', { name: 'Cancelled' })).toBeVisible()
  await expect(menu.getByRole('menuitem', { name: /Shipped|Delivered/ })).toHaveCount(0)
  await menu.getByRole('menuitem', { name: 'Ready for pickup' }).click()
  const ready = page.getByTestId('column-shipped').locator(`[data-order-id="${order.id}"]`)
  await expect(ready).toContainText('Ready for pickup')
  await expect.poll(() => serverStatus(baseURL!, order.id)).toBe('shipped')

  // Picked up asks for the ID check first; Cancel leaves the order where it was.
  await ready.getByRole('button', { name: /^Move to…/ }).click()
  await page.getByRole('menuitem', { name: 'Picked up' }).click()
  const check = page.getByRole('alertdialog')
  await expect(check).toContainText('§26140')
  await check.getByRole('button', { name: 'Cancel' }).click()
  await expect(check).toBeHidden()
  await expect(ready).toBeVisible()
  expect(await serverStatus(baseURL!, order.id)).toBe('shipped')

  // The check needs the number on the ID: without it, a message and nothing moves.
  await ready.getByRole('button', { name: /^Move to…/ }).click()
  await page.getByRole('menuitem', { name: 'Picked up' }).click()
  await expect(check).toContainText('21 or older')
  await check.getByRole('button', { name: 'ID checked (21+)' }).click()
  await expect(check.getByText("Enter the number on the buyer's ID")).toBeVisible()
  await expect(check).toBeVisible()
  expect(await serverStatus(baseURL!, order.id)).toBe('shipped')

  // Confirmed with the number, it goes through, and the history says who checked and when;
  // the number itself is never shown again.
  const idNumber = newIdNumber()
  await check.getByLabel('ID number').fill(idNumber)
  await check.getByRole('button', { name: 'ID checked (21+)' }).click()
  await expect(check).toBeHidden()
  const done = page.getByTestId('column-delivered').locator(`[data-order-id="${order.id}"]`)
  await expect(done).toContainText('Picked up')
  await expect.poll(() => serverStatus(baseURL!, order.id)).toBe('delivered')
  await done.getByRole('button', { name: order.number, exact: true }).click()
  const detail = page.getByRole('dialog', { name: `Order ${order.number}` })
  await expect(detail.getByText(`ID checked (21+) by ${ADMIN.email} at`)).toBeVisible({
    timeout: 20_000,
  })
  await expect(detail).toContainText('Recorded at handoff')
  await expect(detail).toContainText('Adult use (21+)')
  await expect(page.locator('body')).not.toContainText(idNumber)
  await expect(detail.getByTestId('pickup-window')).toContainText('Pickup window:')
  await expect(detail).toContainText('Cash at pickup')
  await expect(detail).not.toContainText('Shipped')
})

test('dragging a delivery order to Completed opens the door flow: receipt, ID check, signature', async ({
  page,
  baseURL,
}) => {
  const order = await placeShopperOrder(baseURL!, 'delivery', 'Dara')
  await moveOnServer(baseURL!, order.id, 'pending', 'processing')
  await moveOnServer(baseURL!, order.id, 'processing', 'shipped')
  await openDashboard(page, baseURL!)
  const card = page.getByTestId('column-shipped').locator(`[data-order-id="${order.id}"]`)
  await expect(card).toContainText('Out for delivery')
  await expect(card).toContainText('Delivery: standard')
  await card.scrollIntoViewIfNeeded()
  await dragTo(page, card, page.getByTestId('column-delivered'))
  const door = page.getByRole('dialog', { name: `Delivery receipt: order ${order.number}` })
  await expect(door.getByTestId('delivery-receipt')).toContainText('Delivered by')
  await expect(door.getByRole('button', { name: 'ID checked (21+)' })).toBeVisible()
  await door.getByRole('button', { name: 'Cancel' }).click()
  await expect(
    page.getByTestId('column-shipped').locator(`[data-order-id="${order.id}"]`),
  ).toBeVisible()
  await dragTo(page, card, page.getByTestId('column-delivered'))
  await handOverDelivery(page, order.number, newIdNumber())
  await expect(
    page.getByTestId('column-delivered').locator(`[data-order-id="${order.id}"]`),
  ).toContainText('Delivered')
  await expect.poll(() => serverStatus(baseURL!, order.id)).toBe('delivered')
})

test('the server refuses a handoff without the ID check', async ({ baseURL }) => {
  const order = await placeShopperOrder(baseURL!, 'pickup', 'Remy')
  const admin = await adminClient(baseURL!)
  const answer = await admin.rpc('set_order_status', {
    p_id: order.id,
    p_from: 'pending',
    p_to: 'delivered',
  })
  expect(answer.error).toBeNull()
  expect(answer.data).toMatchObject({ applied: false, reason: 'id_check_required' })
  expect(await serverStatus(baseURL!, order.id)).toBe('pending')
})

test('at 1024×768 the four columns are side by side, none below the fold', async ({
  page,
  baseURL,
}, testInfo) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await openDashboard(page, baseURL!)
  await expect(page.getByTestId('order-card').first()).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('board-1024x768.png') })
  const headings = ['Pending', 'Processing', 'Ready / Out for delivery', 'Completed']
  const tops: number[] = []
  for (const name of headings) {
    const heading = page.getByRole('heading', { name, exact: true })
    const box = (await heading.boundingBox())!
    // Above the fold, and in one row (reachable sideways at most).
    expect(box.y + box.height).toBeLessThanOrEqual(768)
    tops.push(box.y)
  }
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(4)
  for (const name of headings) {
    const heading = page.getByRole('heading', { name, exact: true })
    await heading.scrollIntoViewIfNeeded()
    await expect(heading).toBeInViewport()
  }
})
