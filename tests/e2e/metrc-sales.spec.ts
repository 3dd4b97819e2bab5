import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import Papa from 'papaparse'
import { METRC_SALES_COLUMNS } from '../../src/features/admin/metrc/metrc-layout'
import { adminClient, openDashboard } from './helpers/admin'
import { moveOnServer, placeShopperOrder } from './helpers/staff-orders'

// Issue 32 (docs/decisions/054-metrc-sales-export.md): "Metrc sales" in the back office. A pickup handed over today is
// in the day's CSV, from the package its product is sold from; the dashboard says when a completed
// day (the demo's deliveries of earlier days) has not been exported, until it is.

test.describe.configure({ mode: 'serial' })

async function runCommand(page: Page, text: string) {
  await page.keyboard.press('Control+k')
  const search = page.getByPlaceholder('Search commands...')
  await expect(search).toBeVisible()
  await search.fill(text)
  await page.keyboard.press('Enter')
  await expect(search).toBeHidden()
}

async function downloadCsv(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Metrc sales' })
  await expect(dialog.getByTestId('metrc-sales-summary')).toBeVisible()
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download CSV' }).click(),
  ])
  await expect(dialog.getByText(/^Downloaded metrc-sales-/)).toBeVisible()
  return {
    name: file.suggestedFilename(),
    rows: Papa.parse<string[]>((await readFile(await file.path(), 'utf8')).trim()).data,
  }
}

test('a pickup handed over today is in the day’s Metrc sales CSV, by its package', async ({
  page,
  baseURL,
}) => {
  const order = await placeShopperOrder(baseURL!, 'pickup', 'Metrc', { quantity: 1 })
  const handed = await moveOnServer(baseURL!, order.id, 'pending', 'delivered')
  expect(handed.applied).toBe(true)
  const admin = await adminClient(baseURL!)
  const { data: product, error } = await admin
    .from('products')
    .select('metrc_package_tag')
    .eq('name', 'Watermelon Sea Salt Gummies')
    .single<{ metrc_package_tag: string }>()
  expect(error).toBeNull()
  expect(product!.metrc_package_tag).toMatch(/^1A4[0-9A-F]{21}$/)

  await openDashboard(page, baseURL!)
  await runCommand(page, 'Metrc Sales')
  const { name, rows } = await downloadCsv(page)
  expect(name).toMatch(/^metrc-sales-\d{4}-\d\d-\d\d\.csv$/)
  expect(rows[0]).toEqual([...METRC_SALES_COLUMNS])
  const receiptNumber = order.number.replace('#', '')
  const row = rows.find((r) => r[0] === receiptNumber)
  expect(row).toBeDefined()
  const cell = (column: (typeof METRC_SALES_COLUMNS)[number]) =>
    row![METRC_SALES_COLUMNS.indexOf(column)]
  expect(cell('Sales Customer Type')).toBe('Consumer')
  expect(cell('Package Label')).toBe(product!.metrc_package_tag)
  expect(cell('Quantity')).toBe('1')
  expect(cell('Unit Of Measure')).toBe('Each')
  expect(cell('Recipient Address City')).toBe('')
})

test('the dashboard says a completed day has not been exported, until its CSV is downloaded', async ({
  page,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  // The demo's deliveries were handed over on earlier days.
  const notice = page.getByRole('status', { name: 'Metrc sales not exported' })
  await expect(notice).toContainText('have not been exported yet')
  const first = (await notice.innerText()).match(/Metrc sales for (.+?) have not/)![1]!
  await notice.getByRole('button', { name: 'Export Metrc sales' }).click()
  const dialog = page.getByRole('dialog', { name: 'Metrc sales' })
  await expect(dialog.getByTestId('metrc-sales-summary')).toContainText(first)
  const { rows } = await downloadCsv(page)
  expect(rows[0]).toEqual([...METRC_SALES_COLUMNS])
  expect(rows.length).toBeGreaterThan(1)
  await dialog.getByRole('button', { name: 'Close' }).click()
  // That day is no longer named (another may be, until it is exported too).
  await expect(page.getByText(`Metrc sales for ${first} have not been exported yet`)).toHaveCount(0)
})

test('staff record a return on a completed order: the cannabis is held for destruction, not restocked', async ({
  page,
  baseURL,
}) => {
  const order = await placeShopperOrder(baseURL!, 'pickup', 'Returns', { quantity: 2 })
  expect((await moveOnServer(baseURL!, order.id, 'pending', 'delivered')).applied).toBe(true)
  const admin = await adminClient(baseURL!)
  const productOf = async () =>
    (
      await admin
        .from('products')
        .select('quantity_available, destruction_held')
        .eq('name', 'Watermelon Sea Salt Gummies')
        .single<{ quantity_available: number; destruction_held: number }>()
    ).data!
  const before = await productOf()

  await openDashboard(page, baseURL!)
  const card = page.getByTestId('column-delivered').locator(`[data-order-id="${order.id}"]`)
  await card.getByRole('button', { name: order.number, exact: true }).click()
  const detail = page.getByRole('dialog', { name: `Order ${order.number}` })
  await detail.getByRole('button', { name: 'Record return' }).click()
  const form = detail.getByRole('form', { name: 'Record return' })
  await expect(form).toContainText('Held for destruction')
  // Nothing chosen: the form says so and sends nothing.
  await form.getByRole('button', { name: 'Save return' }).click()
  await expect(form.getByText('Say how many of at least one line came back')).toBeVisible()
  await form.getByLabel('Quantity of Watermelon Sea Salt Gummies returned').fill('1')
  await form.getByLabel('Reason').fill('Damaged packaging')
  await form.getByLabel(/^Money given back/).fill('5')
  await form.getByRole('button', { name: 'Save return' }).click()
  await expect(detail.getByText(/^Return recorded\./)).toBeVisible()
  await expect(detail).toContainText('1 × Watermelon Sea Salt Gummies (held for destruction)')

  const after = await productOf()
  expect(after.destruction_held).toBe(before.destruction_held + 1)
  expect(after.quantity_available).toBe(before.quantity_available)
})
