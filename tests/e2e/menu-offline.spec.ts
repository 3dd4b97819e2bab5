import { expect, test } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

test.beforeEach(async ({ context }) => passAgeGate(context))

test('the menu lists the seeded products, and still does after an offline reload', async ({
  page,
  context,
}) => {
  await page.goto('/menu')
  await expect(page.getByRole('heading', { name: 'All Products' })).toBeVisible()
  const products = page.getByRole('list', { name: 'Products' }).getByRole('listitem')
  await expect(products.first()).toBeVisible()
  const count = await products.count()
  expect(count).toBeGreaterThanOrEqual(12)
  const names = await products.getByRole('heading').allInnerTexts()

  // The service worker has precached the shell once it is active.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })

  await context.setOffline(true)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'All Products' })).toBeVisible()
  await expect(products).toHaveCount(count)
  for (const name of names.slice(0, 5)) {
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()
  }
  const banner = page.getByRole('status').filter({ hasText: "You're offline." })
  await expect(banner).toBeVisible()
  await context.setOffline(false)
  await expect(banner).toHaveCount(0)
})

test('an unknown path shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/no-such-page')
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
  await expect(page.getByText('Oops! Page not found')).toBeVisible()
  await page.getByRole('link', { name: 'Return to Home' }).click()
  await expect(page).toHaveURL(/\/$/)
})
