import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { walkAdmin } from './helpers/admin-walk'
import { AGE_VERIFIED_KEY } from './helpers/storefront'

// Issue 25: axe-core (WCAG 2.0/2.1/2.2 A and AA plus best practice) on every page and open
// dialog of the shop and the admin, in the light and the dark theme. Any critical, serious or
// moderate finding fails the test; all of a run's findings are printed together, readably.
//
// Named to run after admin-auth.spec.ts (files run in name order): that spec needs a shop with no
// admin, and this one signs in as the first admin (creating it when run alone).
//
// One page per theme walks the whole shop (or the whole admin) and audits each state on the way,
// so the run stays short: no page is reloaded just to be audited.

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']
const BLOCKING = new Set(['critical', 'serious', 'moderate'])
const THEMES = ['light', 'dark'] as const
type Theme = (typeof THEMES)[number]

// Watermelon Sea Salt Gummies (supabase/seed/catalogue.ts): $22, plenty in stock, on sale.
const PRODUCT = '/product/watermelon-sea-salt-gummies'

// Motion off: axe reads colours as painted, and a dialog half-way through its fade-in is not
// what a shopper reads.
test.use({ reducedMotion: 'reduce' })

type NodeData = {
  fgColor?: string
  bgColor?: string
  contrastRatio?: number
  expectedContrastRatio?: string
}

/** Audits what the page shows now; each blocking finding becomes a readable paragraph. */
class Audit {
  readonly found: string[] = []
  private readonly all: unknown[] = []

  constructor(
    private readonly page: Page,
    private readonly theme: Theme,
  ) {}

  /**
   * `within`: only that part of the page (an open dialog: the page behind it was audited
   * before it opened, and is inert while it is open).
   */
  async check(where: string, within?: string) {
    // Let the browser paint what a state change just rendered.
    await this.page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    )
    const builder = new AxeBuilder({ page: this.page }).withTags(TAGS)
    if (within) builder.include(within)
    const started = Date.now()
    const { violations } = await builder.analyze()
    if (process.env.HUMO_AXE_TRACE)
      console.log(`${this.theme} ${where}: ${Date.now() - started} ms`)
    for (const violation of violations) {
      if (!BLOCKING.has(violation.impact ?? '')) continue
      this.all.push({ theme: this.theme, where, violation })
      const nodes = violation.nodes.slice(0, 6).map((node) => {
        const data = node.any.find((check) => check.data)?.data as NodeData | undefined
        // Colour findings say which colours; others say what axe wants changed.
        const why = data?.fgColor
          ? `${data.fgColor} on ${data.bgColor} is ${data.contrastRatio}:1, needs ${data.expectedContrastRatio}`
          : (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim()
        return `    • ${node.target.join(' ')} — ${why}\n      ${node.html.slice(0, 160)}`
      })
      const more =
        violation.nodes.length > 6 ? `\n    … and ${violation.nodes.length - 6} more` : ''
      const paragraph = `[${this.theme}] ${where}: ${violation.id} (${violation.impact}, ${violation.nodes.length}×) ${violation.help}\n${nodes.join('\n')}${more}`
      if (process.env.HUMO_AXE_TRACE) console.log(paragraph)
      this.found.push(paragraph)
    }
  }

  async report(testInfo: TestInfo) {
    if (this.all.length)
      await testInfo.attach('axe-violations.json', {
        body: JSON.stringify(this.all, null, 2),
        contentType: 'application/json',
      })
    const text = this.found.join('\n\n')
    if (text) console.log(text)
    expect(this.found, `axe findings:\n\n${text}`).toEqual([])
  }
}

/** The storefront's theme, stored as the theme toggle stores it (src/lib/device-storage.ts). */
async function useTheme(page: Page, theme: Theme) {
  await page.addInitScript((t) => {
    localStorage.setItem('theme', t)
    localStorage.setItem('humo.admin-theme', t)
  }, theme)
  await page.emulateMedia({ colorScheme: theme })
}

for (const theme of THEMES) {
  test(`every shop page and dialog has no critical, serious or moderate axe finding (${theme})`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000)
    const audit = new Audit(page, theme)
    await useTheme(page, theme)

    // A first visit: the 21+ gate, then its "no" answer.
    await page.goto('/')
    await expect(page.getByRole('heading', { name: 'Are you 21 or older?' })).toBeVisible()
    await audit.check('age gate')
    await page.getByRole('button', { name: 'No', exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Sorry, not yet' })).toBeVisible()
    await audit.check('age gate, refused')
    await page.evaluate((key) => localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)

    await page.goto('/')
    await expect(page.getByRole('list', { name: 'Flash deals' }).getByRole('article')).toHaveCount(
      4,
    )
    await expect(
      page.getByRole('list', { name: 'Featured products' }).getByRole('article').first(),
    ).toBeVisible()
    await audit.check('home')
    await page.getByRole('button', { name: 'Next slide' }).click()
    await expect(page.getByRole('link', { name: 'View Wholesale' })).toBeVisible()
    await audit.check('home, second slide', '[aria-roledescription="carousel"]')

    const footer = page.getByRole('contentinfo')
    await footer.getByRole('button', { name: 'Get Text Updates' }).click()
    await expect(page.getByRole('dialog', { name: 'Get Text Updates' })).toBeVisible()
    await audit.check('Get Text Updates dialog', '[role="dialog"]')
    await page.keyboard.press('Escape')

    await page.getByRole('combobox', { name: 'Search products' }).fill('kush')
    await expect(
      page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first(),
    ).toBeVisible()
    await audit.check('header search results', 'header')
    await page.keyboard.press('Escape')

    // /menu (all products) is the same page as these two, with six times as much to audit.
    for (const menu of ['/menu/flower', '/menu/wholesale']) {
      await page.goto(menu)
      await expect(page.getByText(/^Showing \d+ of \d+ products/)).toBeVisible()
      await audit.check(menu)
    }
    await page.getByRole('button', { name: 'List view' }).click()
    await expect(page.getByRole('button', { name: 'List view' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await audit.check('/menu/wholesale, list view')
    await page.getByRole('combobox', { name: 'Sort by' }).click()
    await expect(page.getByRole('listbox')).toBeVisible()
    await audit.check('sort options', '[role="listbox"]')
    await page.keyboard.press('Escape')

    await page.goto('/marketplace')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await audit.check('/marketplace')

    await page.goto(PRODUCT)
    await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeVisible()
    await audit.check('product')
    await page.getByRole('tab', { name: 'Details & Effects' }).click()
    await audit.check('product, Details & Effects tab', '[role="tabpanel"]')
    await page.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByTestId('cart-count')).toHaveText('1')
    // Hovered, the toast stays until it has been audited.
    const toast = page.locator('[data-scope="toast"][data-part="root"]').first()
    await toast.hover()
    await audit.check(
      'product, added to the cart (toast)',
      '[data-scope="toast"][data-part="root"]',
    )

    await page.goto('/cart')
    await expect(page.getByRole('heading', { name: /^Shopping Cart/ })).toBeVisible()
    await audit.check('cart')

    await page.goto('/checkout')
    await expect(page.getByRole('button', { name: 'Place Order' })).toBeVisible()
    await audit.check('checkout')
    await page.getByRole('button', { name: 'Place Order' }).click()
    await audit.check('checkout, with errors')
    await page.getByLabel('First Name').fill('Ana')
    await page.getByLabel('Last Name').fill('Reyes')
    await page.getByLabel('Email').fill('ana-axe@example.com')
    await page.getByLabel('Phone').fill('(510) 555-0100')
    await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
    await page.getByRole('radio', { name: 'Cash', exact: true }).check()
    await page.getByRole('button', { name: 'Place Order' }).click()
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
    await audit.check('order confirmation')
    await page.getByRole('link', { name: 'Track your order' }).click()
    await expect(page).toHaveURL(/\/orders\//)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await audit.check('order page')

    for (const [path, heading] of [
      ['/cart', 'Your cart is empty'],
      ['/track', /Track/],
      ['/account', /orders/i],
      ['/my-items', /My Items/],
      ['/contact', 'Contact Us'],
    ] as const) {
      await page.goto(path)
      await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible()
      await audit.check(path)
    }
    for (const [path, text] of [['/definitely/not/here', 'Oops! Page not found']] as const) {
      await page.goto(path)
      await expect(page.getByText(text)).toBeVisible()
      await audit.check(path)
    }

    // A phone: the side menu and the filter drawer.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/menu/flower')
    await expect(page.getByText(/^Showing \d+ of \d+ products/)).toBeVisible()
    await audit.check('/menu/flower on a phone')
    await page.getByRole('button', { name: /^Filters/ }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await audit.check('filter drawer on a phone', '[role="dialog"]')
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await audit.check('side menu on a phone', '[role="dialog"]')
    await page.keyboard.press('Escape')
    await page.goto(PRODUCT)
    await expect(page.getByRole('button', { name: 'Add to Cart' }).first()).toBeVisible()
    await audit.check('product on a phone')

    await audit.report(testInfo)
  })
}

for (const theme of THEMES) {
  test(`every admin page and dialog has no critical, serious or moderate axe finding (${theme})`, async ({
    page,
    baseURL,
  }, testInfo) => {
    test.setTimeout(240_000)
    const audit = new Audit(page, theme)
    await useTheme(page, theme)
    await walkAdmin(page, baseURL!, 'Axel', audit)

    await audit.report(testInfo)
  })
}
