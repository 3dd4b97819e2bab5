import { expect, test, type Page, type Request } from '@playwright/test'
import { adminClient, openDashboard } from './helpers/admin'
import { passAgeGate } from './helpers/storefront'

// Issue 26: two tabs of one device share one database (RxDB's multi-instance mode). What one tab
// writes shows in the other, and only one of them talks to the server for it: an order placed in
// either tab, online or offline, reaches the shop once; a status change made in one admin tab is
// sent once and shows in the other.

test.describe.configure({ mode: 'serial' })

// Watermelon Sea Salt Gummies: $22, plenty in stock (supabase/seed/catalogue.ts).
const PRODUCT = '/product/watermelon-sea-salt-gummies'

/**
 * The write RPCs that reached the server from either tab, by function name and the id they were
 * about. An attempt the browser could not send (offline) never reached it and is not counted.
 */
function recordWrites(pages: Page[]) {
  const writes: { rpc: string; id: string }[] = []
  const record = (request: Request) => {
    const match = /\/rest\/v1\/rpc\/([a-z_]+)/.exec(request.url())
    if (!match || request.method() !== 'POST') return
    const rpc = match[1]!
    const body = (request.postDataJSON() ?? {}) as {
      p_order?: { id?: string }
      p_id?: string
    }
    const id = body.p_order?.id ?? body.p_id ?? ''
    writes.push({ rpc, id })
  }
  // Page-level events: a service worker passing a request on is not counted a second time.
  for (const page of pages) page.on('requestfinished', record)
  return {
    count: (rpc: string, id: string) => writes.filter((w) => w.rpc === rpc && w.id === id).length,
  }
}

async function ordersOf(baseURL: string, email: string) {
  const admin = await adminClient(baseURL)
  const { data, error } = await admin
    .from('orders')
    .select('id, status, status_history')
    .eq('customer_email', email)
  if (error) throw new Error(error.message)
  return (data ?? []) as { id: string; status: string; status_history: unknown[] }[]
}

async function fillCheckout(page: Page, email: string) {
  await page.getByLabel('First Name').fill('Tess')
  await page.getByLabel('Last Name').fill('Tabs')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Phone').fill('(510) 555-0142')
  await page.getByLabel('Address', { exact: true }).fill('12 Grand Ave')
  await page.getByLabel('City').fill('Oakland')
  await page.getByLabel('ZIP Code').fill('94612')
  await page.getByRole('radio', { name: 'Cash', exact: true }).check()
}

const orderCard = (page: Page, id: string) =>
  page.getByRole('listitem', { name: `Order #${id.slice(0, 8).toUpperCase()}` })

test('an order placed in one tab, online or offline, shows in the other and reaches the shop once; a status change made in one admin tab shows in the other and is sent once', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const shopper = await browser.newContext()
  await passAgeGate(shopper)
  const tabA = await shopper.newPage()
  await tabA.goto('/')
  const tabB = await shopper.newPage()
  await tabB.goto('/account')
  await expect(tabB.getByRole('heading', { name: 'Your orders' })).toBeVisible()
  const shopperWrites = recordWrites([tabA, tabB])

  // One cart for the device: what tab A adds, tab B counts.
  await tabA.goto(PRODUCT)
  await tabA.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(tabA.getByTestId('cart-count')).toHaveText('1')
  await expect(tabB.getByTestId('cart-count')).toHaveText('1')

  // Tab A places an order online; tab B's Your orders lists it, received.
  const email = `two-tabs-${Date.now()}@example.com`
  await tabA.goto('/checkout')
  await fillCheckout(tabA, email)
  await tabA.getByRole('button', { name: 'Place Order' }).click()
  await expect(tabA.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible()
  const online = new URL(tabA.url()).searchParams.get('order')!
  expect(online).toBeTruthy()
  await expect(orderCard(tabB, online)).toContainText('Received')
  await expect(tabB.getByTestId('cart-count')).toHaveCount(0)

  // Staff: one device, two tabs of the dashboard.
  const staff = await browser.newContext()
  const deskA = await staff.newPage()
  await openDashboard(deskA, baseURL!)
  const deskB = await staff.newPage()
  await deskB.goto('/admin')
  await expect(deskB.getByRole('heading', { name: 'Humo Admin' })).toBeVisible()
  const staffWrites = recordWrites([deskA, deskB])
  const inColumn = (page: Page, column: string) =>
    page.getByTestId(`column-${column}`).locator(`[data-order-id="${online}"]`)
  await expect(inColumn(deskA, 'pending')).toBeVisible()
  await expect(inColumn(deskB, 'pending')).toBeVisible()

  // Desk A moves the order with its "Move to…" menu; desk B follows, the shopper's tabs too.
  await inColumn(deskA, 'pending')
    .getByRole('button', { name: /^Move to…/ })
    .click()
  await deskA.getByRole('menuitem', { name: 'Preparing' }).click()
  await expect(inColumn(deskA, 'processing')).toBeVisible()
  await expect(inColumn(deskB, 'processing')).toBeVisible()
  await expect(inColumn(deskB, 'processing').getByTestId('waiting-to-sync')).toHaveCount(0)
  await expect(inColumn(deskA, 'processing').getByTestId('waiting-to-sync')).toHaveCount(0)
  await expect(orderCard(tabB, online)).toContainText('Preparing')
  await tabA.goto('/account')
  await expect(orderCard(tabA, online)).toContainText('Preparing')

  // Tab B places an order offline; tab A sees it waiting, then both see it sent on reconnect.
  await tabB.goto(PRODUCT)
  await tabB.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(tabA.getByTestId('cart-count')).toHaveText('1')
  await tabB.goto('/checkout')
  await fillCheckout(tabB, email)
  await shopper.setOffline(true)
  await tabB.getByRole('button', { name: 'Place Order' }).click()
  await expect(tabB.getByRole('heading', { name: 'Order saved' })).toBeVisible()
  const offline = new URL(tabB.url()).searchParams.get('order')!
  expect(offline).toBeTruthy()
  await expect(orderCard(tabA, offline)).toBeVisible()
  expect((await ordersOf(baseURL!, email)).map((o) => o.id)).toEqual([online])

  await shopper.setOffline(false)
  await expect(tabB.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({
    timeout: 20_000,
  })
  await expect(orderCard(tabA, offline)).toContainText('Received')
  await expect(tabA.getByRole('status').filter({ hasText: /order.? waiting to send/ })).toHaveCount(
    0,
  )
  await expect(tabB.getByRole('status').filter({ hasText: /order.? waiting to send/ })).toHaveCount(
    0,
  )

  // Each order reached the server once: one request each, one row each; one status write.
  const server = await ordersOf(baseURL!, email)
  expect(server.map((o) => o.id).sort()).toEqual([online, offline].sort())
  expect(server.find((o) => o.id === online)).toMatchObject({ status: 'processing' })
  expect(server.find((o) => o.id === online)!.status_history).toHaveLength(2)
  expect(shopperWrites.count('place_order', online)).toBe(1)
  expect(shopperWrites.count('place_order', offline)).toBe(1)
  expect(staffWrites.count('set_order_status', online)).toBe(1)

  await staff.close()
  await shopper.close()
})
