import { expect, test } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

test.beforeEach(async ({ context }) => {
  await passAgeGate(context)
})

test('the theme follows the system until the shopper picks one, which the device remembers', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark' })
  await passAgeGate(context)
  const page = await context.newPage()
  await page.goto('/')
  const html = page.locator('html')
  await expect(html).toHaveClass(/dark/)
  await page.getByRole('button', { name: 'Switch to light theme' }).click()
  await expect(html).not.toHaveClass(/dark/)
  await page.reload()
  await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible()
  await expect(html).not.toHaveClass(/dark/)
  await context.close()
})

test('the contact form takes a message and says when to expect an answer', async ({ page }) => {
  await page.goto('/contact')
  await page.getByLabel('First Name').fill('Lupe')
  await page.getByLabel('Last Name').fill('Ortiz')
  await page.getByLabel('Email Address').fill('lupe@example.com')
  await page.getByLabel('Subject').fill('Delivery to Berkeley?')
  await page.getByLabel('Message', { exact: true }).fill('Do you deliver to 94704?')
  await page.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText("Thanks! We'll respond within 24 hours.")).toBeVisible()
  await expect(page.getByLabel('First Name')).toHaveValue('')
})
