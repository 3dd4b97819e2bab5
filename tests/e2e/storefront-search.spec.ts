import { expect, test, type Page } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

// Search that finds what shoppers mean (issue 25, docs/decisions/038-product-search.md), typed into the shop's search
// boxes over the demo catalogue, on the device and offline.

test.beforeEach(async ({ context }) => passAgeGate(context))

const headerSearch = (page: Page) => page.getByRole('combobox', { name: 'Search products' })
const results = (page: Page) => page.getByRole('listbox', { name: 'Search results' })
const optionNames = async (page: Page) =>
  (await results(page).getByRole('option').allTextContents()).map((text) => text.split('$')[0])

/** Types like a shopper, one key at a time, so every keystroke searches. */
async function type(page: Page, text: string) {
  await headerSearch(page).fill('')
  await headerSearch(page).pressSequentially(text, { delay: 20 })
}

test('the header search finds by strain type, typo, prefix, brand, effect and terpene, ranked', async ({
  page,
}) => {
  await page.goto('/')

  // "indica": the three indica strains, the wholesale bulk indica after them.
  await type(page, 'indica')
  await expect(results(page).getByRole('option')).toHaveCount(4)
  const indica = await optionNames(page)
  expect(indica.slice(0, 3).sort()).toEqual([
    expect.stringContaining('Humboldt Purple Kush'),
    expect.stringContaining('Shasta Sleepy Kush'),
    expect.stringContaining('Tahoe Alpine OG'),
  ])
  expect(indica[3]).toContain('Bulk Greenhouse Indica (1/2 lb)')

  // A typo: "gumies" finds the gummies.
  await type(page, 'gumies')
  await expect(results(page).getByRole('option').first()).toContainText('Gummies')
  for (const option of await results(page).getByRole('option').all())
    await expect(option).toContainText(/Gummies/)

  // The start of a word, as while typing: "blue d" → Blue Dream first.
  await type(page, 'blue d')
  await expect(results(page).getByRole('option').first()).toContainText('Big Sur Blue Dream')

  // A brand, an effect, a terpene.
  await type(page, 'mojave extracts')
  await expect(results(page).getByRole('option').first()).toContainText('Mojave Extracts')
  await type(page, 'sleepy')
  await expect(results(page).getByRole('option', { name: /Shasta Sleepy Kush/ })).toBeVisible()
  await type(page, 'terpinolene')
  await expect(results(page).getByRole('option').first()).toBeVisible()

  // Nothing found says so.
  await type(page, 'zzzqqq')
  await expect(results(page)).toContainText('No products match “zzzqqq”')

  // Enter opens the menu's search with the same ranking.
  await type(page, 'indica')
  await expect(results(page).getByRole('option')).toHaveCount(4)
  await headerSearch(page).press('Enter')
  await expect(page).toHaveURL(/\/menu\?q=indica/)
  await expect(page.getByText(/^Showing 4 of \d+ products$/)).toBeVisible()
  const cards = page.getByRole('list', { name: 'Products' }).getByRole('article')
  await expect(cards.last()).toContainText('Bulk Greenhouse Indica (1/2 lb)')
})

test('the menu search finds by effect within the menu it is on', async ({ page }) => {
  await page.goto('/menu/edibles?q=sleepy')
  await expect(page.getByRole('heading', { name: 'Edibles', exact: true })).toBeVisible()
  const cards = page.getByRole('list', { name: 'Products' }).getByRole('article')
  await expect(cards.first()).toContainText('Gummies')
  await expect(page.getByText(/^Showing [1-9]\d* of \d+ products$/)).toBeVisible()
  // Only edibles: the sleepy flower of the other menus is not listed here.
  await expect(cards.filter({ hasText: 'Shasta Sleepy Kush' })).toHaveCount(0)
})

test('the search works offline, from what the device holds', async ({ context }) => {
  const online = await context.newPage()
  await online.goto('/')
  await online.waitForFunction(() => navigator.serviceWorker.controller !== null)
  await online.waitForFunction(() => localStorage.getItem('humo.last-synced-at') !== null)
  await online.close()
  await context.setOffline(true)

  const page = await context.newPage()
  await page.goto('/')
  await type(page, 'gumies')
  await expect(results(page).getByRole('option').first()).toContainText('Gummies')
  await type(page, 'indica')
  await expect(results(page).getByRole('option')).toHaveCount(4)
})
