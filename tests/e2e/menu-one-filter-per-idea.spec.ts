import { expect, test, type Locator, type Page } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

// Issue 33, "Menus that behave" (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): a type chosen by chip or in the filters is
// one filter, counted once; the price slider spans the menu's real prices; facet counts follow
// the other filters; on a phone the drawer's apply button stays in reach. On a phone the filters
// are in a drawer; from 768 px (the tablet) they are in the sidebar.

test.beforeEach(async ({ context }) => passAgeGate(context))

const DEVICES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
  { name: 'tablet', viewport: { width: 1024, height: 768 }, phone: false },
] as const

const productList = (page: Page) => page.getByRole('list', { name: 'Products' })
const showing = (page: Page) => page.getByText(/^Showing \d+ of \d+ products$/)

async function shownCount(page: Page): Promise<number> {
  const text = (await showing(page).textContent()) ?? ''
  return Number(/Showing (\d+)/.exec(text)?.[1])
}

/** The filters: the drawer on a phone (opened here), the sidebar on the tablet. */
async function openFilters(page: Page, phone: boolean): Promise<Locator> {
  if (!phone) return page.getByRole('complementary', { name: 'Filters' })
  await page.getByRole('button', { name: /^Filters/ }).click()
  const drawer = page.getByRole('dialog', { name: 'Filters' })
  await expect(drawer).toBeVisible()
  return drawer
}

async function closeFilters(page: Page, phone: boolean) {
  if (!phone) return
  await page
    .getByRole('dialog', { name: 'Filters' })
    .getByRole('button', { name: /^Show \d+ products$/ })
    .click()
  await expect(page.getByRole('dialog', { name: 'Filters' })).toBeHidden()
}

/** Each option's count in one of the filter lists ("Humboldt Heritage (3)"), all of them shown. */
async function facetCounts(filters: Locator, title: string): Promise<Map<string, number>> {
  const group = filters.getByRole('group', { name: title })
  const more = group.getByRole('button', { name: /^Show all \d+$/ })
  if (await more.isVisible()) await more.click()
  const labels = await group
    .getByRole('checkbox')
    .evaluateAll((boxes) =>
      boxes.map(
        (box) =>
          document.getElementById(box.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
      ),
    )
  return new Map(
    labels.map((label) => {
      const [, value, count] = /^(.*) \((\d+)\)$/.exec(label.trim()) ?? []
      return [value ?? label, Number(count)]
    }),
  )
}

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0)

for (const device of DEVICES) {
  test.describe(`on a ${device.name}`, () => {
    test.use({ viewport: device.viewport })

    test('the Indica chip and Types: Indica are one filter, counted once', async ({ page }) => {
      await page.goto('/menu/flower')
      await expect(productList(page).getByRole('article').first()).toBeVisible()
      const chips = page.getByRole('navigation', { name: 'Flower subcategories' })
      await chips.getByRole('link', { name: 'Indica', exact: true }).click()
      await expect(page).toHaveURL(/types=/)
      await expect(page).not.toHaveURL(/category=/)
      await expect(chips.getByRole('link', { name: 'Indica', exact: true })).toHaveAttribute(
        'aria-current',
        'true',
      )
      for (const card of await productList(page).getByRole('article').all())
        await expect(card.getByText('Indica', { exact: true })).toBeVisible()

      const filters = await openFilters(page, device.phone)
      const types = filters.getByRole('group', { name: 'Types' })
      await expect(types.getByRole('checkbox', { name: /^Indica/ })).toBeChecked()
      // One filter on, whatever shows it: one ticked box in all the filters, counted once.
      await expect(filters.getByRole('checkbox', { checked: true })).toHaveCount(1)
      await expect(filters.getByRole('heading', { name: 'Filters (1)' })).toBeVisible()
      await closeFilters(page, device.phone)
      if (device.phone)
        await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible()

      // Unticking it in the filters turns the chip off too: still one filter.
      const again = await openFilters(page, device.phone)
      await again
        .getByRole('group', { name: 'Types' })
        .locator('label', { hasText: /^Indica/ })
        .click()
      await expect(page).not.toHaveURL(/types=/)
      await closeFilters(page, device.phone)
      await expect(chips.getByRole('link', { name: 'Indica', exact: true })).not.toHaveAttribute(
        'aria-current',
      )
      if (device.phone) await expect(page.getByRole('button', { name: 'Filters' })).toBeVisible()
    })

    test('an old ?category=indica link is the same filter', async ({ page }) => {
      await page.goto('/menu/flower?category=indica')
      await expect(productList(page).getByRole('article').first()).toBeVisible()
      const filters = await openFilters(page, device.phone)
      await expect(
        filters.getByRole('group', { name: 'Types' }).getByRole('checkbox', { name: /^Indica/ }),
      ).toBeChecked()
      await expect(filters.getByRole('checkbox', { checked: true })).toHaveCount(1)
      await expect(filters.getByRole('heading', { name: 'Filters (1)' })).toBeVisible()
      await closeFilters(page, device.phone)
      if (device.phone)
        await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible()
    })

    test('on Shop All, "All Categories" is the Categories filter off, not a filter', async ({
      page,
    }) => {
      await page.goto('/menu?category=all-categories')
      await expect(productList(page).getByRole('article').first()).toBeVisible()
      const chips = page.getByRole('navigation', { name: 'Shop All subcategories' })
      const everything = chips.getByRole('link', { name: 'All Categories', exact: true })
      await expect(everything).toHaveAttribute('aria-current', 'true')
      let filters = await openFilters(page, device.phone)
      await expect(filters.getByRole('heading', { name: /^Filters \(/ })).toHaveCount(0)
      await filters
        .getByRole('group', { name: 'Categories' })
        .locator('label', { hasText: /^Flower/ })
        .click()
      await expect(page).toHaveURL(/categories=.*Flower/)
      await closeFilters(page, device.phone)
      await expect(everything).not.toHaveAttribute('aria-current')
      await everything.click()
      await expect(page).not.toHaveURL(/categor/)
      filters = await openFilters(page, device.phone)
      await expect(filters.getByRole('checkbox', { checked: true })).toHaveCount(0)
      await expect(filters.getByRole('heading', { name: /^Filters \(/ })).toHaveCount(0)
    })

    test("the price slider ends at the menu's dearest product", async ({ page }) => {
      await page.goto('/menu/flower?sort=price-desc')
      const first = productList(page).getByRole('article').first()
      await expect(first).toBeVisible()
      const dearest = Number(/\$([\d,]+\.\d\d)/.exec((await first.textContent()) ?? '')?.[1])
      expect(dearest).toBeGreaterThan(0)
      const filters = await openFilters(page, device.phone)
      const max = filters.getByRole('slider', { name: 'Maximum Price' })
      await expect(max).toHaveAttribute('aria-valuemax', String(Math.ceil(dearest)))
      await expect(max).toHaveAttribute('aria-valuenow', String(Math.ceil(dearest)))
      expect(Math.ceil(dearest)).toBeLessThan(5000)
    })

    test('facet counts follow the other filters', async ({ page }) => {
      await page.goto('/menu/flower')
      await expect(productList(page).getByRole('article').first()).toBeVisible()
      const total = await shownCount(page)
      let filters = await openFilters(page, device.phone)
      const before = await facetCounts(filters, 'Brands')
      // Every flower has one brand: the brands' counts add up to the menu.
      expect(sum(before)).toBe(total)
      const indica = (await facetCounts(filters, 'Types')).get('Indica')!
      expect(indica).toBeLessThan(total)

      await filters
        .getByRole('group', { name: 'Types' })
        .locator('label', { hasText: /^Indica/ })
        .click()
      await expect(page).toHaveURL(/types=.*Indica/)
      await closeFilters(page, device.phone)
      await expect.poll(() => shownCount(page)).toBe(indica)
      filters = await openFilters(page, device.phone)
      // Now the brands count only Indica flowers; the types still count every type.
      await expect.poll(async () => sum(await facetCounts(filters, 'Brands'))).toBe(indica)
      expect(await facetCounts(filters, 'Brands')).not.toEqual(before)
      expect((await facetCounts(filters, 'Types')).get('Indica')).toBe(indica)
    })
  })
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test("the drawer's apply button stays in reach however long the filters are", async ({
    page,
  }) => {
    await page.goto('/menu/flower')
    await expect(productList(page).getByRole('article').first()).toBeVisible()
    await page.getByRole('button', { name: /^Filters/ }).click()
    const drawer = page.getByRole('dialog', { name: 'Filters' })
    await expect(drawer).toBeVisible()
    // The filters are taller than the phone's screen…
    expect(await drawer.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
    const apply = drawer.getByRole('button', { name: /^Show \d+ products$/ })
    // …and the button is on screen, whole, at the top of the list and after a choice.
    await expect(apply).toBeInViewport({ ratio: 1 })
    await drawer
      .getByRole('group', { name: 'Types' })
      .locator('label', { hasText: /^Sativa/ })
      .click()
    await expect(page).toHaveURL(/types=.*Sativa/)
    await expect(apply).toBeInViewport({ ratio: 1 })
    const box = (await apply.boundingBox())!
    expect(box.y + box.height).toBeLessThanOrEqual(844)
    await apply.click()
    await expect(drawer).toBeHidden()
    await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible()
  })
})
