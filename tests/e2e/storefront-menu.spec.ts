import { expect, test, type Page } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

test.beforeEach(async ({ context }) => passAgeGate(context))

const productList = (page: Page) => page.getByRole('list', { name: 'Products' })
const showing = (page: Page) => page.getByText(/^Showing \d+ of \d+ products$/)

async function counts(page: Page): Promise<[number, number]> {
  const text = (await showing(page).textContent()) ?? ''
  const [, shown, total] = /Showing (\d+) of (\d+)/.exec(text) ?? []
  return [Number(shown), Number(total)]
}

test('browse a category from the header, filter by type and sort by price; the URL holds it all', async ({
  page,
}) => {
  await page.goto('/')
  const nav = page.getByRole('navigation', { name: 'Categories', exact: true })
  await nav.getByRole('link', { name: 'Flower', exact: true }).click()
  await expect(page).toHaveURL(/\/menu\/flower$/)
  await expect(page.getByRole('heading', { name: 'Flower Menu' })).toBeVisible()
  await expect(productList(page).getByRole('listitem').first()).toBeVisible()
  const [, total] = await counts(page)
  expect(total).toBeGreaterThan(1)

  // Filter: Types → Indica.
  await page
    .getByRole('complementary', { name: 'Filters' })
    .locator('label', { hasText: /^Indica/ })
    .click()
  await expect(page).toHaveURL(/types=/)
  await expect(page).toHaveURL(/Indica/)
  await expect.poll(async () => (await counts(page))[0]).toBeLessThan(total)
  for (const card of await productList(page).getByRole('article').all())
    await expect(card.getByText('Indica', { exact: true })).toBeVisible()

  // Sort: price, low to high.
  await page.getByRole('combobox', { name: 'Sort by' }).click()
  await page.getByRole('option', { name: 'Price: Low to High' }).click()
  await expect(page).toHaveURL(/sort=price-asc/)

  // The filtered, sorted menu is a link: reopening the URL gives the same list.
  const url = page.url()
  const names = await productList(page).getByRole('heading').allInnerTexts()
  await page.goto(url)
  await expect(productList(page).getByRole('heading')).toHaveText(names)
  const prices = await productList(page)
    .getByRole('article')
    .evaluateAll((cards) =>
      cards.map((card) => Number(/\$(\d+\.\d\d)/.exec(card.textContent ?? '')?.[1])),
    )
  expect(prices).toEqual([...prices].sort((a, b) => a - b))
})

test('subcategory links use the category query param, and clearing filters brings everything back', async ({
  page,
}) => {
  await page.goto('/menu/flower')
  const nav = page.getByRole('navigation', { name: 'Categories', exact: true })
  await nav.getByRole('link', { name: 'Flower', exact: true }).hover()
  // A menu button's items (docs/decisions/037-keyboard-touch-and-announcements.md): menuitems that are links to the subcategory.
  await nav.getByRole('menuitem', { name: 'Pre-Rolls' }).click()
  await expect(page).toHaveURL(/\/menu\/flower\?category=pre-rolls/)
  await expect(productList(page).getByRole('article').first()).toBeVisible()
  for (const card of await productList(page).getByRole('article').all())
    await expect(card.getByText('Pre-Rolls', { exact: true })).toBeVisible()

  await page
    .getByRole('complementary', { name: 'Filters' })
    .getByPlaceholder('Search by name')
    .fill('no such strain')
  await expect(page.getByText('No products found matching your criteria')).toBeVisible()
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(page).toHaveURL(/\/menu\/flower$/)
  // The list follows the URL a moment later (a deferred value): everything again.
  await expect(showing(page)).toHaveText(/^Showing (\d+) of \1 products$/)
  const [shown, total] = await counts(page)
  expect(shown).toBe(total)
})

test('the singular /menu/concentrate goes to the concentrates menu; list view toggles', async ({
  page,
}) => {
  await page.goto('/menu/concentrate')
  await expect(page).toHaveURL(/\/menu\/concentrates$/)
  await expect(page.getByRole('heading', { name: 'Concentrate Menu' })).toBeVisible()
  await page.getByRole('button', { name: 'List view' }).click()
  await expect(page).toHaveURL(/view=list/)
  await expect(page.getByRole('button', { name: 'List view' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
})

test('a card makes its video player when the preview is asked for, and plays it', async ({
  page,
}) => {
  // Sonoma Sunrise Haze has a short looping video (supabase/seed/media).
  await page.goto('/menu/flower')
  const card = productList(page).getByRole('article').filter({ hasText: 'Sonoma Sunrise Haze' })
  await expect(card.getByRole('img', { name: 'Sonoma Sunrise Haze' })).toBeVisible()
  // No player before it is wanted: the page load does not pay for one per card.
  await expect(page.locator('video')).toHaveCount(0)

  await card.getByRole('button', { name: 'Play Sonoma Sunrise Haze video' }).click()
  const video = card.getByLabel('Sonoma Sunrise Haze video preview')
  await expect(video).toBeAttached()
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => (v.paused ? -1 : v.currentTime)))
    .toBeGreaterThan(0)
  // A second tap, and the pointer leaving the card (it plays on hover too), pause it.
  await card.getByRole('button', { name: 'Pause Sonoma Sunrise Haze video' }).click()
  await page.mouse.move(0, 0)
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
  // Kept once made: the next preview starts from the loaded player.
  await expect(video).toBeAttached()
})

test('on a phone the filters open in a drawer, and the hidden sidebar is not built', async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 })
  await page.goto('/menu/flower')
  await expect(productList(page).getByRole('listitem').first()).toBeVisible()
  const [, total] = await counts(page)
  // The sidebar is not shown on a phone, and its controls are not made for nothing.
  await expect(page.getByRole('complementary', { name: 'Filters' })).toBeHidden()
  await expect(page.locator('aside[aria-label="Filters"] input')).toHaveCount(0)

  await page.getByRole('button', { name: 'Filters' }).click()
  const drawer = page.getByRole('dialog', { name: 'Filters' })
  await drawer.locator('label', { hasText: /^Indica/ }).click()
  await expect(page).toHaveURL(/types=/)
  await expect.poll(async () => (await counts(page))[0]).toBeLessThan(total)
  await drawer.getByRole('button', { name: /^Show \d+ products$/ }).click()
  await expect(drawer).toBeHidden()
  await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible()

  // A wider window shows the sidebar, with the filter that is on.
  await page.setViewportSize({ width: 1280, height: 800 })
  const sidebar = page.getByRole('complementary', { name: 'Filters' })
  await expect(sidebar).toBeVisible()
  await expect(sidebar.getByRole('checkbox', { name: /^Indica/ })).toBeChecked()
})
