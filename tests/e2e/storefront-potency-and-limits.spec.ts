// Issue 31 where the shopper looks and adds: potency as California labels it (an edible in
// milligrams per package and per serving, not "THC 0.2%" of its weight), the day's limit applied
// on the product page and the cards (28.5 g of flower for adult use), and a wholesale pound that
// is never sold to a consumer.
import { expect, test } from '@playwright/test'
import { createProduct, deleteProducts, type TestProduct } from './helpers/california'
import { passAgeGate } from './helpers/storefront'

test.beforeEach(async ({ context }) => passAgeGate(context))

test("an edible's page and card show milligrams per package and per serving", async ({ page }) => {
  await page.goto('/product/watermelon-sea-salt-gummies')
  const potency = page.getByTestId('potency')
  await expect(potency.getByText('100 mg', { exact: true })).toBeVisible()
  await expect(potency.getByText('per package · 10 mg per serving')).toBeVisible()
  await expect(potency.getByText('Servings')).toBeVisible()
  // Neither a percentage of its weight nor the bag's 50 g as its size.
  await expect(page.getByText('0.2%')).toHaveCount(0)
  await expect(page.getByText('/ 50g')).toHaveCount(0)
  await page.getByRole('tab', { name: 'Details & Effects' }).click()
  const details = page.getByRole('tabpanel', { name: 'Details & Effects' })
  await expect(details.getByText('100 mg per package · 10 mg per serving')).toBeVisible()
  await expect(details.getByText('Net wt.')).toBeVisible()
  await expect(details.getByText('50 g', { exact: true })).toBeVisible()

  await page.goto('/menu/edibles')
  const card = page.getByRole('article', { name: 'Watermelon Sea Salt Gummies' })
  await expect(card.getByText('THC 100 mg per package · 10 mg per serving')).toBeVisible()
  await expect(card.getByText('50g')).toHaveCount(0)
  // Flower keeps its percentage and weight.
  await page.goto('/menu/flower')
  const flower = page.getByRole('article', { name: 'Humboldt Purple Kush' })
  await expect(flower.getByText('THC 24.6%')).toBeVisible()
  await expect(flower.getByText('3.5g')).toBeVisible()
})

test.describe('the daily limit where the shopper adds', () => {
  let first: TestProduct | undefined
  let second: TestProduct | undefined
  test.afterEach(async ({ baseURL }) => deleteProducts(baseURL!, [first, second]))

  test('a product page refuses flower past 28.5 g with the limit, and its stepper stops at what fits', async ({
    page,
    baseURL,
  }) => {
    first = await createProduct(baseURL!, 'flower', 30)
    second = await createProduct(baseURL!, 'flower', 30)

    await page.goto(`/product/${first.slug}`)
    await expect(page.getByText('In stock, ready for pickup or delivery')).toBeVisible()
    await expect(
      page.getByText(
        "Today's limit is 28.5 g of flower: up to 8 more fit beside your cart and today's orders.",
      ),
    ).toBeVisible()
    // 12 × 3.5 g is 42 g: the stepper goes no further than 8 (28 g).
    const quantity = page.getByRole('spinbutton', { name: 'Quantity' })
    await quantity.fill('12')
    await expect(quantity).toHaveValue('8')
    await expect(page.getByRole('button', { name: 'Increase quantity' })).toBeDisabled()
    await page.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByText(`${first.name} (8) added to your cart.`)).toBeVisible()
    await expect(page.getByTestId('cart-count')).toHaveText('8')

    // Another eighth would make 31.5 g.
    await page.goto(`/product/${second.slug}`)
    await expect(
      page.getByText(
        "Today's limit is 28.5 g of flower: no more of this fits beside your cart and today's orders.",
      ),
    ).toBeVisible()
    await page.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByRole('alert').filter({ hasText: "Today's limit" })).toHaveText(
      "Today's limit is 28.5 g of flower. This order holds 31.5 g, 3 g over the limit.",
    )
    await expect(page.getByText('Added to cart!')).toHaveCount(0)
    await expect(page.getByTestId('cart-count')).toHaveText('8')
  })
})

test('the wholesale pound says it cannot be sold to a consumer, on its page and its card', async ({
  page,
}) => {
  const message =
    'Bulk Indoor Hybrid Mix (1 lb) cannot be sold to a consumer: one unit holds 453.6 g of flower, more than the 28.5 g one customer may buy in a day.'
  await page.goto('/product/bulk-indoor-hybrid-mix-1-lb')
  await expect(page.getByTestId('not-for-consumers')).toHaveText(message)
  await expect(page.getByRole('button', { name: 'Not sold to consumers' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toHaveCount(0)

  await page.goto('/menu/wholesale')
  const card = page.getByRole('article', { name: 'Bulk Indoor Hybrid Mix (1 lb)' })
  await card.getByRole('button', { name: 'Add Bulk Indoor Hybrid Mix (1 lb) to cart' }).click()
  await expect(page.getByText(message)).toBeVisible()
  await expect(page.getByText('Added to cart!')).toHaveCount(0)
  await expect(page.getByRole('link', { name: /^Cart, 0 items/ })).toBeVisible()
})
