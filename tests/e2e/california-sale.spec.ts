import { expect, test, type Page } from '@playwright/test'
import {
  cents,
  createProduct,
  deleteProducts,
  expectLinesAddUp,
  freshPhone,
  passAgeGateAsPatient,
  type TestProduct,
} from './helpers/california'
import { passAgeGate } from './helpers/storefront'

// Issue 31, a lawful sale in California, through the shopper's screens: California's taxes each on
// their own line from cart to receipt, a medical patient's MMIC, the daily limit across two
// orders of one person, and the server's total winning over a device's stale one.

const EXCISE_INCLUDED =
  'The cannabis excise taxes are included in the total amount of this invoice.'
const SAFETY = "California's cannabis safety information for consumers"

const cartSummary = (page: Page) => page.getByRole('region', { name: 'Order Summary' })
const checkoutSummary = (page: Page) => page.getByRole('complementary', { name: 'Order Summary' })
const confirmationSummary = (page: Page) =>
  page.getByRole('main').getByRole('region', { name: 'Order Summary' })
const orderPageSummary = (page: Page) => page.getByRole('region', { name: 'Items' })

async function addToCart(page: Page, product: TestProduct, count: string) {
  await page.goto(`/product/${product.slug}`)
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText(count)
}

/** In the cart, raises the first line to `quantity` units. */
async function setQuantity(page: Page, quantity: number) {
  await page.goto('/cart')
  await expect(page.getByRole('heading', { name: /^Shopping Cart \(\d+ items\)$/ })).toBeVisible()
  const stepper = page.getByRole('button', { name: /^Increase quantity/ }).first()
  const shown = page.getByLabel('Quantity', { exact: true }).first()
  for (let n = Number(await shown.innerText()); n < quantity; n++) {
    await stepper.click()
    await expect(shown).toHaveText(String(n + 1))
  }
}

async function fillContact(page: Page, email: string, phone: string) {
  await page.getByLabel('First Name').fill('Marisol')
  await page.getByLabel('Last Name').fill('Vega')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Phone').fill(phone)
}

async function placePickupOrder(page: Page, email: string, phone: string) {
  await page.goto('/checkout')
  await fillContact(page, email, phone)
  await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
  await page.getByRole('radio', { name: 'Cash', exact: true }).check()
  await page.getByRole('button', { name: 'Place Order' }).click()
  await expect(page).toHaveURL(/\/checkout\/success/)
}

/** Labels of the money rows that are taxes. */
const taxLabels = (rows: Map<string, string>) =>
  [...rows.keys()].filter((label) => /tax/i.test(label))

test.describe('a lawful sale', () => {
  const made: TestProduct[] = []
  test.afterAll(async ({ baseURL }) => deleteProducts(baseURL!, made))

  test('a medical patient with an MMIC pays no sales tax, from cart to receipt', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000)
    const chews = await createProduct(baseURL!, 'edible', 30)
    made.push(chews)
    await passAgeGateAsPatient(page)
    await addToCart(page, chews, '1')

    // Checkout starts as the age gate was told: a medical patient. The card exempts the cannabis.
    await page.goto('/checkout')
    await expect(page.getByRole('radio', { name: 'Medical patient (18+)' })).toBeChecked()
    await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
    await expect(checkoutSummary(page).getByText('Sales tax (9.75%)')).toBeVisible()
    const year = new Date().getFullYear() + 1
    await page.getByLabel('MMIC number (optional)').fill('ca-mmic 4821')
    // An expired card says so and keeps what was typed; nothing can be placed until fixed.
    await page.getByLabel('MMIC expiry date (optional)').fill('2024-01-31')
    await expect(page.getByRole('alert').filter({ hasText: 'This MMIC has expired' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Place Order' })).toBeDisabled()
    await expect(page.getByLabel('MMIC number (optional)')).toHaveValue('ca-mmic 4821')
    await page.getByLabel('MMIC expiry date (optional)').fill(`${year}-06-30`)
    await expect(page.getByText('This MMIC has expired')).toHaveCount(0)

    const checkoutRows = await expectLinesAddUp(checkoutSummary(page))
    expect(taxLabels(checkoutRows)).toEqual(['Cannabis excise tax (15%)'])
    // $30 picked up: 15% excise, no sales tax.
    expect(checkoutRows.get('Cannabis excise tax (15%)')).toBe('$4.50')
    expect(checkoutRows.get('Total')).toBe('$34.50')

    // The cart prices for the same buyer and pickup.
    await page.goto('/cart')
    const cartRows = await expectLinesAddUp(cartSummary(page))
    expect(taxLabels(cartRows)).toEqual(['Cannabis excise tax (15%)'])
    expect(cartRows.get('Total')).toBe('$34.50')
    await expect(cartSummary(page).getByText(/Sales tax/)).toHaveCount(0)

    // The receipt: the shop's own figures once it accepted the order.
    await page.getByRole('link', { name: 'Proceed to Checkout' }).click()
    await fillContact(page, `patient-${Date.now()}@example.com`, freshPhone().written)
    await page.getByRole('radio', { name: 'Cash', exact: true }).check()
    await page.getByRole('button', { name: 'Place Order' }).click()
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
    const receipt = confirmationSummary(page)
    await expect(receipt.getByText('Total', { exact: true })).toBeVisible()
    const receiptRows = await expectLinesAddUp(receipt)
    expect(taxLabels(receiptRows)).toEqual(['Cannabis excise tax (15%)'])
    expect(receiptRows.get('Total')).toBe('$34.50')
    await expect(receipt.getByText(EXCISE_INCLUDED)).toBeVisible()
    await expect(page.getByRole('main').getByText(/Sales tax/)).toHaveCount(0)
    const safety = page.getByRole('link', { name: SAFETY })
    await expect(safety).toHaveAttribute('href', 'https://cannabis.ca.gov/consumers/')
    await expect(safety).toHaveAttribute('target', '_blank')
    await expect(safety).toHaveAttribute('rel', 'noopener noreferrer')

    await page.getByRole('link', { name: 'Track your order' }).click()
    const items = orderPageSummary(page)
    const pageRows = await expectLinesAddUp(items)
    expect(taxLabels(pageRows)).toEqual(['Cannabis excise tax (15%)'])
    await expect(items.getByText(EXCISE_INCLUDED)).toBeVisible()
    await expect(page.getByRole('main').getByText(/Sales tax/)).toHaveCount(0)
  })

  test('an adult-use delivery order shows the excise and the sales tax, adding up to the total', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000)
    const chews = await createProduct(baseURL!, 'edible', 30)
    made.push(chews)
    await passAgeGate(page)
    await addToCart(page, chews, '1')

    // $30 delivered for $9.99: excise 15% of $39.99, sales tax 9.75% of $45.99.
    const expected = {
      'Delivery fee': '$9.99',
      'Cannabis excise tax (15%)': '$6.00',
      'Sales tax (9.75%)': '$4.48',
      Total: '$50.47',
    }
    await page.goto('/cart')
    const cartRows = await expectLinesAddUp(cartSummary(page))
    expect(Object.fromEntries(cartRows)).toMatchObject(expected)
    await expect(
      cartSummary(page).getByText("Taxes include California's cannabis excise tax."),
    ).toBeVisible()

    await page.getByRole('link', { name: 'Proceed to Checkout' }).click()
    await expect(page.getByRole('radio', { name: 'Adult use (21+)' })).toBeChecked()
    await expect(page.getByLabel('MMIC number (optional)')).toHaveCount(0)
    await fillContact(page, `adult-${Date.now()}@example.com`, freshPhone().written)
    await page.getByLabel('Address', { exact: true }).fill('1820 Echo Park Ave')
    await page.getByLabel('City').fill('Los Angeles')
    await page.getByLabel('ZIP Code').fill('90026')
    await expect(page.getByRole('radio', { name: 'Standard (next opening day)' })).toBeChecked()
    const checkoutRows = await expectLinesAddUp(checkoutSummary(page))
    expect(Object.fromEntries(checkoutRows)).toMatchObject(expected)
    const safety = checkoutSummary(page).getByRole('link', { name: SAFETY })
    await expect(safety).toHaveAttribute('href', 'https://cannabis.ca.gov/consumers/')
    await expect(safety).toHaveAttribute('rel', 'noopener noreferrer')
    await expect(page.getByText(/shipping|business days/i)).toHaveCount(0)

    // Pickup drops the delivery fee, and with it the excise on it.
    await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
    const pickupRows = await expectLinesAddUp(checkoutSummary(page))
    expect(pickupRows.get('Pickup')).toBe('Free')
    expect(cents(pickupRows.get('Total')!)).toBeLessThan(cents(expected.Total))
    await page.getByRole('radio', { name: 'Delivery', exact: true }).check()

    await page.getByRole('radio', { name: 'Cash', exact: true }).check()
    await page.getByRole('button', { name: 'Place Order' }).click()
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
    await expect(page.getByText('Pay $50.47 in cash on delivery.')).toBeVisible()
    const receipt = confirmationSummary(page)
    await expect(receipt.getByText('Total', { exact: true })).toBeVisible()
    expect(Object.fromEntries(await expectLinesAddUp(receipt))).toMatchObject(expected)
    await expect(receipt.getByText(EXCISE_INCLUDED)).toBeVisible()
    await expect(page.getByText(/during opening hours/).first()).toBeVisible()

    await page.getByRole('link', { name: 'Track your order' }).click()
    expect(Object.fromEntries(await expectLinesAddUp(orderPageSummary(page)))).toMatchObject(
      expected,
    )
    await expect(orderPageSummary(page).getByText(EXCISE_INCLUDED)).toBeVisible()
  })

  test('a second order that would pass 28.5 g of flower today is held back, and the cart kept', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(150_000)
    const kush = await createProduct(baseURL!, 'flower', 20)
    made.push(kush)
    const email = `limit-${Date.now()}@example.com`
    const phone = freshPhone()
    await passAgeGate(page)

    // First order: six eighths, 21 g.
    await addToCart(page, kush, '1')
    await setQuantity(page, 6)
    await placePickupOrder(page, email, phone.written)
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()

    // Three more on this device: the cart knows today's 21 g and says what is left.
    const message =
      "Today's limit is 28.5 g of flower. Your orders today already hold 21 g, so this order can add up to 7.5 g."
    await addToCart(page, kush, '1')
    await setQuantity(page, 3)
    await expect(page.getByRole('alert')).toHaveText(message)
    await expect(page.getByRole('link', { name: 'Proceed to Checkout' })).toHaveCount(0)
    await page.goto('/checkout')
    await expect(checkoutSummary(page).getByRole('alert')).toHaveText(message)
    await expect(page.getByRole('button', { name: 'Place Order' })).toBeDisabled()
    await page.goto('/cart')
    await expect(page.getByRole('heading', { name: 'Shopping Cart (3 items)' })).toBeVisible()

    // The same person on another device, the email in capitals and the phone written otherwise:
    // the device does not know, the server does, and refuses with the same words.
    const other = await browser.newContext()
    await passAgeGate(other)
    const phonePage = await other.newPage()
    await addToCart(phonePage, kush, '1')
    await setQuantity(phonePage, 3)
    await expect(phonePage.getByRole('alert')).toHaveCount(0)
    await placePickupOrder(phonePage, email.toUpperCase(), phone.writtenOtherwise)
    await expect(
      phonePage.getByRole('heading', { name: "We couldn't place your order" }),
    ).toBeVisible()
    await expect(phonePage.getByRole('alert')).toContainText(message)
    await phonePage.getByRole('link', { name: 'Review your cart' }).click()
    await expect(phonePage.getByRole('heading', { name: 'Shopping Cart (3 items)' })).toBeVisible()
    await other.close()
  })
})

test.describe('the server has the last word on the total', () => {
  // Route interception does not see requests a service worker handles.
  test.use({ serviceWorkers: 'block' })

  test("when the taxes changed meanwhile, the shopper sees the shop's new total before anything is final", async ({
    page,
  }) => {
    await passAgeGate(page)
    await page.goto('/product/watermelon-sea-salt-gummies')
    await page.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByTestId('cart-count')).toHaveText('1')
    // The server's answer when its rates differ from the device's (place_order, docs/decisions/051-california-taxes-and-daily-limits.md).
    const refusal = {
      status: 'refused',
      reasons: [
        {
          productId: null,
          code: 'total_changed',
          total: 41.21,
          message:
            'The taxes changed since your cart was priced: this order now comes to $41.21 instead of $34.26. Check the new total and place the order again.',
        },
      ],
    }
    await page.route('**/rest/v1/rpc/place_order', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' },
        body: JSON.stringify(refusal),
      }),
    )
    await placePickupOrder(page, `changed-${Date.now()}@example.com`, freshPhone().written)
    await expect(
      page.getByRole('heading', { name: 'The total of your order changed' }),
    ).toBeVisible()
    await expect(page.getByRole('alert')).toContainText('this order now comes to $41.21')
    await expect(page.getByText('New total: $41.21')).toBeVisible()
    await expect(
      page.getByText(/^Nothing was charged and the order was not placed\./),
    ).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Review your cart' }).click()
    await expect(page.getByRole('heading', { name: 'Shopping Cart (1 items)' })).toBeVisible()
  })
})
