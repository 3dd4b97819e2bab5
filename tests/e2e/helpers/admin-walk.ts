import { expect, type Locator, type Page } from '@playwright/test'
import { openDashboard } from './admin'
import { moveOnServer, placeShopperOrder } from './staff-orders'

/**
 * What a walk of the admin does at each stop. `check` looks at what is shown now (within a
 * dialog's selector when one is open); `mainControl` sees the controls staff press with a finger;
 * `inDialog` sees each command palette dialog while it is open.
 */
export type AdminStops = {
  check(where: string, within?: string): Promise<void>
  mainControl?(control: Locator, what: string): Promise<void>
  inDialog?(command: string, dialog: Locator): Promise<void>
}

const PALETTE_DIALOGS = [
  ['Bulk Edit Products', /Bulk Edit/],
  ['Import Products', 'Import Products'],
  ['View Notifications', /Notifications/],
  ['Manage Featured Products', /Featured/],
  ['Generate Sales Report', /Sales Report/],
] as const

/**
 * Every admin page and open dialog, in one page: the login, the board with an order ready for
 * pickup (its Move to… menu, the ID check, its detail), the products with the product form, the
 * brands, the analytics, the reviews, the waitlist, the settings, and the command palette with
 * each dialog it opens. Shared by the axe
 * audit and the touch-target sweep so both see the same states.
 */
export async function walkAdmin(page: Page, baseURL: string, shopper: string, stops: AdminStops) {
  const main = async (control: Locator, what: string) => stops.mainControl?.(control, what)
  // An order ready for pickup: its handoff asks for the ID check.
  const order = await placeShopperOrder(baseURL, 'pickup', shopper)
  await moveOnServer(baseURL, order.id, 'pending', 'processing')
  await moveOnServer(baseURL, order.id, 'processing', 'shipped')

  await page.goto('/admin')
  await expect(page.getByText('Secure Authentication Portal')).toBeVisible()
  await stops.check('admin login')
  await main(page.getByRole('button', { name: 'ACCESS DASHBOARD' }), 'ACCESS DASHBOARD')

  await openDashboard(page, baseURL)
  const card = page.getByTestId('column-shipped').locator(`[data-order-id="${order.id}"]`)
  await expect(card).toBeVisible()
  await stops.check('dashboard, order board')
  for (const tab of [
    'Orders',
    'Products',
    'Brands',
    'Analytics',
    'Reviews',
    'Waitlist',
    'Settings',
  ])
    await main(page.getByRole('tab', { name: tab }).first(), `${tab} tab`)
  const move = card.getByRole('button', { name: /^Move to…/ })
  await main(move, 'Move to…')
  await move.click()
  await expect(page.getByRole('menu')).toBeVisible()
  await stops.check('order card, Move to… menu', '[role="menu"]')
  await page.getByRole('menuitem', { name: 'Picked up' }).click()
  const check = page.getByRole('alertdialog')
  await expect(check).toBeVisible()
  await stops.check('ID check dialog', '[role="alertdialog"]')
  await check.getByRole('button', { name: 'Cancel' }).click()
  await expect(check).toBeHidden()
  await card.getByRole('button', { name: order.number, exact: true }).click()
  const detail = page.getByRole('dialog', { name: `Order ${order.number}` })
  await expect(detail).toBeVisible()
  await stops.check('order detail dialog', '[role="dialog"]')
  await page.keyboard.press('Escape')
  await expect(detail).toBeHidden()

  await page.getByRole('tab', { name: 'Products' }).click()
  await expect(page.getByPlaceholder('Search products...')).toBeVisible()
  await expect(page.getByRole('row').nth(2)).toBeVisible()
  await stops.check('products tab')
  const add = page.getByRole('button', { name: 'Add Product' })
  await main(add, 'Add Product')
  await add.click()
  const form = page.getByRole('dialog', { name: 'Add New Product' })
  await expect(form).toBeVisible()
  await stops.check('product form (Add New Product)', '[role="dialog"]')
  await page.keyboard.press('Escape')
  await expect(form).toBeHidden()

  await page.getByRole('tab', { name: 'Brands' }).click()
  await stops.check('brands tab')
  await page.getByRole('tab', { name: 'Analytics' }).click()
  await stops.check('analytics tab')
  // Reviews and the membership waitlist (issue 33): each tab once it has read what it lists.
  await page.getByRole('tab', { name: 'Reviews' }).click()
  await expect(
    page.getByRole('tabpanel', { name: 'Reviews' }).getByRole('region', { name: 'Reviews' }),
  ).toBeVisible()
  await stops.check('reviews tab')
  await page.getByRole('tab', { name: 'Waitlist' }).click()
  const waitlist = page.getByRole('tabpanel', { name: 'Waitlist' })
  await expect(waitlist.getByRole('heading', { name: /^Membership waitlist/ })).toBeVisible()
  await expect(waitlist.getByText('Loading the waitlist…')).toHaveCount(0)
  await stops.check('waitlist tab')
  await main(waitlist.getByRole('button', { name: 'Export CSV' }), 'Export CSV')
  // Admin Settings is a tab of the navigation (issue 33), no longer a palette dialog.
  await page.getByRole('tab', { name: 'Settings' }).click()
  const settings = page.getByRole('tabpanel', { name: 'Settings' })
  await expect(settings.getByRole('heading', { name: 'Admin Settings' })).toBeVisible()
  await stops.check('settings tab')
  await stops.inDialog?.('Admin Settings', settings)

  await page.keyboard.press('Control+k')
  await expect(page.getByPlaceholder('Search commands...')).toBeVisible()
  await stops.check('command palette', '[role="dialog"]')
  await page.keyboard.press('Escape')
  for (const [command, dialogName] of PALETTE_DIALOGS) {
    await page.keyboard.press('Control+k')
    const box = page.getByPlaceholder('Search commands...')
    await expect(box).toBeVisible()
    await box.fill(command)
    await page
      .getByRole('option', { name: new RegExp(command) })
      .first()
      .click()
    const dialog = page.getByRole('dialog', { name: dialogName })
    await expect(dialog).toBeVisible()
    await stops.check(`${command} dialog`, '[role="dialog"]')
    await stops.inDialog?.(command, dialog)
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  }
}
