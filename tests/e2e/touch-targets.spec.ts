import { expect, test, type Locator, type Page } from '@playwright/test'
import { openDashboard } from './helpers/admin'
import { placeShopperOrder } from './helpers/staff-orders'
import { passAgeGate } from './helpers/storefront'

// Issue 25, touch: on a phone the main controls are at least 44 × 44 CSS px (WCAG 2.5.5) and
// nothing that can be pressed is under 24 × 24 (WCAG 2.5.8); the product page keeps Add to Cart
// on screen; the cart's stepper is round; the filter drawer's "Clear all" is clear of its ×.

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

async function size(locator: Locator) {
  await expect(locator).toBeVisible()
  const box = await locator.boundingBox()
  if (!box) throw new Error('no box')
  return box
}

async function expectThumbSized(locator: Locator, what: string) {
  const box = await size(locator)
  expect(box.width, `${what} width`).toBeGreaterThanOrEqual(44)
  expect(box.height, `${what} height`).toBeGreaterThanOrEqual(44)
}

/**
 * Every visible control on the page at least 24 × 24 px, save links inside a line of text (the
 * inline exception of WCAG 2.5.8). Returns the offenders for a readable failure.
 */
function smallTargets(page: Page) {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=menuitem], [role=tab], [role=checkbox], [role=radio], [role=switch]'
    const out: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      const style = getComputedStyle(el)
      if (style.visibility === 'hidden' || el.closest('[aria-hidden=true], [inert]')) continue
      // Screen-reader-only (skip links until focused): not on screen to press.
      if (box.width <= 1.5 || box.height <= 1.5) continue
      // A checkbox or radio with its label: the label is a target too.
      const label = (el as HTMLInputElement).labels?.[0]?.getBoundingClientRect()
      const big = (r: DOMRect | undefined) => r && r.width >= 24 && r.height >= 24
      if (big(box) || big(label)) continue
      const target = label && label.width * label.height > box.width * box.height ? label : box
      const inline = style.display === 'inline' && el.parentElement?.closest('p, li, dd, span')
      if (inline && el.tagName === 'A') continue
      const name = (el.getAttribute('aria-label') ?? el.innerText ?? '').trim().slice(0, 40)
      out.push(
        `${el.tagName.toLowerCase()} "${name}" ${Math.round(target.width)}×${Math.round(target.height)}`,
      )
    }
    return out
  })
}

test.beforeEach(async ({ page }) => {
  await passAgeGate(page)
})

test('a phone: header and strip at thumb size, nothing under 24 px on home', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Featured Products' })).toBeVisible()
  await expectThumbSized(page.getByRole('button', { name: 'Open menu' }), 'Open menu')
  await expectThumbSized(page.getByRole('link', { name: /^Cart, / }), 'cart')
  await expectThumbSized(page.getByRole('button', { name: /theme/i }).first(), 'theme toggle')
  const strip = page.getByRole('navigation', { name: 'Categories' })
  await expectThumbSized(strip.getByRole('link', { name: 'Flower' }), 'category strip link')
  expect(await smallTargets(page)).toEqual([])
})

test('a phone: the product page keeps Add to Cart on screen, and it works', async ({ page }) => {
  await page.goto('/product/watermelon-sea-salt-gummies')
  const add = page.getByRole('button', { name: 'Add to Cart' })
  // Visible at once, with no scrolling: the bar is fixed at the bottom of the screen.
  await expect(add).toBeInViewport()
  expect(await page.evaluate(() => window.scrollY)).toBe(0)
  const box = await size(add)
  expect(box.y + box.height).toBeLessThanOrEqual(844)
  await expectThumbSized(add, 'Add to Cart')
  await expectThumbSized(page.getByRole('button', { name: 'Increase quantity' }), 'stepper +')
  await expectThumbSized(page.getByRole('button', { name: 'Decrease quantity' }), 'stepper −')
  // Still there half-way down the page.
  await page.mouse.wheel(0, 900)
  await expect(add).toBeInViewport()
  expect(await smallTargets(page)).toEqual([])

  await page.getByRole('button', { name: 'Increase quantity' }).tap()
  await add.tap()
  await expect(page.getByTestId('cart-count')).toHaveText('2')
  await expect(
    page.getByRole('status').filter({ hasText: 'Added 2 × Watermelon Sea Salt Gummies to cart' }),
  ).toHaveCount(1)
})

test('a phone: the cart stepper is round and thumb-sized, and says what changed', async ({
  page,
}) => {
  await page.goto('/product/watermelon-sea-salt-gummies')
  await page.getByRole('button', { name: 'Add to Cart' }).tap()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await page.goto('/cart')
  const plus = page.getByRole('button', { name: /^Increase quantity of / })
  const minus = page.getByRole('button', { name: /^Decrease quantity of / })
  for (const [button, what] of [
    [plus, '+'],
    [minus, '−'],
  ] as const) {
    const box = await size(button)
    expect(box.width, `${what} is round`).toBeCloseTo(box.height, 0)
    await expectThumbSized(button, `cart ${what}`)
  }
  await expectThumbSized(page.getByRole('button', { name: /^Remove / }), 'Remove')
  expect(await smallTargets(page)).toEqual([])

  await plus.tap()
  await expect(page.getByRole('heading', { name: 'Shopping Cart (2 items)' })).toBeVisible()
  await expect(
    page.getByRole('status').filter({ hasText: /^Quantity of .+ changed to 2$/ }),
  ).toHaveCount(1)
  await page.getByRole('button', { name: /^Remove / }).tap()
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /^Removed .+ from cart$/ })).toHaveCount(
    1,
  )
})

test('a phone: the filter drawer’s Clear all is clear of its close button', async ({ page }) => {
  await page.goto('/menu/flower')
  const open = page.getByRole('button', { name: /^Filters/ })
  await expectThumbSized(open, 'Filters')
  await open.tap()
  const drawer = page.getByRole('dialog', { name: 'Filters' })
  const clear = drawer.getByRole('button', { name: 'Clear all' })
  const close = drawer.getByRole('button', { name: 'Close filters' })
  await expectThumbSized(clear, 'Clear all')
  await expectThumbSized(close, 'Close filters')
  const a = await size(clear)
  const b = await size(close)
  const overlap =
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  expect(overlap, 'Clear all overlaps the close button').toBe(false)
  // At least 8 px between them.
  expect(b.x - (a.x + a.width)).toBeGreaterThanOrEqual(8)
})

test.describe('the staff tablet', () => {
  // Runs after admin-auth.spec.ts has created the shop's first admin.
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: false })

  test('the board’s Move to… is a 44 px control, and a move is announced', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000)
    const order = await placeShopperOrder(baseURL!, 'delivery', 'Tablet')
    await openDashboard(page, baseURL!)
    const card = page.locator(`[data-order-id="${order.id}"]`)
    await expect(card).toBeVisible({ timeout: 15_000 })
    const move = card.getByRole('button', { name: /^Move to…/ })
    await expectThumbSized(move, 'Move to…')
    await move.tap()
    const item = page.getByRole('menuitem', { name: 'Preparing' })
    const box = await size(item)
    expect(box.height, 'menu item height').toBeGreaterThanOrEqual(44)
    await item.tap()
    await expect(
      page.getByTestId('column-processing').locator(`[data-order-id="${order.id}"]`),
    ).toBeVisible()
    await expect(page.getByTestId('board-announcer')).toHaveText(
      `Order ${order.number} moved to Preparing.`,
    )
    // dnd-kit's instructions for the cards say how to move without dragging.
    await expect(page.locator('[id^="DndDescribedBy"]').first()).toContainText('"Move to…" menu')
  })
})
