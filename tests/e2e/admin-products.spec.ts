import { expect, test } from '@playwright/test'
import { openDashboard } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

test.describe.configure({ mode: 'serial' })

// A 2×2 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAANHQEDx0d0WQAAAABJRU5ErkJggg==',
  'base64',
)

test('an admin creates a product with an image, the menu shows it live, then edits and deletes it', async ({
  page,
  browser,
  baseURL,
}) => {
  // A shopper's device with the menu open.
  const shop = await browser.newContext()
  await passAgeGate(shop)
  const shopper = await shop.newPage()
  await shopper.goto('/menu')
  await expect(shopper.getByRole('heading', { name: 'All Products' })).toBeVisible()

  await openDashboard(page, baseURL!)
  await page.getByRole('tab', { name: 'Products' }).click()
  await expect(page.getByTestId('product-row').first()).toBeVisible()
  await page.getByRole('button', { name: '+ Add Product' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add New Product' })
  await expect(dialog).toBeVisible()

  // Validation messages of SPEC.md §5.
  await dialog.getByRole('button', { name: 'Create Product' }).click()
  await expect(dialog.getByText('SKU is required')).toBeVisible()
  await expect(dialog.getByText('Product name is required')).toBeVisible()
  await dialog.getByLabel('SKU').fill('E2E-00001')
  await dialog.getByLabel('Product name').fill('E2E Test Kush')
  await dialog.getByLabel('THC %').fill('140')
  await dialog.getByRole('button', { name: 'Create Product' }).click()
  await expect(dialog.getByText('Must be between 0 and 100')).toBeVisible()
  await dialog.getByLabel('THC %').fill('22.5')
  await dialog.getByLabel('Price ($)', { exact: true }).fill('31.5')
  await dialog.getByLabel('Quantity available').fill('25')
  await dialog.getByRole('button', { name: 'Create Product' }).click()
  await expect(dialog.getByText('Please upload at least one product image or video')).toBeVisible()

  // A refused file type, then the image.
  await dialog
    .getByLabel(/Upload JPEG/)
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') })
  await expect(page.getByText('Invalid file type')).toBeVisible()
  await dialog
    .getByLabel(/Upload JPEG/)
    .setInputFiles({ name: 'kush.png', mimeType: 'image/png', buffer: PNG })
  await expect(dialog.getByTestId('new-media')).toHaveCount(1)

  await dialog.getByRole('button', { name: /^Category/ }).click()
  await dialog.getByRole('option', { name: 'Flower', exact: true }).click()
  // What the law needs to know (issue 31): flower counts toward its daily limit by its weight.
  await expect(dialog.getByLabel('Cannabis product (cannabis excise tax applies)')).toBeChecked()
  await dialog.getByLabel('Daily limit it counts toward').selectOption('flower')
  await dialog.getByRole('button', { name: 'Create Product' }).click()
  await expect(
    dialog.getByText(
      'A product that counts toward the flower limit needs the grams counted per unit (or its weight)',
    ),
  ).toBeVisible()
  await dialog.getByLabel('Weight (g)').fill('3.5')
  await dialog.getByRole('textbox', { name: 'New effect' }).fill('Relaxed')
  await dialog.getByRole('button', { name: 'Add' }).first().click()
  await dialog.getByRole('button', { name: 'Create Product' }).click()
  await expect(page.getByText('Product created successfully!')).toBeVisible()
  await expect(dialog).toBeHidden()
  const row = page.getByTestId('product-row').filter({ hasText: 'E2E Test Kush' })
  await expect(row).toBeVisible()
  await expect(row.getByRole('img')).toHaveAttribute(
    'src',
    /storage\/v1\/object\/public\/product_media\/.+\.png/,
  )

  // The shopper's menu shows it without a reload.
  await expect(shopper.getByRole('heading', { name: 'E2E Test Kush' })).toBeVisible({
    timeout: 20_000,
  })

  // Edit: the price changes.
  await row.getByRole('button', { name: 'Edit E2E Test Kush' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit Product' })
  await expect(edit.getByLabel('SKU')).toHaveValue('E2E-00001')
  await expect(edit.getByLabel('Daily limit it counts toward')).toHaveValue('flower')
  await edit.getByLabel('Price ($)', { exact: true }).fill('29.99')
  await edit.getByRole('button', { name: 'Update Product' }).click()
  await expect(page.getByText('Product updated successfully!')).toBeVisible()
  await expect(row).toContainText('$29.99')

  // Delete, with its confirmation.
  await row.getByRole('button', { name: 'Delete E2E Test Kush' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete Product' })
  await expect(confirm).toContainText(
    'Are you sure you want to delete this product? This action cannot be undone.',
  )
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Product deleted successfully!')).toBeVisible()
  await expect(row).toHaveCount(0)
  await expect(shopper.getByRole('heading', { name: 'E2E Test Kush' })).toHaveCount(0, {
    timeout: 20_000,
  })
  await shop.close()
})

test("an edible's milligrams show the dose per serving, and merchandise counts toward no limit", async ({
  page,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  await page.getByRole('tab', { name: 'Products' }).click()
  await page.getByRole('button', { name: '+ Add Product' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add New Product' })
  await dialog.getByLabel('THC mg per package').fill('100')
  await dialog.getByLabel('CBD mg per package').fill('50')
  await dialog.getByLabel('Servings per package').fill('10')
  await expect(dialog.getByTestId('mg-per-serving')).toHaveText('Per serving: THC 10 mg · CBD 5 mg')
  // The checkbox is the browser's own, visually hidden inside its label: a tap on the label.
  await dialog.getByText('Cannabis product (cannabis excise tax applies)').click()
  await expect(
    dialog.getByLabel('Cannabis product (cannabis excise tax applies)'),
  ).not.toBeChecked()
  await dialog.getByLabel('Daily limit it counts toward').selectOption('concentrate')
  await dialog.getByRole('button', { name: 'Create Product' }).click()
  await expect(
    dialog.getByText('A product that is not cannabis counts toward no daily limit: choose None'),
  ).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
})

test('a brand still referenced by products cannot be deleted', async ({ page, baseURL }) => {
  await openDashboard(page, baseURL!)
  await page.getByRole('tab', { name: 'Brands' }).click()
  const brand = page.getByTestId('brand-row').filter({ hasText: 'Humboldt Heritage' })
  await brand.getByRole('button', { name: 'Delete Humboldt Heritage' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Are you sure?' })
  await expect(confirm).toContainText(
    'This action cannot be undone. This will permanently delete the brand "Humboldt Heritage" from the system.',
  )
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Error deleting brand')).toBeVisible()
  await expect(
    page.getByText(
      'Cannot delete brand - it is still referenced by products. Please update or delete those products first.',
    ),
  ).toBeVisible()
  await expect(brand).toBeVisible()
})
