// Your orders, Reorder, My Items, the footer's Track Order and the open-now line (issue 22).
import { randomUUID } from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import { shopSettingsRowToDoc } from '../../src/data/replication/shop-settings-doc'
import type { ShopSettingsRow } from '../../src/data/replication/shop-settings-row'
import { orderNumber } from '../../src/lib/order-status'
import { openStatus } from '../../src/lib/open-status'
import type { WeeklyHours } from '../../src/lib/shop-hours'
import { adminClient, nodeClient } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

test.beforeEach(async ({ context }) => passAgeGate(context))

type TestProduct = { id: string; name: string; slug: string }

/** Two edibles of the test's own, so changing their stock touches no other test. */
async function createProducts(baseURL: string): Promise<TestProduct[]> {
  const admin = await adminClient(baseURL)
  const category = await admin
    .from('categories')
    .select('id')
    .eq('slug', 'edibles')
    .single<{ id: string }>()
  if (category.error) throw category.error
  const tag = randomUUID().slice(0, 8)
  const made: TestProduct[] = []
  for (const [name, price] of [
    [`Reorder Peach Rings ${tag}`, 12],
    [`Reorder Cocoa Bites ${tag}`, 9],
  ] as const) {
    const slug = name.toLowerCase().replace(/\s+/g, '-')
    const saved = await admin.rpc('admin_save_product', {
      p_product: {
        sku: `RE-${tag}-${price}`,
        name,
        slug,
        price,
        quantity_available: 20,
        category_id: category.data.id,
        media: [{ media_url: 'seed/flower-1.png' }],
      },
    })
    if (saved.error) throw saved.error
    made.push({ id: (saved.data as { id: string }).id, name, slug })
  }
  return made
}

async function addFromProductPage(page: Page, product: TestProduct, count: string) {
  await page.goto(`/product/${product.slug}`)
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText(count)
}

/** Delivery paid in cash (checkout's defaults), through the shopper's screens. */
async function placeOrder(page: Page): Promise<string> {
  await page.goto('/checkout')
  await page.getByLabel('First Name').fill('Ana')
  await page.getByLabel('Last Name').fill('Reyes')
  await page.getByLabel('Email').fill('ana@example.com')
  await page.getByLabel('Phone').fill('(510) 555-0100')
  const address = page.getByLabel('Address', { exact: true })
  if (await address.isVisible()) {
    await address.fill('12 Grand Ave')
    await page.getByLabel('City').fill('Oakland')
    await page.getByLabel('ZIP Code').fill('94612')
  }
  await page.getByRole('button', { name: 'Place Order' }).click()
  await expect(page).toHaveURL(/\/checkout\/success/)
  const id = new URL(page.url()).searchParams.get('order')
  expect(id).toBeTruthy()
  return id!
}

const header = (page: Page) => page.getByRole('banner')

test('Account lists the order placed on this device; Reorder brings back what is still in stock and says what is not', async ({
  page,
  baseURL,
}) => {
  const [rings, bites] = await createProducts(baseURL!)
  const admin = await adminClient(baseURL!)
  try {
    await addFromProductPage(page, rings!, '1')
    await addFromProductPage(page, bites!, '2')
    const id = await placeOrder(page)
    const number = orderNumber(id)

    await header(page).getByRole('link', { name: 'Account' }).click()
    await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible()
    const card = page.getByRole('listitem', { name: `Order ${number}` })
    await expect(card).toContainText(number)
    await expect(card).toContainText('2 items')
    await expect(card).toContainText('Received')
    await expect(card.getByRole('link', { name: 'View order' })).toHaveAttribute(
      'href',
      `/orders/${id}`,
    )

    // The bites sell out; the device learns it from the catalogue's live sync.
    const sold = await admin.from('products').update({ quantity_available: 0 }).eq('id', bites!.id)
    expect(sold.error).toBeNull()
    await page.goto(`/product/${bites!.slug}`)
    await expect(page.getByRole('button', { name: 'Out of Stock' })).toBeVisible()

    await header(page).getByRole('link', { name: 'Account' }).click()
    await expect(page.getByTestId('cart-count')).toHaveCount(0)
    await page
      .getByRole('listitem', { name: `Order ${number}` })
      .getByRole('button', { name: 'Reorder' })
      .click()
    const report = page.getByRole('status').filter({ hasText: 'to your cart' })
    await expect(report).toContainText('Added 1 item')
    await expect(report).toContainText(`${bites!.name}: out of stock`)
    await expect(report).not.toContainText(rings!.name)
    await report.getByRole('link', { name: 'Go to cart' }).click()
    await expect(page.getByRole('heading', { name: 'Shopping Cart (1 items)' })).toBeVisible()
    await expect(page.getByRole('main').getByText(rings!.name).first()).toBeVisible()
    await expect(page.getByRole('main').getByText(bites!.name)).toHaveCount(0)

    // The header's Reorder: with one order on the device, it goes straight into the cart.
    await page.getByRole('button', { name: /^Remove / }).click()
    await expect(page.getByTestId('cart-count')).toHaveCount(0)
    await header(page).getByRole('link', { name: 'Reorder' }).click()
    await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: 'to your cart' })).toContainText(
      `${bites!.name}: out of stock`,
    )
    await expect(page.getByTestId('cart-count')).toHaveText('1')
  } finally {
    for (const product of [rings, bites])
      if (product) await admin.rpc('admin_delete_product', { p_id: product.id })
  }
})

test('Your orders without orders says so and links to Track Order', async ({ page }) => {
  await page.goto('/account')
  await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible()
  await expect(page.getByText('No orders on this device yet')).toBeVisible()
  await page.getByRole('main').getByRole('link', { name: 'Track Order' }).click()
  await expect(page).toHaveURL(/\/track$/)
})

test('My Items keeps hearted products across a reload and adds them to the cart', async ({
  page,
}) => {
  const name = 'Watermelon Sea Salt Gummies'
  await page.goto('/menu/edibles')
  await page.getByRole('button', { name: `Add ${name} to wishlist` }).click()
  await expect(page.getByRole('button', { name: `Remove ${name} from wishlist` })).toBeVisible()
  await page.reload()

  await header(page).getByRole('link', { name: 'My Items' }).click()
  await expect(page).toHaveURL(/\/my-items$/)
  await expect(page.getByRole('heading', { name: 'My Items' })).toBeVisible()
  const main = page.getByRole('main')
  await expect(main.getByRole('link', { name, exact: true })).toBeVisible()
  await main.getByRole('button', { name: `Add ${name} to cart` }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')

  await main.getByRole('button', { name: `Remove ${name} from wishlist` }).click()
  await expect(page.getByText('No saved items yet')).toBeVisible()
})

test("the footer's Track Order opens /track; the header's buttons all lead somewhere", async ({
  page,
}) => {
  await page.goto('/')
  for (const label of ['Reorder', 'My Items', 'Account'])
    await expect(header(page).getByRole('link', { name: label })).toHaveAttribute('href', /\/\w/)
  await page.getByRole('contentinfo').getByRole('link', { name: 'Track Order' }).click()
  await expect(page).toHaveURL(/\/track$/)
})

test.describe('open now', () => {
  // A device far from the shop: the text still follows the shop's clock.
  test.use({ timezoneId: 'Asia/Tokyo' })

  test('the header and the contact page say whether the shop is open, in its time zone', async ({
    page,
    baseURL,
  }) => {
    const pulled = await (
      await nodeClient(baseURL!)
    ).rpc('pull_shop_settings', {
      after_modified: null,
      after_id: null,
      max_rows: 10,
      behind_from: null,
    })
    const row = (pulled.data as { rows: ShopSettingsRow[] }).rows[0]!
    const hours: WeeklyHours = shopSettingsRowToDoc(row).openingHours
    // The minute can turn during the test: either side of it is right.
    const expected = () => {
      const now = Date.now()
      return [openStatus(hours, new Date(now)).text, openStatus(hours, new Date(now + 60_000)).text]
    }

    await page.goto('/')
    const strip = header(page).getByText(/^(Open now · closes|Closed)/)
    await expect(strip).toBeVisible()
    expect(expected()).toContain(await strip.textContent())

    await page.goto('/contact')
    const card = page.getByRole('listitem').filter({ hasText: 'Business hours' })
    const text = await card.getByText(/^(Open now · closes|Closed)/).textContent()
    expect(expected()).toContain(text)
    await expect(card).toContainText('Mon')
  })
})
