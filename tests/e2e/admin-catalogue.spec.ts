import { randomUUID } from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import { adminClient, openDashboard } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

test.describe.configure({ mode: 'serial' })

// A 2×2 PNG.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAANHQEDx0d0WQAAAABJRU5ErkJggg=='

/** A product of the test's own, saved through the admin's RPC. */
async function createProduct(baseURL: string, name: string, sku: string) {
  const supabase = await adminClient(baseURL)
  const response = await supabase.rpc('admin_save_product', {
    p_product: {
      sku,
      name,
      price: 21,
      quantity_available: 9,
      media: [{ media_url: 'seed/flower-1.png' }],
    },
  })
  if (response.error) throw response.error
  return (response.data as { id: string }).id
}

async function deleteBySku(baseURL: string, skus: string[]) {
  const supabase = await adminClient(baseURL)
  const { data } = await supabase
    .from('products')
    .select('id')
    .in('sku', skus)
    .eq('_deleted', false)
  for (const row of (data ?? []) as { id: string }[])
    await supabase.rpc('admin_delete_product', { p_id: row.id })
}

async function skusOnServer(baseURL: string, skus: string[]) {
  const supabase = await adminClient(baseURL)
  const { data } = await supabase
    .from('products')
    .select('sku')
    .in('sku', skus)
    .eq('_deleted', false)
  return ((data ?? []) as { sku: string }[]).map((r) => r.sku).sort()
}

async function openProducts(page: Page) {
  await page.getByRole('tab', { name: 'Products' }).click()
  await expect(page.getByTestId('product-row').first()).toBeVisible()
}

test('a category renamed from the product form shows under its new name on the storefront menu', async ({
  page,
  browser,
  baseURL,
}) => {
  const shop = await browser.newContext()
  await passAgeGate(shop)
  const shopper = await shop.newPage()
  await shopper.goto('/menu')
  await expect(shopper.getByRole('checkbox', { name: /^Edibles \(\d+\)/ })).toBeVisible()

  try {
    await openDashboard(page, baseURL!)
    await openProducts(page)
    await page.getByRole('button', { name: '+ Add Product' }).click()
    const form = page.getByRole('dialog', { name: 'Add New Product' })
    await form.getByRole('button', { name: /^Category/ }).click()
    await form.getByRole('button', { name: 'Edit category Edibles' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Category' })
    await expect(edit.getByLabel('Name')).toHaveValue('Edibles')
    // The create form's validation, with its message.
    await edit.getByLabel('Name').fill('  ')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(edit.getByText('Category name is required')).toBeVisible()
    await edit.getByLabel('Name').fill('Edibles & Treats')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Category updated successfully!')).toBeVisible()
    await expect(edit).toBeHidden()
    await form.getByRole('button', { name: /^Category/ }).click()
    await expect(form.getByRole('option', { name: 'Edibles & Treats' })).toBeVisible()

    // The shopper's menu follows without a reload: the products carry the new name.
    await expect(shopper.getByRole('checkbox', { name: /^Edibles & Treats \(\d+\)/ })).toBeVisible({
      timeout: 20_000,
    })
    await expect(shopper.getByRole('checkbox', { name: /^Edibles \(\d+\)/ })).toHaveCount(0)
  } finally {
    const supabase = await adminClient(baseURL!)
    await supabase.from('categories').update({ name: 'Edibles' }).eq('slug', 'edibles')
    await shop.close()
  }
})

test('a deactivated product stays in the Products tab as Inactive and leaves the storefront', async ({
  page,
  browser,
  baseURL,
}) => {
  const sku = `E2E-INA-${randomUUID().slice(0, 6)}`
  const name = `Sleepy Sunset ${sku.slice(-6)}`
  await createProduct(baseURL!, name, sku)
  const shop = await browser.newContext()
  await passAgeGate(shop)
  const shopper = await shop.newPage()
  await shopper.goto('/menu')
  await expect(shopper.getByRole('heading', { name })).toBeVisible({ timeout: 20_000 })

  try {
    await openDashboard(page, baseURL!)
    await openProducts(page)
    await page.getByPlaceholder('Search products...').fill(name)
    const row = page.getByTestId('product-row').filter({ hasText: name })
    await expect(row).toBeVisible()
    await expect(row).not.toContainText('Inactive')
    const total = page.getByRole('region', { name: 'Total Products' }).getByTestId('stat-value')
    const before = await total.textContent()
    await row.getByRole('button', { name: `Edit ${name}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Product' })
    const active = edit.getByRole('checkbox', { name: 'Active', exact: true })
    await expect(active).toBeChecked()
    await edit.getByText('Active', { exact: true }).click()
    await expect(active).not.toBeChecked()
    await edit.getByRole('button', { name: 'Update Product' }).click()
    await expect(page.getByText('Product updated successfully!')).toBeVisible()

    // The table keeps it (from the device's admin catalogue), marked Inactive.
    await expect(row.getByText('Inactive', { exact: true })).toBeVisible()
    await expect(shopper.getByRole('heading', { name })).toHaveCount(0, { timeout: 20_000 })
    // Staff still count it among the shop's products.
    await expect(total).toHaveText(before ?? '')
    // Still there after a reload: the device holds inactive products.
    await page.reload()
    await openProducts(page)
    await page.getByPlaceholder('Search products...').fill(name)
    await expect(row.getByText('Inactive', { exact: true })).toBeVisible()
  } finally {
    await deleteBySku(baseURL!, [sku])
    await shop.close()
  }
})

test('Import Products writes every row or none', async ({ page, baseURL }) => {
  const tag = randomUUID().slice(0, 6).toUpperCase()
  const skus = [`IMP-${tag}-1`, `IMP-${tag}-2`]
  const csv = [
    'sku,name,price,quantity_available,category,media',
    `${skus[0]},Imported Haze ${tag},30,12,Flower,seed/flower-1.png`,
    `${skus[1]},Imported Kush ${tag},28,8,Flower,seed/flower-1.png`,
  ].join('\n')
  const choose = (dialog: ReturnType<Page['getByRole']>) =>
    dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'import.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })

  try {
    await openDashboard(page, baseURL!)
    await openProducts(page)
    await page.keyboard.press('Control+k')
    await page.getByPlaceholder('Search commands...').fill('Import Products')
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Import Products' })
    await choose(dialog)
    await expect(dialog.getByTestId('import-row')).toHaveCount(2)
    const importButton = dialog.getByRole('button', { name: 'Import 2 products' })
    await expect(importButton).toBeEnabled()

    // Meanwhile a colleague takes the second row's SKU: the server refuses that row, and the
    // first row, valid on its own, is not written either.
    await createProduct(baseURL!, `Colleague's ${tag}`, skus[1]!)
    await importButton.click()
    await expect(dialog.getByTestId('import-failure')).toContainText(
      `Nothing was imported. Line 3 (SKU ${skus[1]}): SKU ${skus[1]} already exists for another product`,
    )
    await expect(dialog.getByTestId('import-row').nth(1)).toContainText('already exists')
    expect(await skusOnServer(baseURL!, skus)).toEqual([skus[1]])

    // Without the clash, every row is written.
    await deleteBySku(baseURL!, [skus[1]!])
    // Once the device has pulled that delete, the row is a create again.
    await expect(async () => {
      await choose(dialog)
      await expect(dialog.getByTestId('import-row').nth(1)).toContainText('create', {
        timeout: 1_000,
      })
    }).toPass()
    await expect(dialog.getByTestId('import-failure')).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Import 2 products' }).click()
    await expect(page.getByText('Imported 2 products')).toBeVisible()
    await expect(dialog).toBeHidden()
    expect(await skusOnServer(baseURL!, skus)).toEqual(skus)
    await page.getByPlaceholder('Search products...').fill(tag)
    await expect(page.getByTestId('product-row')).toHaveCount(2)
  } finally {
    await deleteBySku(baseURL!, skus)
  }
})

test('Ctrl+letter shortcuts run their palette commands', async ({ page, baseURL }) => {
  await openDashboard(page, baseURL!)
  const tab = (name: string) => page.getByRole('tab', { name })
  await page.evaluate(() => ((window as { notReloaded?: boolean }).notReloaded = true))

  await page.keyboard.press('Control+b')
  await expect(tab('Brands')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Control+a')
  await expect(tab('Analytics')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Control+p')
  await expect(tab('Products')).toHaveAttribute('aria-selected', 'true')

  // In a text field Ctrl+A still selects the text; Ctrl+O still switches tabs.
  const search = page.getByPlaceholder('Search products...')
  await search.fill('kush')
  await search.press('Control+a')
  await expect(tab('Products')).toHaveAttribute('aria-selected', 'true')
  expect(
    await search.evaluate((el: HTMLInputElement) => el.selectionEnd! - el.selectionStart!),
  ).toBe(4)
  await search.press('Control+o')
  await expect(tab('Orders')).toHaveAttribute('aria-selected', 'true')

  await page.keyboard.press('Control+f')
  await expect(page.getByPlaceholder('Search orders...')).toBeFocused()
  await page.keyboard.press('Control+r')
  await expect(page.getByText('Dashboard refreshed')).toBeVisible()
  expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true)

  // From the open palette too: the shortcut runs and the palette closes.
  await page.keyboard.press('Control+k')
  await expect(page.getByPlaceholder('Search commands...')).toBeVisible()
  await page.keyboard.press('Control+b')
  await expect(page.getByPlaceholder('Search commands...')).toBeHidden()
  await expect(tab('Brands')).toHaveAttribute('aria-selected', 'true')
})

test('the product dialog drop zone reacts to a drag and its picker takes files, refusing other types', async ({
  page,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  await openProducts(page)
  await page.getByRole('button', { name: '+ Add Product' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add New Product' })
  const zone = dialog.getByRole('group', { name: 'Drop images or videos here, or choose files' })
  await expect(zone).toBeVisible()

  // A file dragged over the zone highlights it. (A synthetic drop carries no file entries in
  // Chromium, so dropping itself is left to real drags.)
  const drag = (type: 'dragover' | 'dragleave') =>
    zone.evaluate((el, type) => {
      const data = new DataTransfer()
      data.items.add(new File(['x'], 'leaf.png', { type: 'image/png' }))
      el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }))
    }, type)
  await drag('dragover')
  await expect(zone).toHaveAttribute('data-dragging', '')
  await drag('dragleave')
  await expect(zone).not.toHaveAttribute('data-dragging', '')

  const pick = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      zone.getByRole('button', { name: 'Choose files' }).click(),
    ])
    expect(chooser.isMultiple()).toBe(true)
    await chooser.setFiles(file)
  }
  await pick({ name: 'leaf.png', mimeType: 'image/png', buffer: Buffer.from(PNG_BASE64, 'base64') })
  await expect(dialog.getByTestId('new-media')).toHaveCount(1)
  await expect(dialog.getByTestId('new-media')).toContainText('leaf.png')
  await pick({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') })
  await expect(page.getByText('Invalid file type')).toBeVisible()
  await expect(dialog.getByTestId('new-media')).toHaveCount(1)
  // The same image again is another file to upload (the control keeps no list of its own).
  await pick({ name: 'leaf.png', mimeType: 'image/png', buffer: Buffer.from(PNG_BASE64, 'base64') })
  await expect(dialog.getByTestId('new-media')).toHaveCount(2)
})

test('the Products tab lists products offline, and saving says it needs the server', async ({
  page,
  context,
  baseURL,
}) => {
  const sku = `E2E-OFF-${randomUUID().slice(0, 6)}`
  const name = `Offline Orange ${sku.slice(-6)}`
  await createProduct(baseURL!, name, sku)
  try {
    await openDashboard(page, baseURL!)
    await openProducts(page)
    await page.getByPlaceholder('Search products...').fill(name)
    await expect(page.getByTestId('product-row').filter({ hasText: name })).toBeVisible()
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })

    await context.setOffline(true)
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
    await expect(page.getByTestId('sync-status')).toContainText('Offline')
    await openProducts(page)
    expect(await page.getByTestId('product-row').count()).toBeGreaterThan(5)
    await page.getByPlaceholder('Search products...').fill(name)
    const row = page.getByTestId('product-row').filter({ hasText: name })
    await expect(row).toBeVisible()

    await row.getByRole('button', { name: `Edit ${name}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Product' })
    await expect(edit.getByTestId('product-form-offline')).toBeVisible()
    await edit.getByLabel('Price ($)', { exact: true }).fill('19.5')
    await edit.getByRole('button', { name: 'Update Product' }).click()
    await expect(edit.getByRole('alert')).toContainText(
      'You are offline. Saving needs a connection',
    )
    await expect(edit).toBeVisible()
    await expect(edit.getByLabel('Price ($)', { exact: true })).toHaveValue('19.5')

    // Back online, the same form saves and the row follows from the replication.
    await context.setOffline(false)
    await expect(edit.getByTestId('product-form-offline')).toBeHidden()
    await edit.getByRole('button', { name: 'Update Product' }).click()
    await expect(page.getByText('Product updated successfully!')).toBeVisible()
    await expect(row).toContainText('$19.50')
  } finally {
    await context.setOffline(false)
    await deleteBySku(baseURL!, [sku])
  }
})
