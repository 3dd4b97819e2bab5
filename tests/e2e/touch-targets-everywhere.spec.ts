import { expect, test, type Page } from '@playwright/test'
import { walkAdmin } from './helpers/admin-walk'
import { AGE_VERIFIED_KEY } from './helpers/storefront'
import { TargetSweep } from './helpers/touch-targets'

// Issue 25, touch: WCAG 2.5.8's 24 × 24 on every shop page at phone and desktop sizes, and on
// every admin page and open dialog at the staff tablet's size; 44 × 44 for the main controls on
// phones and the tablet. Each walk collects all its findings and fails once, listing them.
//
// Named to run after admin-auth.spec.ts (files run in name order): the admin walk signs in as
// the first admin (creating it when run alone).

const PRODUCT = '/product/watermelon-sea-salt-gummies'

test.use({ reducedMotion: 'reduce' })

const SHOP_DEVICES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, touch: false },
] as const

async function walkShop(page: Page, sweep: TargetSweep, phone: boolean) {
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()
  await sweep.check('age gate')
  if (phone)
    await sweep.thumb(
      page.getByRole('button', { name: "I'm 21 or older", exact: true }),
      'age gate Yes',
    )
  await page.evaluate((key) => localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)

  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Featured Products' })).toBeVisible()
  await sweep.check('home')
  if (phone) {
    await sweep.thumb(page.getByRole('button', { name: 'Open menu' }), 'Open menu')
    await sweep.thumb(page.getByRole('link', { name: /^Cart, / }), 'cart')
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await sweep.check('side menu', '[role="dialog"]')
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toBeHidden()
  }
  const footer = page.getByRole('contentinfo')
  await footer.getByRole('button', { name: 'Get Text Updates' }).click()
  await expect(page.getByRole('dialog', { name: 'Get Text Updates' })).toBeVisible()
  await sweep.check('Get Text Updates dialog', '[role="dialog"]')
  await page.keyboard.press('Escape')

  for (const menu of ['/menu/flower', '/menu/wholesale']) {
    await page.goto(menu)
    await expect(page.getByText(/^Showing \d+ of \d+ products/)).toBeVisible()
    await sweep.check(menu)
  }
  await page.getByRole('button', { name: 'List view' }).click()
  await sweep.check('/menu/wholesale, list view')
  if (phone) {
    await page.getByRole('button', { name: /^Filters/ }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await sweep.check('filter drawer', '[role="dialog"]')
    await sweep.atLeast24(page.getByRole('slider', { name: 'Minimum Price' }), 'price slider thumb')
    await page.keyboard.press('Escape')
  }
  await page.getByRole('combobox', { name: 'Sort by' }).click()
  await expect(page.getByRole('listbox')).toBeVisible()
  await sweep.check('sort options', '[role="listbox"]')
  await page.keyboard.press('Escape')

  await page.goto('/marketplace')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await sweep.check('/marketplace')

  await page.goto(PRODUCT)
  const add = page.getByRole('button', { name: 'Add to Cart' })
  await expect(add).toBeVisible()
  await sweep.check('product')
  if (phone) await sweep.thumb(add, 'Add to Cart')
  await add.click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  const toast = page.locator('[data-scope="toast"][data-part="root"]').first()
  await toast.hover()
  await sweep.check('added to the cart (toast)', '[data-scope="toast"][data-part="root"]')
  // Spaced out, so WCAG lets them be smaller; still a finger's 24 px.
  await sweep.atLeast24(toast.getByRole('button', { name: 'Dismiss' }), 'toast Dismiss')

  await page.goto('/cart')
  await expect(page.getByRole('heading', { name: /^Shopping Cart/ })).toBeVisible()
  await sweep.check('cart')

  await page.goto('/checkout')
  const place = page.getByRole('button', { name: 'Place Order' })
  await expect(place).toBeVisible()
  await sweep.check('checkout')
  if (phone) await sweep.thumb(place, 'Place Order')
  await page.getByLabel('First Name').fill('Tess')
  await page.getByLabel('Last Name').fill('Target')
  await page.getByLabel('Email').fill('tess-targets@example.com')
  await page.getByLabel('Phone').fill('(510) 555-0100')
  await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
  await page.getByRole('radio', { name: 'Cash', exact: true }).check()
  await place.click()
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
  await sweep.check('order confirmation')
  await page.getByRole('link', { name: 'Track your order' }).click()
  await expect(page).toHaveURL(/\/orders\//)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await sweep.check('order page')

  for (const [path, heading] of [
    ['/track', /Track/],
    ['/account', /orders/i],
    ['/my-items', /My Items/],
    ['/contact', 'Contact Us'],
  ] as const) {
    await page.goto(path)
    await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible()
    await sweep.check(path)
  }
  await page.goto('/definitely/not/here')
  await expect(page.getByText('Oops! Page not found')).toBeVisible()
  await sweep.check('404')
}

test('the sweep finds a small target that crowds another, and lets a spaced one be', async ({
  page,
}) => {
  await page.setContent(`
    <button style="position:absolute;left:10px;top:10px;width:40px;height:40px">Big</button>
    <button style="position:absolute;left:52px;top:20px;width:16px;height:16px;padding:0">x</button>
    <button style="position:absolute;left:200px;top:200px;width:16px;height:16px;padding:0">y</button>
    <p style="position:absolute;top:300px">Call <a href="#">us</a> today.</p>`)
  const sweep = new TargetSweep(page, 'test page')
  await sweep.check('crowded')
  expect(sweep.found).toEqual(['[test page] crowded: button "x" 16×16 at 52,20'])
})

for (const device of SHOP_DEVICES) {
  test.describe(`the shop on a ${device.name}`, () => {
    test.use({ viewport: device.viewport, hasTouch: device.touch, isMobile: device.touch })

    test(`every shop page: nothing under 24 × 24 (${device.name})`, async ({ page }) => {
      test.setTimeout(180_000)
      const sweep = new TargetSweep(page, device.name)
      await walkShop(page, sweep, device.touch)
      sweep.report()
    })
  })
}

test.describe('the staff tablet', () => {
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: false })

  test('every admin page and dialog: nothing under 24 × 24, main controls 44 × 44', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    const sweep = new TargetSweep(page, 'tablet')
    await walkAdmin(page, baseURL!, 'Tabby', {
      check: (where, within) => sweep.check(where, within),
      mainControl: (control, what) => sweep.thumb(control, what),
      inDialog: async (command, dialog) => {
        if (command === 'Admin Settings')
          await sweep.atLeast24(dialog.getByText('Closed').first(), 'opening hours Closed label')
      },
    })
    sweep.report()
  })
})
