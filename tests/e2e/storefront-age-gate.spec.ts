import { expect, test } from '@playwright/test'

test('the storefront asks for 21+ first, refuses politely, and remembers a yes', async ({
  page,
}) => {
  await page.goto('/menu/flower')
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toHaveCount(0)

  await page.getByRole('button', { name: 'No' }).click()
  await expect(page.getByRole('heading', { name: 'Sorry, not yet' })).toBeVisible()
  await expect(page.getByText('California law reserves for adults 21 and older')).toBeVisible()

  await page.getByRole('button', { name: 'I answered by mistake' }).click()
  await page.getByRole('button', { name: "Yes, I'm 21 or older" }).click()
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()

  await page.reload()
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toHaveCount(0)
})

test('the splash shows the loading text once per page load', async ({ page }) => {
  // The HTML draws the splash at the first paint, before any script has run.
  await page.goto('/', { waitUntil: 'commit' })
  await expect(page.getByText('Loading your cannabis experience...')).toBeVisible()
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()
})
