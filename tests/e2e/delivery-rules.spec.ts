import { randomUUID } from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import { openDashboard, signInThroughUi } from './helpers/admin'
import { createDriver, signPad } from './helpers/drivers'
import { openHandoffHoursToday } from './helpers/legal-hours'
import { moveOnServer, newIdNumber, placeShopperOrder } from './helpers/staff-orders'
import { passAgeGate } from './helpers/storefront'

// Delivery by the rules (issue 32, docs/decisions/055-delivery-by-the-rules.md): a cancel says why and the shopper reads
// it; "Out for delivery" names the driver; the driver, offline at the door, shows the receipt,
// checks the ID and has the customer sign; the board sees it delivered once the phone is back
// online, and the signed receipt can be opened later.
test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ baseURL }) => {
  // Handoffs and assignments happen only 6 AM–10 PM shop time; the specs run at any hour.
  await openHandoffHoursToday(baseURL!)
})

const card = (page: Page, column: string, id: string) =>
  page.getByTestId(`column-${column}`).locator(`[data-order-id="${id}"]`)

test('a cancel asks why, and the shopper reads the reason', async ({ page, browser, baseURL }) => {
  const email = `cancel-${Date.now()}@example.com`
  const order = await placeShopperOrder(baseURL!, 'pickup', 'Cato', { email })
  await openDashboard(page, baseURL!)
  await card(page, 'pending', order.id)
    .getByRole('button', { name: /^Move to…/ })
    .click()
  await page.getByRole('menuitem', { name: 'Cancelled' }).click()
  const dialog = page.getByRole('alertdialog', { name: `Cancel order ${order.number}?` })
  await expect(dialog).toBeVisible()
  // Without a reason nothing happens.
  await dialog.getByRole('button', { name: 'Cancel order' }).click()
  await expect(dialog.getByText('Choose why the order is cancelled')).toBeVisible()
  // "Keep order" leaves it where it was.
  await dialog.getByRole('button', { name: 'Keep order' }).click()
  await expect(dialog).toBeHidden()
  await expect(card(page, 'pending', order.id)).toBeVisible()

  await card(page, 'pending', order.id)
    .getByRole('button', { name: /^Move to…/ })
    .click()
  await page.getByRole('menuitem', { name: 'Cancelled' }).click()
  await dialog.getByRole('radio', { name: 'Out of stock' }).check()
  await dialog.getByRole('button', { name: 'Cancel order' }).click()
  await expect(dialog).toBeHidden()
  await expect(card(page, 'pending', order.id)).toHaveCount(0)

  await page.getByRole('button', { name: /^Cancelled \(/ }).click()
  const cancelled = page.getByRole('region', { name: 'Cancelled orders' })
  const cancelledCard = cancelled.locator(`[data-order-id="${order.id}"]`)
  await expect(cancelledCard.getByTestId('waiting-to-sync')).toBeHidden({ timeout: 20_000 })
  await cancelledCard.getByRole('button', { name: order.number, exact: true }).click()
  const detail = page.getByRole('dialog', { name: `Order ${order.number}` })
  await expect(detail.getByTestId('cancel-reason')).toHaveText('Cancelled: Out of stock')
  await page.keyboard.press('Escape')

  // The shopper, on Track Order.
  const shopper = await browser.newContext()
  await passAgeGate(shopper)
  const phone = await shopper.newPage()
  await phone.goto('/track')
  await phone.getByLabel('Order number').fill(order.number.slice(1))
  await phone.getByLabel('Email or phone').fill(email)
  await phone.getByRole('button', { name: 'Track' }).click()
  await expect(phone.getByRole('heading', { name: `Order ${order.number}` })).toBeVisible()
  await expect(phone.getByText('Out of stock')).toBeVisible()
  await shopper.close()
})

test('a delivery goes out with a driver, who hands it over offline with the signed receipt', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const name = `Tess${randomUUID().slice(0, 4)}`
  const driver = await createDriver(baseURL!, name)
  const profile = await driver.client.rpc('my_staff_profile')
  const employeeNumber = (profile.data as { employeeNumber: number }).employeeNumber
  const order = await placeShopperOrder(baseURL!, 'delivery', 'Avery')
  await moveOnServer(baseURL!, order.id, 'pending', 'processing')

  // The board: "Out for delivery" asks for the driver, with each driver's load.
  await openDashboard(page, baseURL!)
  await card(page, 'processing', order.id)
    .getByRole('button', { name: /^Move to…/ })
    .click()
  await page.getByRole('menuitem', { name: 'Out for delivery' }).click()
  const choose = page.getByRole('dialog', { name: 'Choose a driver' })
  const option = choose.getByRole('radio', { name: new RegExp(`^${name}`) })
  await expect(choose.locator('label').filter({ hasText: name })).toContainText(
    '$0.00 of $5,000.00',
  )
  await option.check()
  await choose.getByRole('button', { name: 'Send out' }).click()
  await expect(choose).toBeHidden()
  const out = card(page, 'shipped', order.id)
  await expect(out).toContainText('Out for delivery')
  await expect(out.getByTestId('order-driver')).toHaveText(`Driver: ${name}`)
  await expect(out.getByTestId('waiting-to-sync')).toBeHidden({ timeout: 20_000 })

  // The driver's phone: their deliveries, then offline at the door.
  const phoneContext = await browser.newContext()
  const phone = await phoneContext.newPage()
  await signInThroughUi(phone, driver.email, driver.password)
  await expect(phone.getByRole('tab', { name: 'Deliveries' })).toBeVisible()
  const delivery = phone.getByRole('article', { name: `Delivery ${order.number}` })
  await expect(delivery).toContainText('12 Grand Ave, Oakland, CA 94612', { timeout: 20_000 })
  await expect(delivery).toContainText('3 × Watermelon Sea Salt Gummies')
  await expect(delivery).toContainText('Avery')
  await phoneContext.setOffline(true)
  await delivery.getByRole('button', { name: 'Deliver' }).click()
  const door = phone.getByRole('dialog', { name: `Delivery receipt: order ${order.number}` })
  const receipt = door.getByTestId('delivery-receipt')
  await expect(receipt).toContainText('Humo')
  await expect(receipt).toContainText('Licence C10-0000421-LIC')
  await expect(receipt).toContainText(`Delivered by ${name}, employee #${employeeNumber}`)
  await expect(receipt).toContainText('Avery (Adult use)')
  await expect(receipt).toContainText('Watermelon Sea Salt Gummies')
  await door.getByLabel('ID number').fill(newIdNumber())
  await door.getByRole('button', { name: 'ID checked (21+)' }).click()

  // An empty pad is no signature.
  await door.getByRole('button', { name: 'Hand over' }).click()
  await expect(door.getByText('The customer signs the receipt first')).toBeVisible()
  await signPad(phone, door)
  await door.getByRole('button', { name: 'Hand over' }).click()
  await expect(door).toBeHidden()
  await expect(phone.getByRole('region', { name: 'Handed over' })).toContainText('Waiting to sync')
  await expect(card(page, 'delivered', order.id)).toHaveCount(0)

  // Back online: the handoff reaches the server and the board.
  await phoneContext.setOffline(false)
  const done = card(page, 'delivered', order.id)
  await expect(done).toContainText('Delivered', { timeout: 30_000 })
  await phoneContext.close()

  await done.getByRole('button', { name: order.number, exact: true }).click()
  const detail = page.getByRole('dialog', { name: `Order ${order.number}` })
  await detail.getByRole('button', { name: 'View delivery receipt' }).click()
  const signed = page.getByRole('dialog', { name: `Delivery receipt: order ${order.number}` })
  await expect(signed.getByRole('img', { name: 'Signature of Avery' })).toBeVisible()
  await expect(signed).toContainText(`Delivered by ${name}, employee #${employeeNumber}`)
  await expect(signed.getByRole('button', { name: 'Print' })).toBeVisible()
  // Printed, the receipt is alone on the page.
  await page.emulateMedia({ media: 'print' })
  await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeHidden()
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden()
  await expect(page.getByRole('img', { name: 'Signature of Avery' })).toBeVisible()
  await page.emulateMedia({ media: 'screen' })
})

test('a driver without a first name gives it before the first delivery', async ({
  page,
  baseURL,
}) => {
  const driver = await createDriver(baseURL!, null)
  const order = await placeShopperOrder(baseURL!, 'delivery', 'Noor')
  await moveOnServer(baseURL!, order.id, 'pending', 'processing')
  await moveOnServer(baseURL!, order.id, 'processing', 'shipped', { driver: driver.id })
  await signInThroughUi(page, driver.email, driver.password)
  const delivery = page.getByRole('article', { name: `Delivery ${order.number}` })
  await expect(delivery).toBeVisible({ timeout: 20_000 })
  await expect(delivery.getByRole('button', { name: 'Deliver' })).toBeDisabled()
  const form = page.getByRole('form', { name: 'Your first name' })
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByText('Enter your first name (at most 40 characters)')).toBeVisible()
  await form.getByLabel('Your first name').fill('Nia')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form).toBeHidden()
  const profile = await driver.client.rpc('my_staff_profile')
  expect((profile.data as { firstName: string }).firstName).toBe('Nia')
  await delivery.getByRole('button', { name: 'Deliver' }).click()
  await expect(
    page.getByRole('dialog', { name: `Delivery receipt: order ${order.number}` }),
  ).toContainText('Delivered by Nia, employee #')
})
