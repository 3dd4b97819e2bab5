import { expect, test, type Page } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

// Issue 23, finding 4 (docs/decisions/026-rate-limits-and-unaccepted-orders.md): when the server answers 429, the shopper reads why and what
// happens next, and nothing typed is lost: an order stays on the device and is sent by itself
// after Retry-After (the cart is not given back as for a refusal), a contact message likewise,
// and Track Order keeps the number and contact typed. The e2e server's limits are raised for the
// suite (playwright.config.ts), so the 429s here are the server's own answer shape, replayed by
// the browser's router; tests/integration/server-rules/rate-limits.test.ts shows the server
// giving them.

// Route interception does not see requests a service worker handles.
test.use({ serviceWorkers: 'block' })

const PRODUCT = '/product/watermelon-sea-salt-gummies'

test.beforeEach(async ({ context }) => {
  await passAgeGate(context)
})

/** Answers calls to one RPC with the server's 429 until `stop` is called. */
async function limit(page: Page, rpc: string, message: string, retryAfter: number) {
  const url = `**/rest/v1/rpc/${rpc}`
  const handler = (route: Parameters<Parameters<Page['route']>[1]>[0]) =>
    route.fulfill({
      status: 429,
      headers: {
        'Content-Type': 'application/json',
        'Retry-After': String(retryAfter),
        'Access-Control-Allow-Origin': '*',
      },
      body: JSON.stringify({
        code: 'PT429',
        message,
        details: `Retry after ${retryAfter} seconds`,
        hint: null,
      }),
    })
  await page.route(url, handler)
  return () => page.unroute(url, handler)
}

test('a rate-limited order waits on the device, says when it is sent, and is then confirmed', async ({
  page,
}) => {
  test.setTimeout(60_000)
  const stop = await limit(
    page,
    'place_order',
    'Too many orders from this connection. Please wait 1 minute and try again.',
    5,
  )
  await page.goto(PRODUCT)
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await page.goto('/checkout')
  await page.getByLabel('First Name').fill('Ana')
  await page.getByLabel('Last Name').fill('Reyes')
  await page.getByLabel('Email').fill(`limited-${Date.now()}@example.com`)
  await page.getByLabel('Phone').fill('(510) 555-0100')
  await page.getByLabel('Address', { exact: true }).fill('12 Grand Ave')
  await page.getByLabel('City').fill('Oakland')
  await page.getByLabel('ZIP Code').fill('94612')
  await page.getByRole('button', { name: 'Place Order' }).click()

  await expect(page).toHaveURL(/\/checkout\/success/)
  await expect(page.getByRole('heading', { name: 'Order saved' })).toBeVisible()
  await expect(
    page.getByText(
      /^Too many orders from this connection\. Your order is saved on this device and will be sent again automatically at \d{1,2}:\d\d [AP]M; there is no need to place it again\.$/,
    ),
  ).toBeVisible()
  // Not a refusal: the cart is not handed back and no "couldn't place" page.
  await expect(page.getByRole('heading', { name: "We couldn't place your order" })).toHaveCount(0)
  await expect(page.getByTestId('cart-count')).toHaveCount(0)

  // The limit passes: the device sends it by itself after Retry-After.
  await stop()
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({
    timeout: 20_000,
  })
})

test('a rate-limited contact message says it will be sent by itself', async ({ page }) => {
  await limit(
    page,
    'submit_contact_message',
    'Too many messages from this connection. Please wait 40 minutes and try again.',
    2400,
  )
  await page.goto('/contact')
  await page.getByLabel('First Name').fill('Lupe')
  await page.getByLabel('Last Name').fill('Ortiz')
  await page.getByLabel('Email Address').fill('lupe@example.com')
  await page.getByLabel('Subject').fill('Delivery to Berkeley?')
  await page.getByRole('textbox', { name: 'Message' }).fill('Do you deliver to 94704?')
  await page.getByRole('button', { name: 'Send Message' }).click()
  await expect(
    page.getByText(
      /^Too many messages from this connection\. Your message is saved on this device and will be sent automatically at \d{1,2}:\d\d [AP]M; there is no need to send it again\.$/,
    ),
  ).toBeVisible()
  await expect(page.getByText("Thanks! We'll respond within 24 hours.")).toHaveCount(0)
})

test('Track Order says to wait and keeps what was typed', async ({ page }) => {
  await limit(
    page,
    'track_order',
    'Too many order lookups from this connection. Please wait 15 minutes and try again.',
    900,
  )
  await page.goto('/track')
  await page.getByLabel('Order number').fill('1A2B3C4D')
  await page.getByLabel('Email or phone').fill('ana@example.com')
  await page.getByRole('button', { name: 'Track' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Too many order lookups from this connection. Please wait 15 minutes and try again.',
  )
  await expect(page.getByLabel('Order number')).toHaveValue('1A2B3C4D')
  await expect(page.getByLabel('Email or phone')).toHaveValue('ana@example.com')
})
