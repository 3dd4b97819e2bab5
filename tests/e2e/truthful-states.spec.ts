import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { adminClient, nodeClient } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

// Issue 33, "States that tell the truth" and "A phone-first product page" (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md), on a
// phone and on a tablet: an order still on the phone is "Waiting to be sent", not "Received",
// until it reaches the shop; offline, a video-first gallery shows its cached cover; stock is said
// in words; the phone-ordering hours follow the shop's settings; on a phone the product's name,
// potency, price and Add to Cart show without scrolling, and toasts cover none of them.

const PHONE = { width: 390, height: 844 }
const TABLET = { width: 1024, height: 768 }

// Watermelon Sea Salt Gummies: $22, 60 in stock; Sonoma Sunrise Haze: a video first, then its
// cover image; Shasta Sleepy Kush: 3 in stock (supabase/seed/catalogue.ts).
const GUMMIES = '/product/watermelon-sea-salt-gummies'
const VIDEO_FIRST = { slug: 'sonoma-sunrise-haze', name: 'Sonoma Sunrise Haze' }
const LOW_STOCK = { slug: 'shasta-sleepy-kush', name: 'Shasta Sleepy Kush' }

test.beforeEach(async ({ context }) => passAgeGate(context))

/** The one online visit: controlled by the service worker, the catalogue synced. */
async function visitOnce(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(path)
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
  await page.waitForFunction(() => localStorage.getItem('humo.last-synced-at') !== null)
  return page
}

/** Offline in a new page: nothing of the online page's memory is left (pwa-offline.spec.ts). */
async function goOfflineWithNewPage(context: BrowserContext, online: Page): Promise<Page> {
  await online.close()
  await context.setOffline(true)
  return context.newPage()
}

type Box = { x: number; y: number; width: number; height: number }

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox()
  if (!box) throw new Error(`no box for ${locator.toString()}`)
  return box
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

/** Every toast shown now stays clear of `target`. */
async function expectNoToastOver(page: Page, target: Locator) {
  const targetBox = await boxOf(target)
  const toasts = page.locator('[data-scope="toast"][data-part="root"]')
  await expect(toasts.first()).toBeVisible()
  for (const toast of await toasts.all())
    expect(overlaps(await boxOf(toast), targetBox)).toBe(false)
}

async function fillCheckout(page: Page, email: string) {
  await page.getByLabel('First Name').fill('Ana')
  await page.getByLabel('Last Name').fill('Reyes')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Phone').fill('(510) 555-0100')
  await page.getByLabel('Address', { exact: true }).fill('12 Grand Ave')
  await page.getByLabel('City').fill('Oakland')
  await page.getByLabel('ZIP Code').fill('94612')
  await page.getByRole('radio', { name: 'Cash', exact: true }).check()
}

async function stockOf(baseURL: string, slug: string): Promise<number> {
  const anon = await nodeClient(baseURL)
  const { data, error } = await anon
    .from('products')
    .select('quantity_available')
    .eq('slug', slug)
    .single<{ quantity_available: number }>()
  if (error) throw error
  return data.quantity_available
}

for (const [device, viewport] of [
  ['phone', PHONE],
  ['tablet', TABLET],
] as const) {
  test.describe(`on a ${device}`, () => {
    test.use({ viewport })

    test('an order saved offline is "Waiting to be sent" until it reaches the shop, which the page and a toast say', async ({
      context,
    }) => {
      const page = await goOfflineWithNewPage(context, await visitOnce(context, '/'))
      await page.goto(GUMMIES)
      await page.getByRole('button', { name: 'Add to Cart' }).click()
      await expect(page.getByTestId('cart-count')).toHaveText('1')
      await page.goto('/checkout')
      await expect(page.getByText(/You are offline/)).toBeVisible()
      await fillCheckout(page, `waiting-${device}-${Date.now()}@example.com`)
      await page.getByRole('button', { name: 'Place Order' }).click()

      await expect(page.getByRole('heading', { name: 'Order saved' })).toBeVisible()
      await expect(
        page.getByText(/Saved \d{1,2}:\d{2} [AP]M; the shop has not received it/),
      ).toBeVisible()
      // The "Order saved" toast shows over the confirmation: "Track your order" stays clear.
      const track = page.getByRole('link', { name: 'Track your order' })
      await expect(
        page.locator('[data-scope="toast"]').getByText('Order saved', { exact: true }),
      ).toBeVisible()
      await expectNoToastOver(page, track)
      await track.click()
      await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/)
      const id = page.url().split('/').pop()!
      const number = `#${id.slice(0, 8).toUpperCase()}`

      const steps = page.getByRole('list', { name: 'Order status' })
      const current = steps.locator('[aria-current="step"]')
      await expect(current).toContainText('Waiting to be sent')
      await expect(current).toContainText(/Saved \d{1,2}:\d{2} [AP]M/)
      // No step of the shop's is reached, so none has a time: "Received" is not claimed.
      await expect(steps.getByRole('listitem').filter({ hasText: 'Received' })).not.toContainText(
        /\d:\d{2}/,
      )
      await expect(page.getByText(/this order was saved on this device at/)).toBeVisible()

      await context.setOffline(false)
      const reached = `Order ${number} reached the shop`
      const toast = page
        .locator('[data-scope="toast"][data-part="root"]')
        .filter({ hasText: reached })
      await expect(toast).toBeVisible({ timeout: 20_000 })
      await expect(page.getByRole('main').getByText(`${reached}.`)).toBeVisible()
      await expect(current).toContainText('Received')
      await expect(current).toContainText(/\d{1,2}:\d{2} [AP]M/)
      await expect(steps).not.toContainText('Waiting to be sent')
    })

    test('offline, a gallery whose first medium is a video shows its cached cover image', async ({
      context,
      baseURL,
    }) => {
      const online = await visitOnce(context, '/')
      // The cover is warmed with the catalogue (the card's image); the video was never played.
      const anon = await nodeClient(baseURL!)
      const { data, error } = await anon
        .from('products')
        .select('slug, product_media(media_url, media_type, is_primary)')
        .eq('slug', VIDEO_FIRST.slug)
        .single<{
          product_media: { media_url: string; media_type: string; is_primary: boolean }[]
        }>()
      if (error) throw error
      const cover = data.product_media.find((m) => m.media_type === 'image' && m.is_primary)
      expect(data.product_media.some((m) => m.media_type === 'video')).toBe(true)
      expect(cover).toBeTruthy()
      await expect
        .poll(
          () =>
            online.evaluate(async () => {
              const cache = await caches.open('humo-media')
              return (await cache.keys()).map((r) => r.url)
            }),
          { timeout: 30_000 },
        )
        .toContainEqual(expect.stringContaining(cover!.media_url))

      const page = await goOfflineWithNewPage(context, online)
      await page.goto(`/product/${VIDEO_FIRST.slug}`)
      const slide = page.getByRole('group', { name: /^1 of \d/ })
      const image = slide.getByRole('img', { name: VIDEO_FIRST.name })
      await expect(image).toBeVisible()
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0)
      // The player, when made, lets the cover show through until it has a frame, which offline it
      // never gets: no spinner on an empty box.
      const video = slide.locator('video')
      await page.waitForTimeout(3_500)
      if ((await video.count()) > 0)
        expect(await video.evaluate((v) => getComputedStyle(v).opacity)).toBe('0')
      await expect(image).toBeVisible()
    })

    test('stock is said in words: "Only N left" on the card and the product page', async ({
      page,
      baseURL,
    }) => {
      const stock = await stockOf(baseURL!, LOW_STOCK.slug)
      expect(stock).toBeGreaterThan(0)
      expect(stock).toBeLessThanOrEqual(10)
      await page.goto('/menu/flower')
      const card = page.getByRole('article').filter({ hasText: LOW_STOCK.name })
      await expect(card.getByText(`Only ${stock} left`, { exact: true })).toBeVisible()
      await page.goto(`/product/${LOW_STOCK.slug}`)
      await expect(page.getByText(`Only ${stock} left in stock!`)).toBeVisible()
    })
  })
}

test.describe('on a phone (390 × 844)', () => {
  test.use({ viewport: PHONE })

  test("the product's name, potency, price and Add to Cart show without scrolling", async ({
    page,
  }) => {
    await page.goto(GUMMIES)
    const name = page.getByRole('heading', { level: 1, name: 'Watermelon Sea Salt Gummies' })
    await expect(name).toBeVisible()
    const bar = page.locator('[data-buy-bar]')
    const addToCart = bar.getByRole('button', { name: 'Add to Cart' })
    await expect(addToCart).toBeVisible()
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    const barBox = await boxOf(bar)
    const price = page.getByTestId('product-price')
    const potency = page.getByTestId('potency')
    for (const [what, locator] of [
      ['name', name],
      ['price', price],
      ['potency', potency.locator(':scope > *').first()],
    ] as const) {
      const box = await boxOf(locator)
      expect(box.y, what).toBeGreaterThanOrEqual(0)
      // Above the fixed Add to Cart bar, so nothing covers it.
      expect(box.y + box.height, what).toBeLessThanOrEqual(barBox.y)
    }
    const buttonBox = await boxOf(addToCart)
    expect(buttonBox.y + buttonBox.height).toBeLessThanOrEqual(PHONE.height)

    // "Added to cart!" stands above the bar, never over it.
    await addToCart.click()
    await expect(page.getByText('Added to cart!')).toBeVisible()
    await expectNoToastOver(page, bar)
  })

  test('the confirmation\'s toast leaves "Track your order" uncovered', async ({ page }) => {
    await page.goto(GUMMIES)
    await page.locator('[data-buy-bar]').getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByTestId('cart-count')).toHaveText('1')
    await page.goto('/checkout')
    // Pickup: its window and the store's address make the confirmation's facts the longest.
    await page.getByLabel('First Name').fill('Ana')
    await page.getByLabel('Last Name').fill('Reyes')
    await page.getByLabel('Email').fill(`toast-${Date.now()}@example.com`)
    await page.getByLabel('Phone').fill('(510) 555-0100')
    await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
    await expect(page.getByLabel('Pickup time')).not.toHaveValue('')
    await page.getByRole('radio', { name: 'Cash', exact: true }).check()
    await page.getByRole('button', { name: 'Place Order' }).click()
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
    await expect(page.getByText('Order placed successfully!')).toBeVisible()
    const track = page.getByRole('link', { name: 'Track your order' })
    await expect(track).toBeVisible()
    await expectNoToastOver(page, track)
    await track.click()
    await expect(page).toHaveURL(/\/orders\//)
  })
})

test.describe('phone-ordering hours', () => {
  type Hours = ({ open: string; close: string } | null)[]
  let before: Record<string, unknown>

  const saveHours = async (baseURL: string, openingHours: Hours) => {
    const admin = await adminClient(baseURL)
    const { error } = await admin.rpc('admin_save_shop_settings', {
      p_settings: {
        standardShipping: before.standard_shipping,
        expressDelivery: before.express_delivery,
        freeShippingThreshold: before.free_shipping_threshold,
        facts: before.facts,
        openingHours,
        pickupPrepMinutes: before.pickup_prep_minutes,
        pickupSlotMinutes: before.pickup_slot_minutes,
      },
    })
    if (error) throw error
  }

  test.beforeAll(async ({ baseURL }) => {
    const admin = await adminClient(baseURL!)
    const { data, error } = await admin
      .from('shop_settings')
      .select('*')
      .single<Record<string, unknown>>()
    if (error) throw error
    before = data
  })

  // Other specs run against the same shop: its hours go back as they were.
  test.afterAll(async ({ baseURL }) => saveHours(baseURL!, before.opening_hours as Hours))

  for (const [device, viewport] of [
    ['phone', PHONE],
    ['tablet', TABLET],
  ] as const) {
    test(`on a ${device}, the header and footer say the phone hours of the shop's settings`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ viewport })
      await passAgeGate(context)
      const page = await context.newPage()
      // Open all day, every day: until 11:59 PM.
      await saveHours(
        baseURL!,
        Array.from({ length: 7 }, () => ({ open: '00:00', close: '23:59' })),
      )
      await page.goto('/')
      const footer = page.getByRole('contentinfo')
      await expect(async () => {
        await page.reload()
        await expect(footer.getByText('Order by phone until 11:59 PM')).toBeVisible({
          timeout: 2_000,
        })
      }).toPass({ timeout: 30_000 })
      const header = page.getByRole('banner')
      // The strip has room for the words from a tablet up; a phone shows the number.
      if (device === 'tablet')
        await expect(header.getByText('Order by phone until 11:59 PM')).toBeVisible()
      await expect(page.getByText(/24\/7/)).toHaveCount(0)

      // Closed today, open tomorrow from 9:00 AM (the shop's day, in Los Angeles).
      const weekday = new Date(
        new Date().toLocaleString('en-US', { timeZone: 'America/Los_Angeles' }),
      ).getDay()
      const tomorrowOnly: Hours = Array.from({ length: 7 }, (_, day) =>
        day === (weekday + 1) % 7 ? { open: '09:00', close: '17:00' } : null,
      )
      await saveHours(baseURL!, tomorrowOnly)
      await expect(async () => {
        await page.reload()
        await expect(footer.getByText('Order by phone from 9:00 AM tomorrow')).toBeVisible({
          timeout: 2_000,
        })
      }).toPass({ timeout: 30_000 })
      if (device === 'tablet')
        await expect(header.getByText('Order by phone from 9:00 AM tomorrow')).toBeVisible()
      await context.close()
    })
  }
})
