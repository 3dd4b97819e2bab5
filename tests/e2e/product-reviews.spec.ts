import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { openDashboard } from './helpers/admin'
import { moveOnServer } from './helpers/staff-orders'
import { passAgeGate } from './helpers/storefront'
import { TargetSweep } from './helpers/touch-targets'

// Issue 33 "Only what is real" (docs/decisions/056-real-reviews-or-none.md): a review left from a picked-up order's page shows
// with its count on the product's card, disappears once staff hide it, and a product with no
// review shows no rating at all. On a phone and on a tablet, each with a product of its own.

test.beforeEach(async ({ context }) => passAgeGate(context))

const cardOf = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Products' })
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })

/** No critical, serious or moderate axe finding in that part of the page (as axe-accessibility). */
async function expectNoAxeFinding(page: Page, within: string) {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  )
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .include(within)
    .analyze()
  const blocking = violations
    .filter((v) => ['critical', 'serious', 'moderate'].includes(v.impact ?? ''))
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(blocking, within).toEqual([])
}

const REVIEW_SECTION = 'section[aria-labelledby="order-reviews-title"]'

/** A pickup order of one unit through the storefront; its page (/orders/<id>) is left open. */
async function orderThroughCheckout(page: Page, slug: string): Promise<string> {
  await page.goto(`/product/${slug}`)
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await page.goto('/checkout')
  await page.getByLabel('First Name').fill('Noor')
  await page.getByLabel('Last Name').fill('Haddad')
  await page.getByLabel('Email').fill(`reviews-${Date.now()}@example.com`)
  await page.getByLabel('Phone').fill('(510) 555-0161')
  await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
  await expect(page.getByLabel('Pickup time')).not.toHaveValue('')
  await page.getByRole('radio', { name: 'Cash', exact: true }).check()
  await page.getByRole('button', { name: 'Place Order' }).click()
  await expect(page).toHaveURL(/\/checkout\/success/)
  await page.getByRole('link', { name: 'Track your order' }).click()
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/)
  return page.url().split('/orders/')[1]!
}

for (const device of [
  { name: 'phone', viewport: { width: 390, height: 844 }, product: 'Brown Butter Snickerdoodles' },
  {
    name: 'tablet',
    viewport: { width: 1024, height: 768 },
    product: 'Lavender Dream CBD Sleep Gummies',
  },
]) {
  test.describe(`on a ${device.name}`, () => {
    test.use({ viewport: device.viewport })

    test('a review from a picked-up order shows on the card until staff hide it', async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(150_000)
      const slug = device.product.toLowerCase().replace(/[^a-z0-9]+/g, '-')

      // Before: no review, no rating (and none for a product nobody reviewed).
      await page.goto('/menu/edibles')
      await expect(cardOf(page, device.product)).toBeVisible()
      await expect(cardOf(page, device.product).getByRole('img', { name: /^Rated/ })).toHaveCount(0)

      const id = await orderThroughCheckout(page, slug)
      // Not handed over yet: nothing to review.
      await expect(page.getByRole('heading', { name: 'Rate your products' })).toHaveCount(0)

      // Staff hand it over; the open page follows and offers the review.
      expect((await moveOnServer(baseURL!, id, 'pending', 'delivered')).applied).toBe(true)
      const form = page.getByRole('form', { name: `Review ${device.product}` })
      await expect(page.getByRole('heading', { name: 'Rate your products' })).toBeVisible()
      await expect(form.getByLabel('Name shown (optional)')).toHaveValue('Noor')
      // Usable by a finger and a screen reader: stars and the button 44 × 44, nothing crowded.
      await expectNoAxeFinding(page, REVIEW_SECTION)
      const sweep = new TargetSweep(page, device.name)
      await sweep.check('order page, rate your products', REVIEW_SECTION)
      await sweep.thumb(form.getByRole('radio', { name: '1 star' }), 'a star')
      await sweep.thumb(form.getByRole('button', { name: 'Submit review' }), 'Submit review')
      sweep.report()
      await form.getByRole('radio', { name: '4 stars' }).check()
      await form.getByLabel('Your review (optional)').fill(`Tried on a ${device.name}. Calm.`)
      await form.getByRole('button', { name: 'Submit review' }).click()
      await expect(page.getByText('Your review, as Noor')).toBeVisible()
      await expect(page.getByRole('button', { name: 'Submit review' })).toHaveCount(0)

      // The card shows the real average and count; a product nobody reviewed shows nothing.
      await page.goto('/menu/edibles')
      const card = cardOf(page, device.product)
      await expect(card.getByRole('img', { name: 'Rated 4.0 out of 5' })).toBeVisible()
      await expect(card.getByText('(1)', { exact: true })).toBeVisible()
      const unreviewed = cardOf(page, 'Dark Chocolate Sea Salt Bar')
      await expect(unreviewed).toBeVisible()
      await expect(unreviewed.getByRole('img', { name: /^Rated/ })).toHaveCount(0)
      await expect(unreviewed.getByText(/^\(\d+\)$/)).toHaveCount(0)

      // The product page lists it.
      await page.goto(`/product/${slug}`)
      await expect(page.getByText('4.0 (1 review)')).toBeVisible()
      await page.getByRole('tab', { name: 'Reviews' }).click()
      const list = page.getByRole('list', { name: 'Reviews' })
      await expect(list.getByText(`Tried on a ${device.name}. Calm.`)).toBeVisible()
      await expect(list.getByText('Noor')).toBeVisible()
      await expectNoAxeFinding(page, '[role="tabpanel"]')

      // Staff hide it with a reason: it leaves the card and the page.
      await openDashboard(page, baseURL!)
      await page.getByRole('tab', { name: 'Reviews' }).click()
      const item = page.getByRole('listitem', { name: `Review of ${device.product} by Noor` })
      await item.getByRole('button', { name: 'Hide' }).click()
      await item.getByRole('button', { name: 'Hide review' }).click()
      await expect(item.getByRole('alert')).toHaveText('Say why the review is hidden.')
      await item.getByLabel('Why hide it?').fill('Test review from the e2e run')
      await item.getByRole('button', { name: 'Hide review' }).click()
      await expect(item.getByText('Hidden: Test review from the e2e run')).toBeVisible()
      await expect(item.getByRole('button', { name: 'Show again' })).toBeVisible()
      await expectNoAxeFinding(page, 'section[aria-label="Reviews"]')

      await page.goto('/menu/edibles')
      await expect(cardOf(page, device.product)).toBeVisible()
      await expect(cardOf(page, device.product).getByRole('img', { name: /^Rated/ })).toHaveCount(0)
      await page.goto(`/product/${slug}`)
      await page.getByRole('tab', { name: 'Reviews' }).click()
      await expect(page.getByText('No reviews yet.')).toBeVisible()
    })
  })
}
