import { expect, test } from '@playwright/test'
import { adminClient } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

test.beforeEach(async ({ context }) => passAgeGate(context))

test('a product page shows its details, and adding to cart updates the header badge', async ({
  page,
}) => {
  await page.goto('/menu/flower')
  const first = page.getByRole('list', { name: 'Products' }).getByRole('heading').first()
  const name = (await first.innerText()).trim()
  await first.getByRole('link').click()

  await expect(page).toHaveURL(/\/product\//)
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
  await expect(crumbs.getByRole('link', { name: 'Home' })).toBeVisible()
  await expect(crumbs.getByRole('link', { name: 'Flower' })).toHaveAttribute('href', '/menu/flower')
  await expect(page.getByText('THC', { exact: true }).first()).toBeVisible()
  await expect(page.getByText('Free Delivery')).toBeVisible()
  await expect(page.getByText('Lab Tested')).toBeVisible()

  await page.getByRole('tab', { name: 'Details & Effects' }).click()
  await expect(page.getByText('SKU')).toBeVisible()
  await page.getByRole('tab', { name: 'Reviews' }).click()
  // No flower has a review in the demo: no made-up rating, and the tab says how one is left.
  await expect(page.getByText('No reviews yet.')).toBeVisible()
  await expect(page.getByRole('img', { name: /^Rated / })).toHaveCount(0)

  await expect(page.getByRole('link', { name: /^Cart, 0 items/ })).toBeVisible()
  await page.getByRole('button', { name: 'Increase quantity' }).click()
  await expect(page.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue('2')
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByText('Added to cart!')).toBeVisible()
  await expect(page.getByText(`${name} (2) added to your cart.`)).toBeVisible()
  await expect(page.getByRole('link', { name: /^Cart, 2 items/ })).toBeVisible()
  await expect(page.getByTestId('cart-count')).toHaveText('2')
})

test('Quick Add on a card adds one and says so', async ({ page }) => {
  await page.goto('/menu/edibles')
  const card = page.getByRole('list', { name: 'Products' }).getByRole('article').first()
  const name = (await card.getByRole('heading').innerText()).trim()
  await card.getByRole('button', { name: `Add ${name} to cart` }).click()
  await expect(page.getByText(`${name} has been added to your cart.`)).toBeVisible()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
})

test('an unknown product says so, and the old /menu/product path redirects', async ({ page }) => {
  await page.goto('/product/no-such-product')
  await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Browse Products' }).click()
  await expect(page).toHaveURL(/\/menu$/)

  await page.goto('/menu/product/no-such-product')
  await expect(page).toHaveURL(/\/product\/no-such-product$/)
})

test('a product description shows its markup but runs nothing, with the browser sanitizer and with DOMPurify', async ({
  browser,
  baseURL,
}) => {
  const admin = await adminClient(baseURL!)
  const { data: product, error } = await admin
    .from('products')
    .select('id, slug, description')
    .eq('is_active', true)
    .order('name')
    .limit(1)
    .single<{ id: string; slug: string; description: string }>()
  if (error) throw error
  const hostile =
    '<p>Grown <strong>slowly</strong> <a href="javascript:window.__xss=3">here</a></p>' +
    '<img src="/icon-192.png" alt="farm" onerror="window.__xss=1" onload="window.__xss=1">' +
    '<script>window.__xss=2</script><ul><li>Hand-trimmed</li></ul>'
  await admin.from('products').update({ description: hostile }).eq('id', product.id)
  try {
    // Without `setHTML` the app falls back to DOMPurify, fetched on demand.
    for (const withoutSanitizerApi of [false, true]) {
      const context = await browser.newContext()
      await passAgeGate(context)
      if (withoutSanitizerApi)
        await context.addInitScript(() => {
          delete (Element.prototype as { setHTML?: unknown }).setHTML
        })
      const page = await context.newPage()
      await page.goto(`/product/${product.slug}`)
      const panel = page.getByRole('tabpanel', { name: 'Description' })
      await expect(panel.getByText('Hand-trimmed')).toBeVisible()
      await expect(panel.locator('strong')).toHaveText('slowly')
      await expect(panel.getByRole('img', { name: 'farm' })).toBeVisible()
      await expect(panel.locator('script, [onerror], [onload], a[href^="javascript"]')).toHaveCount(
        0,
      )
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
      await context.close()
    }
  } finally {
    await admin.from('products').update({ description: product.description }).eq('id', product.id)
  }
})
