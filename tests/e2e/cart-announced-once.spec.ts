import { expect, test, type Page } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

// Issue 25, screen readers: a cart change is said once. The page's live region says "Added …
// to cart"; the toast that shows it too must not be a live region of its own, or a screen
// reader reads the news twice.

const NAME = 'Watermelon Sea Salt Gummies'

/**
 * The live regions that would read `text` out: for each piece of text holding it, the nearest
 * live region around it (aria-live, or role status/alert/log), unless that says aria-live="off".
 */
function announcing(page: Page, text: string) {
  return page.evaluate((wanted) => {
    const liveRoles = new Set(['status', 'alert', 'log'])
    const regions = new Set<Element>()
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.includes(wanted)) continue
      const el = node.parentElement
      if (!el || el.closest('[aria-hidden=true]')) continue
      let live: Element | null = el
      while (
        live &&
        !live.hasAttribute('aria-live') &&
        !liveRoles.has(live.getAttribute('role') ?? '')
      )
        live = live.parentElement
      if (live && live.getAttribute('aria-live') !== 'off') regions.add(live)
    }
    return [...regions].map((r) => r.textContent?.trim() ?? '')
  }, text)
}

test('one Add to Cart is announced once, though the toast shows it as well', async ({ page }) => {
  await passAgeGate(page)
  await page.goto('/product/watermelon-sea-salt-gummies')
  await page.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  // Both have said their piece: the live region and the toast.
  await expect(page.getByRole('status').filter({ hasText: `Added ${NAME} to cart` })).toHaveCount(1)
  const toast = page.locator('[data-scope="toast"][data-part="root"]').first()
  await expect(toast).toContainText(`${NAME} has been added to your cart.`)
  expect(await announcing(page, NAME)).toEqual([`Added ${NAME} to cart`])
})
