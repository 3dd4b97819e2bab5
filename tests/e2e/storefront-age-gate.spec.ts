import { expect, test } from '@playwright/test'

test('the storefront asks for 21+ first, refuses politely, and remembers a yes', async ({
  page,
}) => {
  await page.goto('/menu/flower')
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toHaveCount(0)

  // Neither 21 nor a medical patient: refused, and nothing remembered.
  await page.getByRole('button', { name: 'No', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Sorry, not yet' })).toBeVisible()
  await expect(page.getByText('California law reserves for adults 21 and older')).toBeVisible()
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()

  await page.getByRole('button', { name: 'No', exact: true }).click()
  await page.getByRole('button', { name: 'I answered by mistake' }).click()
  await page.getByRole('button', { name: "I'm 21 or older", exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()

  await page.reload()
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toHaveCount(0)
})

test('a medical patient 18 or older comes in, and checkout starts as a medical order', async ({
  page,
}) => {
  await page.goto('/product/watermelon-sea-salt-gummies')
  await expect(page.getByText(/18 or older as a medical patient/)).toBeVisible()
  await page
    .getByRole('button', {
      name: "I'm 18 or older with a physician's recommendation (medical patient)",
    })
    .click()
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')

  // Remembered on the device, and the choice checkout starts from.
  await page.goto('/checkout')
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toHaveCount(0)
  await expect(page.getByRole('radio', { name: 'Medical patient (18+)' })).toBeChecked()
  await expect(page.getByRole('radio', { name: 'Adult use (21+)' })).not.toBeChecked()
  await expect(page.getByLabel('MMIC number (optional)')).toBeVisible()
  // The shopper may still say otherwise for this order.
  await page.getByRole('radio', { name: 'Adult use (21+)' }).check()
  await expect(page.getByLabel('MMIC number (optional)')).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('radio', { name: 'Adult use (21+)' })).toBeChecked()
})

test('the splash shows the loading text once per page load', async ({ page }) => {
  // The HTML draws the splash at the first paint, before any script has run.
  await page.goto('/', { waitUntil: 'commit' })
  await expect(page.getByText('Loading your cannabis experience...')).toBeVisible()
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()
})
