import { expect, test, type Page } from '@playwright/test'

// Issue 25: a shopper goes from the 21+ gate to a placed order with the keyboard alone (no mouse,
// no tap: page.keyboard only, after the first page load) and the keys are counted. The skip links
// make the path short: "Skip to products" lands on the home page's products, and a new page puts
// focus on its content (where "Skip to main content" would). Before them it took 127 Tabs (57 to the first product).

type Focused = {
  tag: string
  name: string
  href: string | null
  id: string
  expanded: string | null
}

/** What has focus, named roughly as a screen reader would (aria-label, label, text). */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el) return { tag: '', name: '', href: null, id: '', expanded: null }
    const input = el as HTMLInputElement
    const name = el.getAttribute('aria-label') ?? input.labels?.[0]?.innerText ?? el.innerText ?? ''
    return {
      tag: el.tagName.toLowerCase(),
      name: name.trim().replace(/\s+/g, ' '),
      href: el.getAttribute('href'),
      id: el.id,
      expanded: el.getAttribute('aria-expanded'),
    }
  })
}

class Keyboard {
  tabs = 0
  keys = 0
  typed = 0
  constructor(private page: Page) {}

  async press(key: string) {
    if (key === 'Tab' || key === 'Shift+Tab') this.tabs++
    this.keys++
    await this.page.keyboard.press(key)
  }

  async type(text: string) {
    this.typed += text.length
    await this.page.keyboard.type(text)
  }

  /** Tabs (or Shift+Tabs) until what has focus matches; fails after `max` presses. */
  async tabTo(match: (f: Focused) => boolean, what: string, max = 60, key = 'Tab') {
    for (let i = 0; i < max; i++) {
      await this.press(key)
      const now = await focused(this.page)
      if (match(now)) return i + 1
    }
    throw new Error(`no ${what} within ${max} presses of ${key}`)
  }

  tabToName(name: string | RegExp, max?: number, key?: string) {
    const test = (f: Focused) => (typeof name === 'string' ? f.name === name : name.test(f.name))
    return this.tabTo(test, String(name), max, key)
  }

  /** Tabs to the field labelled `label` and types `text` into it. */
  async fill(label: string | RegExp, text: string) {
    await this.tabToName(label, 15)
    await this.type(text)
  }
}

test('age gate to a placed order with the keyboard alone, through the skip links', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const kb = new Keyboard(page)
  // A fresh device: the gate asks first.
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()
  await kb.tabToName("I'm 21 or older", 10)
  await kb.press('Enter')
  await expect(page.getByRole('heading', { name: 'Featured Products' })).toBeVisible()
  await expect(page.locator('#products article').first()).toBeVisible()

  // Home: the first Tabs reach the skip links; "Skip to products" lands on the products.
  const toSkip = await kb.tabToName('Skip to products', 3)
  await expect(page.getByRole('link', { name: 'Skip to products' })).toBeFocused()
  // Shown while it has focus (WCAG 2.4.1 with 2.4.7).
  const box = await page.getByRole('link', { name: 'Skip to products' }).boundingBox()
  expect(box?.width ?? 0).toBeGreaterThan(24)
  await kb.press('Enter')
  await expect(page.locator('#products')).toBeFocused()
  const toProduct = await kb.tabTo(
    (f) => f.tag === 'a' && (f.href ?? '').startsWith('/product/'),
    'product link',
    10,
  )
  const product = (await focused(page)).name
  const tabsToFirstProduct = toSkip + toProduct
  await kb.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: product })).toBeVisible()

  // Product: a new page starts at its content, as after "Skip to main content". Add to Cart; the
  // live region says so.
  await expect(page.locator('#main')).toBeFocused()
  await kb.tabToName('Add to Cart', 30)
  await kb.press('Enter')
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await expect(
    page.getByRole('status').filter({ hasText: `Added ${product} to cart` }),
  ).toHaveCount(1)

  // Back up to the header's cart.
  await kb.tabTo((f) => f.name.startsWith('Cart, 1 item'), 'cart link', 40, 'Shift+Tab')
  await kb.press('Enter')
  await expect(page.getByRole('heading', { name: 'Shopping Cart (1 items)' })).toBeVisible()

  // Cart: on to checkout.
  await expect(page.locator('#main')).toBeFocused()
  await kb.tabToName('Proceed to Checkout', 15)
  await kb.press('Enter')
  await expect(page.getByLabel('First Name')).toBeVisible()

  // Checkout: the default delivery paid in cash; type the details and place the order.
  await expect(page.locator('#main')).toBeFocused()
  await kb.fill('First Name', 'Kay')
  await kb.fill('Last Name', 'Board')
  await kb.fill(/^Email/, `keyboard-${Date.now()}@example.com`)
  await kb.fill(/^Phone/, '5105550142')
  await kb.fill(/^Address/, '12 Grand Ave')
  await kb.fill(/^City/, 'Oakland')
  await kb.fill(/^ZIP Code/, '94612')
  await kb.tabToName('Place Order', 30)
  await kb.press('Enter')
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({
    timeout: 30_000,
  })

  console.log(
    `[keyboard] age gate → placed order: ${kb.tabs} Tabs (${tabsToFirstProduct} to the first product on home), ${kb.keys} keys pressed besides ${kb.typed} typed characters`,
  )
  // The skip link is the path: two Tabs reach it, and the first product is a few Tabs on.
  expect(tabsToFirstProduct).toBeLessThanOrEqual(8)
})

test('the header’s category menus follow the menu button pattern', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('humo.age-verified', 'yes'))
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/contact')
  const kb = new Keyboard(page)
  const button = page.getByRole('button', { name: 'Flower subcategories' })
  const menu = page.getByRole('menu', { name: 'Flower' })
  await kb.tabToName('Flower subcategories', 40)
  await expect(button).toHaveAttribute('aria-haspopup', 'menu')
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await expect(menu).toBeHidden()

  // ArrowDown opens and focuses the first item; arrows move and wrap; Escape closes and returns.
  await kb.press('ArrowDown')
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  await expect(menu).toBeVisible()
  const items = menu.getByRole('menuitem')
  await expect(items.first()).toBeFocused()
  await expect(items.first()).toHaveText('Indica')
  await kb.press('ArrowDown')
  await expect(items.nth(1)).toBeFocused()
  await kb.press('ArrowUp')
  await kb.press('ArrowUp')
  await expect(items.last()).toBeFocused()
  await expect(items.last()).toHaveText('View All')
  await kb.press('Home')
  await expect(items.first()).toBeFocused()
  await kb.press('Escape')
  await expect(menu).toBeHidden()
  await expect(button).toBeFocused()

  // ArrowUp opens on the last item; Enter and Space open on the first.
  await kb.press('ArrowUp')
  await expect(items.last()).toBeFocused()
  await kb.press('Escape')
  await kb.press('Enter')
  await expect(items.first()).toBeFocused()
  await kb.press('Escape')
  await kb.press('Space')
  await expect(items.first()).toBeFocused()

  // Tab leaves the menu (closed) for the next category; Enter on an item goes there.
  await kb.press('Tab')
  await expect(menu).toBeHidden()
  await expect(
    page
      .getByRole('navigation', { name: 'Categories' })
      .getByRole('link', { name: 'Edibles', exact: true }),
  ).toBeFocused()
  await kb.press('Shift+Tab')
  await kb.press('ArrowDown')
  await kb.press('Enter')
  await expect(page).toHaveURL(/\/menu\/flower\?category=indica$/)
  await expect(menu).toBeHidden()

  // "Skip to filters" lands before the sidebar's filters.
  await page.goto('/menu/flower')
  await expect(page.locator('#products article').first()).toBeVisible()
  await kb.tabToName('Skip to filters', 4)
  await kb.press('Enter')
  await expect(page.locator('#filters')).toBeFocused()
  await kb.press('Tab')
  await expect(page.getByRole('complementary', { name: 'Filters' }).locator(':focus')).toHaveCount(
    1,
  )

  // Focus is visible: product card links draw a ring.
  await page.goto('/menu/flower')
  await expect(page.locator('#products article').first()).toBeVisible()
  await kb.tabToName('Skip to products', 3)
  await kb.press('Enter')
  await kb.tabTo((f) => (f.href ?? '').startsWith('/product/'), 'product link', 10)
  const ring = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!, '::after')
    return { width: style.outlineWidth, style: style.outlineStyle }
  })
  expect(ring.style).toBe('solid')
  expect(parseFloat(ring.width)).toBeGreaterThanOrEqual(2)
})
