import { expect, test, type Page } from '@playwright/test'
import { adminClient, openDashboard } from './helpers/admin'
import { placeShopperOrder } from './helpers/staff-orders'
import { passAgeGate } from './helpers/storefront'

// Issue 33, "An admin that explains itself" (docs/decisions/060-an-admin-that-explains-itself.md): every dashboard figure says what it
// compares, Analytics has a date range kept in the address, named bars and money with thousands
// separators, Settings has its own tab, the shortcuts are named for the platform (Ctrl on Linux
// Chromium), and a description is edited as formatted text and stored sanitized.
test.describe.configure({ mode: 'serial' })

const TABLET = { width: 1024, height: 768 }
const PHONE = { width: 390, height: 844 }
const CARDS = ['Total Products', 'Total Orders', 'Revenue', 'Avg Order Value']
/** "$1,234.56": dollars with thousands grouped and cents. */
const GROUPED_MONEY = /^\$\d{1,3}(,\d{3})+\.\d{2}$/
const BAG = 'Custom Embroidered Dispensary Bag'

async function expectFiguresExplained(page: Page) {
  for (const title of CARDS) {
    const card = page.getByRole('region', { name: title, exact: true })
    await expect(card.getByTestId('stat-trend')).toContainText('vs the previous 30 days')
    await expect(card).toContainText('in the last 30 days')
  }
  // No percentage on the cards without what it compares.
  for (const title of CARDS) {
    const text = await page.getByRole('region', { name: title, exact: true }).innerText()
    for (const match of text.matchAll(/[+-]?\d+(\.\d+)?%/g))
      expect(text.slice(match.index + match[0].length)).toMatch(/^ vs the previous 30 days/)
  }
}

test.describe('on the staff tablet', () => {
  test.use({ viewport: TABLET })

  test('the dashboard figures say what they compare, money grouped by thousands', async ({
    page,
    baseURL,
  }) => {
    // Eight bags: a sale of over a thousand dollars, in the last 30 days.
    await placeShopperOrder(baseURL!, 'pickup', 'Grace', { product: BAG, quantity: 8 })
    await openDashboard(page, baseURL!)
    await expectFiguresExplained(page)
    const revenue = page.getByRole('region', { name: 'Revenue', exact: true })
    await expect(revenue.getByTestId('stat-value')).toHaveText(GROUPED_MONEY)
    await expect(
      page.getByRole('region', { name: 'Total Orders', exact: true }).getByTestId('stat-trend'),
    ).toHaveText(/^[+-]?(\d+\.\d%|\d+) vs the previous 30 days$/)
  })

  test('Analytics: a date range in the address changes the figures; every bar is named', async ({
    page,
    baseURL,
  }) => {
    await openDashboard(page, baseURL!)
    await page.getByRole('tab', { name: 'Analytics' }).click()
    const range = page.getByRole('group', { name: 'Date range' })
    await expect(range.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    const figures = page.getByRole('region', { name: 'Figures for the range' })
    await expect(figures.getByTestId('range-revenue')).toHaveText(GROUPED_MONEY)
    await expect(figures.getByTestId('range-orders')).not.toHaveText('0')

    // Each bar has a name and a data label; the axes say what they count.
    const statuses = page.getByRole('region', { name: /^Orders by status/ })
    await expect(statuses.getByRole('img', { name: /^Pending: \d+ orders?$/ })).toBeVisible()
    for (const name of await statuses
      .locator('[role="img"]')
      .evaluateAll((bars) => bars.map((b) => b.getAttribute('aria-label'))))
      expect(name).toMatch(/^.+: \d+ orders?$/)
    await expect(statuses.locator('.recharts-label-list').first()).toBeVisible()
    await expect(statuses).toContainText('Orders')
    const top = page.getByRole('region', { name: /^Top products/ })
    await expect(
      top.getByRole('img', {
        name: new RegExp(`^${BAG}: \\d+ units sold, \\$\\d{1,3}(,\\d{3})+\\.\\d{2}$`),
      }),
    ).toBeVisible()
    await expect(top).toContainText('Units sold')

    await range.getByRole('button', { name: 'Last 7 days' }).click()
    await expect(page).toHaveURL(/[?&]days=7\b/)
    await expect(figures.getByRole('heading', { name: 'Last 7 days' })).toBeVisible()
    await expect(figures.getByTestId('range-revenue')).toHaveText(GROUPED_MONEY)

    // Custom dates before the shop opened: no orders, and the figures say so.
    await range.getByRole('button', { name: 'Custom dates' }).click()
    await page.getByLabel('From', { exact: true }).fill('2020-01-01')
    await page.getByLabel('To', { exact: true }).fill('2020-01-31')
    await expect(figures.getByRole('heading', { name: 'Jan 1, 2020 – Jan 31, 2020' })).toBeVisible()
    await expect(figures.getByTestId('range-orders')).toHaveText('0')
    await expect(figures.getByTestId('range-revenue')).toHaveText('$0.00')
    await expect(top).toContainText('No sales in this range')
    await expect(page).toHaveURL(/from=2020-01-01/)

    // The range is in the address: a reload keeps it.
    await page.reload()
    await page.getByRole('tab', { name: 'Analytics' }).click()
    await expect(figures.getByRole('heading', { name: 'Jan 1, 2020 – Jan 31, 2020' })).toBeVisible()
    await expect(figures.getByTestId('range-orders')).toHaveText('0')

    // Backwards dates are refused in words.
    await page.getByLabel('From', { exact: true }).fill('2020-02-15')
    await expect(page.getByRole('alert')).toContainText(
      'The From date must be on or before the To date.',
    )
  })

  test('the palette and the header name the shortcuts with Ctrl on Linux, and they work', async ({
    page,
    baseURL,
  }) => {
    await openDashboard(page, baseURL!)
    const command = page.getByRole('button', { name: /Command/ })
    await expect(command).toContainText('Ctrl+K')
    await expect(command).not.toContainText('⌘')
    await page.keyboard.press('Control+k')
    const search = page.getByPlaceholder('Search commands...')
    await expect(search).toBeVisible()
    const shown = await page.getByRole('option').locator('kbd').allTextContents()
    expect(shown.sort()).toEqual(['Ctrl+A', 'Ctrl+B', 'Ctrl+F', 'Ctrl+O', 'Ctrl+P', 'Ctrl+R'])
    await expect(page.getByRole('dialog')).not.toContainText('⌘')
    await page.keyboard.press('Escape')
    await expect(search).toBeHidden()

    // Every shortcut shown does what its command says.
    const tab = (name: string) => page.getByRole('tab', { name })
    const effects: [string, () => Promise<void>][] = [
      ['b', () => expect(tab('Brands')).toHaveAttribute('aria-selected', 'true')],
      ['a', () => expect(tab('Analytics')).toHaveAttribute('aria-selected', 'true')],
      ['p', () => expect(tab('Products')).toHaveAttribute('aria-selected', 'true')],
      ['o', () => expect(tab('Orders')).toHaveAttribute('aria-selected', 'true')],
      ['f', () => expect(page.getByPlaceholder('Search orders...')).toBeFocused()],
      ['r', () => expect(page.getByText('Dashboard refreshed')).toBeVisible()],
    ]
    for (const [key, effect] of effects) {
      await page.keyboard.press(`Control+${key}`)
      await effect()
    }
  })

  test('Settings has its own tab in the navigation', async ({ page, baseURL }) => {
    await openDashboard(page, baseURL!)
    await page.getByRole('tablist').getByRole('tab', { name: 'Settings' }).click()
    const panel = page.getByRole('tabpanel', { name: 'Settings' })
    await expect(panel.getByRole('heading', { name: 'Admin Settings' })).toBeVisible()
    await expect(panel.getByLabel('Shop name')).toBeVisible()
  })

  test('a description typed with bold is stored sanitized and shown formatted on the product page', async ({
    page,
    browser,
    baseURL,
  }) => {
    const admin = await adminClient(baseURL!)
    const { data: product, error } = await admin
      .from('products')
      .select('id, slug, name, description')
      .eq('name', 'Ojai Pink Lemonade')
      .single<{ id: string; slug: string; name: string; description: string | null }>()
    if (error) throw error
    try {
      await openDashboard(page, baseURL!)
      await page.getByRole('tab', { name: 'Products' }).click()
      await page.getByPlaceholder('Search products...').fill(product.name)
      await page.getByRole('button', { name: `Edit ${product.name}` }).click()
      const form = page.getByRole('dialog', { name: 'Edit Product' })
      const editor = form.getByRole('textbox', { name: 'Description', exact: true })
      await expect(editor).toBeVisible()
      await editor.click()
      await page.keyboard.press('Control+a')
      await page.keyboard.press('Delete')
      await page.keyboard.type('Grown in ')
      await page.keyboard.press('Control+b')
      await page.keyboard.type('Ojai')
      await page.keyboard.press('Control+b')
      await page.keyboard.type(' sun. <img src=x onerror=window.__pwned=1>')
      await expect(form.getByRole('button', { name: 'Bold' })).toHaveAttribute(
        'aria-pressed',
        'false',
      )
      // A pasted page with a script and a handler: only the formatting gets in.
      await editor.evaluate((element) => {
        const data = new DataTransfer()
        data.setData(
          'text/html',
          '<p>Pasted <em>note</em><img src="x" onerror="window.__pwned=2"><script>window.__pwned=3</script></p>',
        )
        data.setData('text/plain', 'Pasted note')
        element.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        )
      })
      const preview = form.getByRole('region', { name: 'Description preview' })
      await expect(preview.locator('strong')).toHaveText('Ojai')
      await expect(preview.locator('em')).toHaveText('note')
      await form.getByRole('button', { name: 'Update Product' }).click()
      await expect(page.getByText('Product updated successfully!')).toBeVisible()

      const { data: saved } = await admin
        .from('products')
        .select('description')
        .eq('id', product.id)
        .single<{ description: string }>()
      expect(saved?.description).toContain('<strong>Ojai</strong>')
      expect(saved?.description).toContain('<em>note</em>')
      // The typed markup is kept as text (escaped); nothing pasted runs or stays.
      expect(saved?.description).toContain('&lt;img src=x onerror=window.__pwned=1&gt;')
      expect(saved?.description).not.toMatch(/<script|<img|__pwned=[23]/i)

      const shopper = await browser.newContext({ viewport: TABLET })
      await passAgeGate(shopper)
      const shop = await shopper.newPage()
      await shop.goto(`/product/${product.slug}`)
      const description = shop.getByRole('tabpanel', { name: 'Description' })
      await expect(description.locator('strong')).toHaveText('Ojai')
      await expect(description).toContainText('<img src=x onerror=window.__pwned=1>')
      await expect(description.locator('script, img, [onerror]')).toHaveCount(0)
      expect(await shop.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
      await shopper.close()
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
    } finally {
      await admin.from('products').update({ description: product.description }).eq('id', product.id)
    }
  })
})

test.describe('on a phone', () => {
  test.use({ viewport: PHONE })

  test('the figures say what they compare and Settings is in the navigation', async ({
    page,
    baseURL,
  }) => {
    await openDashboard(page, baseURL!)
    await expectFiguresExplained(page)
    await page.getByRole('tab', { name: 'Settings' }).click()
    await expect(
      page.getByRole('tabpanel', { name: 'Settings' }).getByRole('heading', {
        name: 'Admin Settings',
      }),
    ).toBeVisible()
  })
})
