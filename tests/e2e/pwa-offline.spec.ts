import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { adminClient, nodeClient } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

// Cold starts with no network after one online visit (issue 7). Each test visits the shop once
// online in its own fresh context, lets the service worker take control and the catalogue sync
// (which warms the menu's images), then closes that page, turns the network off and opens a new
// page: nothing of the first page's memory is left, only what the device stored.

const MEDIA_CACHE = 'humo-media'
const VIDEO_CACHE = 'humo-media-video'

test.beforeEach(async ({ context }) => passAgeGate(context))

/** Storage paths of each active product's card image, asked of the backend itself. */
async function catalogueImageCount(baseURL: string): Promise<number> {
  const supabase = await nodeClient(baseURL)
  const { data, error } = await supabase
    .from('products')
    .select('id, product_media(media_url, media_type)')
    .eq('is_active', true)
  if (error) throw new Error(error.message)
  return data.filter((p) => p.product_media.some((m) => m.media_type === 'image')).length
}

const cachedUrls = (page: Page, cacheName: string) =>
  page.evaluate(async (name) => {
    const cache = await caches.open(name)
    return (await cache.keys()).map((r) => r.url)
  }, cacheName)

/**
 * The one online visit: the page is controlled by the service worker and the catalogue has
 * synced. Returns the storage media the page itself asked for (the rest came from warming).
 */
async function visitOnce(context: BrowserContext, path: string) {
  const page = await context.newPage()
  const requested = new Set<string>()
  page.on('request', (request) => {
    if (request.url().includes('/storage/v1/object/public/')) requested.add(request.url())
  })
  await page.goto(path)
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
  await page.waitForFunction(() => localStorage.getItem('humo.last-synced-at') !== null)
  return { page, requested }
}

async function goOfflineWithNewPage(context: BrowserContext, online: Page): Promise<Page> {
  await online.close()
  await context.setOffline(true)
  return context.newPage()
}

test('a cold start offline after one online visit shows home, the menu with its pictures and a product', async ({
  context,
  baseURL,
}) => {
  const { page: online, requested } = await visitOnce(context, '/')
  await expect(
    online.getByRole('heading', { name: 'California-grown cannabis, direct from farms' }),
  ).toBeVisible()

  // Warming is done when every product's card image is in the media cache.
  const images = await catalogueImageCount(baseURL!)
  expect(images).toBeGreaterThanOrEqual(12)
  await expect
    .poll(async () => (await cachedUrls(online, MEDIA_CACHE)).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(images)

  // The backend's API is never cached, in any cache.
  const everyCachedUrl = await online.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys())
      urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url))
    return urls
  })
  expect(everyCachedUrl.filter((u) => /\/(rest|auth|realtime)\/v1\//.test(u))).toEqual([])

  const page = await goOfflineWithNewPage(context, online)
  await page.goto('/')
  await expect(
    page.getByRole('heading', { name: 'California-grown cannabis, direct from farms' }),
  ).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: "You're offline." })).toBeVisible()
  // Offline, the API is not answered from any cache: the data comes from RxDB.
  const apiOffline = await page.evaluate(() =>
    fetch('/rest/v1/products?select=id').then(
      (r) => `answered ${r.status}`,
      () => 'failed',
    ),
  )
  expect(apiOffline).toBe('failed')

  await page.goto('/menu/flower')
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
  const cards = page.getByRole('list', { name: 'Products' }).getByRole('listitem')
  await expect(cards.first()).toBeVisible()
  // The grid is virtualised: walk every card by its position, scrolling until it is rendered.
  const total = Number(await cards.first().getAttribute('aria-setsize'))
  expect(total).toBeGreaterThanOrEqual(4)
  const shown: string[] = []
  for (let position = 1; position <= total; position++) {
    const card = page.locator(`[role="listitem"][aria-posinset="${position}"]`)
    await expect
      .poll(async () => {
        if ((await card.count()) > 0) return true
        await page.mouse.wheel(0, 300)
        return false
      })
      .toBe(true)
    const image = card.locator('img').first()
    await image.scrollIntoViewIfNeeded()
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : -1)))
      .toBeGreaterThan(0)
    shown.push(await image.evaluate((img: HTMLImageElement) => img.currentSrc))
  }
  await expect(page.getByText('Media unavailable')).toHaveCount(0)
  // Some of these pictures were never on screen online: only warming can have stored them.
  expect(shown.filter((src) => !requested.has(src)).length).toBeGreaterThan(0)

  await page.evaluate(() => window.scrollTo(0, 0))
  const firstName = await cards.first().getByRole('heading').innerText()
  await cards.first().getByRole('heading').click()
  await expect(page.getByRole('heading', { name: firstName, level: 1 })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeVisible()
})

/** Whether the service worker keeps a copy of the page at `path` (docs/decisions/013-starts-from-a-kept-copy.md). */
const keepsCopyOf = (page: Page, path: string) =>
  page.evaluate(async (wanted) => {
    const name = (await caches.keys()).find((n) => n.startsWith('humo-pages-'))
    return name ? Boolean(await (await caches.open(name)).match(wanted)) : false
  }, path)

test('offline, a catalogue page starts from the copy kept online, and the app takes its place', async ({
  context,
}) => {
  const { page: online } = await visitOnce(context, '/')
  // The common pages are kept once the catalogue has synced; a product page once it is opened.
  await expect.poll(() => keepsCopyOf(online, '/menu/flower'), { timeout: 30_000 }).toBe(true)
  const product = '/product/humboldt-purple-kush'
  await online.goto(product)
  await expect.poll(() => keepsCopyOf(online, product), { timeout: 30_000 }).toBe(true)

  const page = await goOfflineWithNewPage(context, online)
  const menu = await page.goto('/menu/flower')
  expect(menu?.fromServiceWorker()).toBe(true)
  const html = (await menu?.text()) ?? ''
  // The menu's copy, drawn by the server with its products, marked as kept; the app's scripts
  // are asked for ahead of it.
  expect(html).toContain('<div id="prerendered-page" data-kept')
  expect(html).toContain('Flower Menu')
  expect(html).toContain('Humboldt Purple Kush')
  expect(html.indexOf('id="humo-scripts"')).toBeLessThan(html.indexOf('id="prerendered-page"'))
  // The app's own page takes the copy's place, and works offline.
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
  await expect(page.locator('#prerendered-page')).toHaveCount(0)
  const cards = page.getByRole('list', { name: 'Products' }).getByRole('listitem')
  await expect(cards.first()).toBeVisible()

  const productPage = await page.goto(product)
  expect(await productPage?.text()).toContain('data-kept')
  await expect(page.getByRole('heading', { name: 'Humboldt Purple Kush', level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Add to Cart' }).first().click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  // A page with no copy kept (a filtered view) still starts, from the shell.
  const filtered = await page.goto('/menu/flower?sort=price-asc')
  expect(await filtered?.text()).not.toContain('<div id="prerendered-page"')
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
})

test('a kept copy is not drawn under the splash; with the app held up, it shows when the count is over', async ({
  context,
}) => {
  const { page: online } = await visitOnce(context, '/')
  await expect.poll(() => keepsCopyOf(online, '/menu/flower'), { timeout: 30_000 }).toBe(true)
  await online.close()

  const page = await context.newPage()
  // The app's scripts never start (the loader's module script gets no src): only index.html acts.
  await page.addInitScript(() => {
    const src = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, 'src')!
    Object.defineProperty(HTMLScriptElement.prototype, 'src', {
      ...src,
      set(this: HTMLScriptElement, value: string) {
        if (this.type !== 'module') src.set?.call(this, value)
      },
    })
  })
  // What the copy looks like to the browser while the splash is up, from the moment the parser
  // adds it (a busy machine may get to a later check only when the count is already over).
  await page.addInitScript(() => {
    const seen: { kept: boolean; display: string }[] = []
    Object.assign(window, { keptCopyUnderSplash: seen })
    const observer = new MutationObserver(() => {
      const copy = document.getElementById('prerendered-page')
      if (!copy) return
      if (!document.getElementById('boot-splash')) return observer.disconnect()
      seen.push({ kept: copy.hasAttribute('data-kept'), display: getComputedStyle(copy).display })
    })
    observer.observe(document, { childList: true, subtree: true })
  })
  await page.goto('/menu/flower', { waitUntil: 'domcontentloaded' })
  const state = () =>
    page.evaluate(() => ({
      display: getComputedStyle(document.getElementById('prerendered-page')!).display,
      at: performance.now(),
    }))
  const underSplash = await page.evaluate(
    () =>
      (window as unknown as { keptCopyUnderSplash: { kept: boolean; display: string }[] })
        .keptCopyUnderSplash,
  )
  expect(underSplash.length).toBeGreaterThan(0)
  // It is the copy this device kept, and under the splash it is neither styled nor laid out
  // (nobody sees it there).
  expect(underSplash.every((seen) => seen.kept)).toBe(true)
  expect(underSplash.map((seen) => seen.display)).toEqual(underSplash.map(() => 'none'))
  // When SPEC's count is over, the splash leaves onto the copy: the menu, as the server drew it.
  await expect(page.locator('#boot-splash')).toHaveCount(0)
  const late = await state()
  expect(late.display).toBe('block')
  expect(late.at).toBeGreaterThanOrEqual(950)
  await expect(page.locator('#prerendered-page')).toBeVisible()
  expect((await page.locator('#prerendered-page').boundingBox())?.height).toBeGreaterThan(800)
})

test('offline, the cart and checkout work, and the order reaches the shop on reconnect', async ({
  context,
  baseURL,
}) => {
  const { page: online } = await visitOnce(context, '/')
  const page = await goOfflineWithNewPage(context, online)

  // Watermelon Sea Salt Gummies: $22, 60 in stock (supabase/seed/catalogue.ts).
  await page.goto('/product/watermelon-sea-salt-gummies')
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await page.goto('/cart')
  await expect(page.getByRole('heading', { name: 'Shopping Cart (1 items)' })).toBeVisible()
  await page.getByRole('link', { name: 'Proceed to Checkout' }).click()

  const email = `offline-${Date.now()}@example.com`
  await expect(page.getByText(/You are offline/)).toBeVisible()
  await page.getByLabel('First Name').fill('Ana')
  await page.getByLabel('Last Name').fill('Reyes')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Phone').fill('(510) 555-0100')
  await page.getByLabel('Address', { exact: true }).fill('12 Grand Ave')
  await page.getByLabel('City').fill('Oakland')
  await page.getByLabel('ZIP Code').fill('94612')
  await page.getByRole('radio', { name: 'Cash', exact: true }).check()
  await page.getByRole('button', { name: 'Place Order' }).click()

  await expect(page).toHaveURL(/\/checkout\/success/)
  await expect(page.getByRole('heading', { name: 'Order saved' })).toBeVisible()
  const banner = page.getByRole('status').filter({ hasText: "You're offline." })
  await expect(banner).toContainText('1 order waiting to send.')

  const admin = await adminClient(baseURL!)
  const ordersOf = async () => {
    const { data, error } = await admin
      .from('orders')
      .select('id, status, total, payment_method')
      .eq('customer_email', email)
    if (error) throw new Error(error.message)
    return data
  }
  expect(await ordersOf()).toEqual([])

  await context.setOffline(false)
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({
    timeout: 20_000,
  })
  await expect(banner).toHaveCount(0)
  const orders = await ordersOf()
  expect(orders).toHaveLength(1)
  expect(orders[0]).toMatchObject({ status: 'pending', payment_method: 'cash' })
  // $22 + $9.99 delivery + 15% excise ($4.80) + 9.75% sales tax ($3.59): $40.38, as the cart
  // said offline.
  expect(Number(orders[0]!.total)).toBe(40.38)
})

test('offline, a video seen once is answered from the cache by byte range, and plays', async ({
  context,
  request,
}) => {
  // Sonoma Sunrise Haze has a short looping video (supabase/seed/media).
  // The first visit's own requests precede the service worker; the product is opened after.
  const { page: online } = await visitOnce(context, '/')
  await online.goto('/product/sonoma-sunrise-haze')
  const video = online.locator('video').first()
  await expect(video).toBeAttached()
  const src = (await video.locator('source').getAttribute('src'))!.split('#')[0]!
  const videoUrl = new URL(src, online.url()).href
  // The player asked for ranges; the service worker stored the whole file, not a 206 slice.
  await expect.poll(() => cachedUrls(online, VIDEO_CACHE), { timeout: 20_000 }).toContain(videoUrl)
  const file = await (await request.get(videoUrl)).body()
  expect(file.length).toBeGreaterThan(2000)

  const page = await goOfflineWithNewPage(context, online)
  await page.goto('/')
  const answer = await page.evaluate(async (url) => {
    const response = await fetch(url, { headers: { Range: 'bytes=1000-1999' } })
    return {
      status: response.status,
      contentRange: response.headers.get('content-range'),
      bytes: [...new Uint8Array(await response.arrayBuffer())],
    }
  }, videoUrl)
  expect(answer.status).toBe(206)
  expect(answer.contentRange).toBe(`bytes 1000-1999/${file.length}`)
  expect(Buffer.from(answer.bytes).equals(file.subarray(1000, 2000))).toBe(true)

  // The product page's player streams, plays and seeks with no network.
  await page.goto('/product/sonoma-sunrise-haze')
  const player = page.locator('video').first()
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState))
    .toBeGreaterThanOrEqual(2)
  await player.evaluate(async (v: HTMLVideoElement) => {
    await v.play()
    v.currentTime = v.duration / 2
    await new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }))
  })
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => (v.paused ? -1 : v.currentTime)))
    .toBeGreaterThan(0)
  await expect(page.getByText('Video unavailable')).toHaveCount(0)
})

test('an unknown path shows the 404 page with a way home, online and offline', async ({
  context,
}) => {
  const { page: online } = await visitOnce(context, '/no-such-page')
  await expect(online.getByRole('heading', { name: '404' })).toBeVisible()
  await expect(online.getByText('Oops! Page not found')).toBeVisible()
  await online.getByRole('link', { name: 'Return to Home' }).click()
  await expect(online).toHaveURL(/\/$/)

  const page = await goOfflineWithNewPage(context, online)
  await page.goto('/another/missing/page')
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
})

test('the service worker is registered only once the first catalogue sync is done', async ({
  page,
}) => {
  // Its install downloads the whole precache; begun with the first sync, it slowed the first
  // visit's rendering (docs/decisions/012-service-worker-after-first-sync.md). The first catalogue pull is held here until released.
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/rest/v1/rpc/pull_products*', async (route) => {
    await released
    await route.continue()
  })
  await page.goto('/menu/flower')
  await page.waitForFunction(() => document.readyState === 'complete')
  // Loaded and idle long enough to have registered under the old rule (at `load`).
  await page.waitForTimeout(2500)
  const registered = () =>
    page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) !== undefined)
  expect(await registered()).toBe(false)

  release()
  // The sync's end is recorded on the device; the worker is registered after it.
  await page.waitForFunction(() => localStorage.getItem('humo.last-synced-at') !== null)
  await expect.poll(registered).toBe(true)
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
  expect(new URL(scope).pathname).toBe('/')
})

/** No service worker: the state of a first visit whose signal goes before the worker installs. */
async function firstVisitWithoutWorker(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block' })
  await passAgeGate(context)
  return { context, page: await context.newPage() }
}

/** The edibles menu, opened: its first card and that product's name. */
async function ediblesFirstCard(page: Page) {
  await page.goto('/menu/edibles')
  const card = page.getByRole('list', { name: 'Products' }).getByRole('article').first()
  return { card, name: (await card.getByRole('heading').innerText()).trim() }
}

test('offline before the service worker is installed, Quick Add adds and says so: the toasts’ code came once the page settled', async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await firstVisitWithoutWorker(browser, baseURL!)
  const toastCode = page.waitForResponse((response) =>
    /\/ark-toaster-[^/]*\.js$/.test(response.url()),
  )
  const { card, name } = await ediblesFirstCard(page)
  // Fetched with no toast asked for: the page has settled (loaded, first sync done, idle).
  expect((await toastCode).ok()).toBe(true)

  await context.setOffline(true)
  await card.getByRole('button', { name: `Add ${name} to cart` }).click()
  // The daily-limit check's code comes on the first press (the storefront's budget, decision
  // 051): offline before the service worker holds it, the add still goes ahead, and the cart's
  // badge says so (the cart and the server check the limit).
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toHaveCount(0)
  await context.close()
})

test('when the toasts’ code cannot be fetched, Quick Add still adds, with no error screen', async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await firstVisitWithoutWorker(browser, baseURL!)
  await page.route(/\/ark-toaster-[^/]*\.js$/, (route) => route.abort('internetdisconnected'))
  const fetchFailed = page.waitForEvent('console', (message) =>
    message.text().includes('Fetching code failed'),
  )
  const { card, name } = await ediblesFirstCard(page)
  await card.getByRole('button', { name: `Add ${name} to cart` }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await fetchFailed
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toHaveCount(0)
  await expect(page.getByText(`${name} has been added to your cart.`)).toHaveCount(0)
  await expect(card).toBeVisible()
  await context.close()
})
