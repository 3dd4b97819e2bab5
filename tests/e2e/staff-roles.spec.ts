import { expect, test, type Browser, type Page } from '@playwright/test'
import { leaveSettings, openDashboard, openSettingsTab } from './helpers/admin'
import { placeShopperOrder } from './helpers/staff-orders'

// Staff roles (issue 32, docs/decisions/053-staff-roles-and-audit-trail.md): the owner invites a budtender and a driver, each
// with their role; the budtender joins from the link, moves an order on the board and finds
// settings are not theirs; a driver gets only the deliveries board; the owner's Activity shows
// the budtender's move.
test.describe.configure({ mode: 'serial' })

const openSettings = openSettingsTab

async function invite(page: Page, note: string, role: string): Promise<string> {
  const dialog = await openSettings(page)
  await dialog.getByLabel('Who is it for? (a note for you, optional)').fill(note)
  await dialog.getByLabel('Role', { exact: true }).selectOption({ label: role })
  await dialog.getByRole('button', { name: 'Create invitation' }).click()
  const created = dialog.getByRole('status').filter({ hasText: 'Invitation created' })
  await expect(created).toContainText(`Invitation created for ${note}.`)
  await expect(created).toContainText(`Role: ${role}`)
  const link = (await created.getByLabel('Invitation link').textContent())!
  await expect(dialog.getByRole('list', { name: 'Pending invitations' })).toContainText(
    `${note} · ${role} · expires`,
  )
  await leaveSettings(page)
  return link
}

async function join(browser: Browser, link: string, email: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(link)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('staff-pass-4242')
  await page.getByRole('button', { name: 'JOIN THE STAFF' }).click()
  await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
  return { context, page }
}

test('the owner invites a budtender and a driver; the budtender moves an order but cannot open settings', async ({
  page,
  browser,
  baseURL,
}) => {
  const order = await placeShopperOrder(baseURL!, 'pickup', 'Rolecheck')
  await openDashboard(page, baseURL!)
  const budtenderLink = await invite(page, 'Bea', 'Budtender')
  const driverLink = await invite(page, 'Dev', 'Driver')

  // The driver: the deliveries board only (none assigned yet), no catalogue, no settings.
  const driver = await join(browser, driverLink, `dev-${Date.now()}@humo.test`)
  await expect(driver.page.getByRole('tab', { name: 'Deliveries' })).toBeVisible()
  await expect(driver.page.getByRole('tab', { name: 'Products' })).toHaveCount(0)
  await expect(driver.page.getByRole('tab', { name: 'Activity' })).toHaveCount(0)
  await expect(driver.page.locator(`[data-order-id="${order.id}"]`)).toHaveCount(0)
  await driver.context.close()

  // The budtender: the board with every order, the catalogue to read, no analytics or activity.
  const beaEmail = `bea-${Date.now()}@humo.test`
  const bea = await join(browser, budtenderLink, beaEmail)
  await expect(bea.page.getByRole('tab', { name: 'Orders' })).toBeVisible()
  await expect(bea.page.getByRole('tab', { name: 'Analytics' })).toHaveCount(0)
  await expect(bea.page.getByRole('tab', { name: 'Activity' })).toHaveCount(0)
  const card = bea.page.getByTestId('column-pending').locator(`[data-order-id="${order.id}"]`)
  await expect(card).toBeVisible()
  await card.getByRole('button', { name: /^Move to…/ }).click()
  await bea.page.getByRole('menuitem', { name: 'Preparing' }).click()
  const moved = bea.page.getByTestId('column-processing').locator(`[data-order-id="${order.id}"]`)
  await expect(moved).toBeVisible()
  await expect(moved.getByTestId('waiting-to-sync')).toBeHidden({ timeout: 20_000 })

  const settings = await openSettings(bea.page)
  await expect(settings.getByRole('status')).toHaveText(
    'Settings are not available to a budtender. Ask an owner or a manager.',
  )
  await expect(settings.getByRole('button', { name: 'Save' })).toHaveCount(0)
  await expect(settings.getByText('Invitations')).toHaveCount(0)
  await bea.context.close()

  // The owner's Activity: the budtender's move, by whom, from what to what.
  await page.getByRole('tab', { name: 'Activity' }).click()
  const log = page.getByRole('table', { name: 'Activity log' })
  const row = log.getByRole('row').filter({ hasText: order.id })
  await expect(row.first()).toContainText(`${beaEmail} (budtender)`)
  await expect(row.first()).toContainText('Order status changed')
  await expect(row.first()).toContainText('status: pending → processing')
  await expect(log.getByRole('row').filter({ hasText: 'Invitation used' }).first()).toBeVisible()
})

test('the owner sees everyone’s role and cannot demote the last owner', async ({
  page,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  const dialog = await openSettings(page)
  const staff = dialog.getByRole('list', { name: 'Staff' })
  await expect(staff).toContainText('(you)')
  const own = staff.getByRole('combobox', { name: /^Role of owner@humo\.test/ })
  await expect(own).toHaveValue('owner')
  await expect(own).toBeDisabled()
  await expect(staff).toContainText('The shop must keep at least one owner.')
  // A budtender from the first test can be made a manager.
  const bea = staff.getByRole('combobox', { name: /^Role of bea-/ })
  await bea.selectOption({ label: 'Manager' })
  await expect(page.getByText('Role changed')).toBeVisible()
  await expect(bea).toHaveValue('manager')
})
