import { createHash } from 'node:crypto'
import { expect, test, type BrowserContext, type Page, type Response } from '@playwright/test'
import { openDashboard } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

// Issue 23, finding 6 (docs/decisions/028-content-security-policy.md): the app's pages run under a Content-Security-Policy with no
// 'unsafe-inline' scripts. The shop, a product, the cart and the admin's sign-in must work under
// it without a single violation: the splash, the theme and loader scripts (by hash), the app's
// chunks and dynamic imports, the stylesheet's switch from preload, the service worker, the
// server's copy of pages and the copies the service worker keeps.

test.beforeEach(async ({ context }) => passAgeGate(context))

/**
 * Every violation the context's pages report, from before their first script: the event a
 * refused script, style, image or connection raises, and Chromium's console message for it.
 */
async function watchViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = []
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
      )
    })
  })
  context.on('console', (message) => {
    const text = message.text()
    if (/CSP violation|Content Security Policy|Refused to/i.test(text)) violations.push(text)
  })
  return violations
}

/** The page's policy as its answer gave it, checked for what every page must hold. */
function policyOf(response: Response | null): Map<string, string[]> {
  const policy = response?.headers()['content-security-policy'] ?? ''
  const csp = new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  )
  expect(csp.get('script-src')?.[0], policy).toBe("'self'")
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'")
  expect(csp.get('frame-ancestors')).toEqual(["'none'"])
  expect(csp.get('object-src')).toEqual(["'none'"])
  expect(response?.headers()['x-content-type-options']).toBe('nosniff')
  return csp
}

/** The hashes of the inline scripts the page's HTML carries, as the browser computes them. */
async function inlineScriptHashes(page: Page): Promise<string[]> {
  const scripts = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src])')]
      .filter((script) => {
        const type = script.getAttribute('type')
        return !type || type === 'module' || type === 'text/javascript'
      })
      .map((script) => script.textContent ?? ''),
  )
  return scripts.map(
    (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`,
  )
}

test('the shop, a product, the cart and the admin sign-in run with no policy violation', async ({
  context,
  page,
}) => {
  const violations = await watchViolations(context)

  const home = await page.goto('/')
  const homePolicy = policyOf(home)
  await expect(
    page.getByRole('navigation', { name: 'Categories', exact: true }).getByRole('link', {
      name: 'Flower',
      exact: true,
    }),
  ).toBeVisible()
  // The splash's count ran (an inline script) and went; the app's stylesheet applies.
  await expect(page.locator('#boot-splash')).toHaveCount(0)
  expect(await page.locator('link[data-app-css]').getAttribute('rel')).toBe('stylesheet')
  for (const hash of await inlineScriptHashes(page))
    expect(homePolicy.get('script-src')).toContain(hash)

  const product = await page.goto('/product/watermelon-sea-salt-gummies')
  policyOf(product)
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')

  const cart = await page.goto('/cart')
  policyOf(cart)
  await expect(page.getByRole('heading', { name: 'Shopping Cart (1 items)' })).toBeVisible()

  const admin = await page.goto('/admin')
  policyOf(admin)
  await expect(page.getByLabel('Email')).toBeVisible()
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible()

  expect(violations).toEqual([])
})

test("the admin's dashboard and its tabs run with no policy violation", async ({
  context,
  page,
  baseURL,
}) => {
  const violations = await watchViolations(context)
  await openDashboard(page, baseURL!)
  for (const name of ['Products', 'Brands', 'Analytics', 'Orders']) {
    const tab = page.getByRole('tab', { name, exact: true })
    await tab.click()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('tabpanel', { name })).toBeVisible()
  }
  expect(violations).toEqual([])
})

test("pages the service worker answers, its kept copies included, carry the server's policy", async ({
  context,
  page,
}) => {
  const violations = await watchViolations(context)
  await page.goto('/')
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)

  // The shell from the precache.
  const cart = await page.goto('/cart')
  expect(cart?.fromServiceWorker()).toBe(true)
  policyOf(cart)
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible()

  // A catalogue page's kept copy (docs/decisions/013-starts-from-a-kept-copy.md): kept once the catalogue has synced.
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const name = (await caches.keys()).find((n) => n.startsWith('humo-pages-'))
          const copy = name ? await (await caches.open(name)).match('/menu/flower') : undefined
          return copy?.headers.get('Content-Security-Policy') ?? null
        }),
      { timeout: 30_000 },
    )
    .toContain("frame-ancestors 'none'")
  const menu = await page.goto('/menu/flower')
  expect(menu?.fromServiceWorker()).toBe(true)
  expect(await menu?.text()).toContain('id="prerendered-page" data-kept')
  const menuPolicy = policyOf(menu)
  for (const hash of await inlineScriptHashes(page))
    expect(menuPolicy.get('script-src')).toContain(hash)
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
  await expect(
    page.getByRole('list', { name: 'Products' }).getByRole('listitem').first(),
  ).toBeVisible()

  expect(violations).toEqual([])
})

test('a script slipped into a page does not run', async ({ context, page }) => {
  const violations = await watchViolations(context)
  await page.goto('/')
  await expect(page.locator('#boot-splash')).toHaveCount(0)
  // What an injected inline script or handler would do, were it in the page's HTML.
  await page.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.injected = true'
    document.body.append(script)
    const holder = document.createElement('div')
    holder.innerHTML = '<img src="/icon-192.png" alt="" onload="window.injected = true">'
    document.body.append(holder)
  })
  await expect
    .poll(() => violations.filter((text) => text.startsWith('CSP violation')).length)
    .toBe(2)
  expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined()
})
