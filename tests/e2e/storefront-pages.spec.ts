import { expect, test } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

test.beforeEach(async ({ context }) => passAgeGate(context))

test('the footer opens "Get Text Updates" with a QR code; Escape and the backdrop close it', async ({
  page,
}) => {
  await page.goto('/')
  const footer = page.getByRole('contentinfo')
  await expect(
    footer.getByText('Cannabis products have not been evaluated by the FDA.'),
  ).toBeVisible()
  await expect(footer.getByText(/GOVERNMENT WARNING/)).toBeVisible()
  await expect(footer.getByText(/P65Warnings/).first()).toBeVisible()
  await expect(footer.getByText(/California DCC License/)).toBeVisible()

  await footer.getByRole('button', { name: 'Get Text Updates' }).click()
  const dialog = page.getByRole('dialog', { name: 'Get Text Updates' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible()
  await expect(dialog.getByText('Active 24/7')).toBeVisible()
  await expect(dialog.getByText('Standard message rates may apply')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  await footer.getByRole('button', { name: 'Get Text Updates' }).click()
  await expect(dialog).toBeVisible()
  await dialog.locator('label', { hasText: "Don't show this again" }).click()
  expect(await page.evaluate(() => localStorage.getItem('humo.text-updates-seen'))).toBe('true')
  await page.mouse.click(5, 5)
  await expect(dialog).toBeHidden()
})

test('home shows the hero carousel, categories, featured products and flash deals', async ({
  page,
}) => {
  await page.goto('/')
  await expect(
    page.getByRole('heading', { name: 'California-grown cannabis, direct from farms' }),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Next slide' }).click()
  await expect(page.getByRole('link', { name: 'View Wholesale' })).toBeVisible()
  await page.getByRole('button', { name: 'Next slide' }).click()
  await expect(page.getByRole('link', { name: 'Shop Now' })).toBeVisible()

  await expect(page.getByRole('heading', { name: 'Shop by Category' })).toBeVisible()
  await expect(
    page.getByRole('list', { name: 'Featured products' }).getByRole('article').first(),
  ).toBeVisible()
  await expect(page.getByRole('list', { name: 'Flash deals' }).getByRole('article')).toHaveCount(4)
  await expect(page.getByRole('link', { name: 'View all deals' })).toHaveAttribute(
    'href',
    '/menu/concentrates',
  )
})

test('the header search filters the local catalogue as you type', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('combobox', { name: 'Search products' }).fill('kush')
  const results = page.getByRole('listbox', { name: 'Search results' })
  await expect(results.getByRole('option').first()).toBeVisible()
  // Names first (Humboldt Purple Kush, Shasta Sleepy Kush), then descriptions that say kush.
  for (const option of (await results.getByRole('option').all()).slice(0, 2))
    await expect(option).toContainText(/kush/i)
  await results.getByRole('option').first().click()
  await expect(page).toHaveURL(/\/product\//)
})

test('an unknown path shows the 404 page, and contact has its form and FAQ', async ({ page }) => {
  await page.goto('/definitely/not/here')
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
  await expect(page.getByText('Oops! Page not found')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')

  await page.goto('/contact')
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible()
  await expect(page.getByRole('main').getByText(/^Order by phone (until|from) \d/)).toBeVisible()
  for (const label of [
    'First Name',
    'Last Name',
    'Email Address',
    'Phone Number (optional)',
    'Subject',
    'Message',
  ])
    await expect(page.getByLabel(label, { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeVisible()
  await page.getByText('Where do you deliver?').click()
  await expect(page.getByText(/We deliver across/)).toBeVisible()
})
