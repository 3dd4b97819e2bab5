// Issue 22's figures, printed (never asserted): how fast the two ends of an order hear of each
// other, in headless Chromium against the production build served by the embedded backend.
//   - Staff status change → the shopper's open order page updated: a pickup order placed through
//     the shop's checkout, its order page open; each run moves the order (set_order_status, as
//     staff's devices push it) between "Received" and "Preparing" and times, from just before
//     the call, until the page's current timeline step reads the new words (a MutationObserver
//     in the page stamps the change). Median and p95; goal: median under 500 ms.
//   - New order → staff alert: the admin's order board open, an order placed as a shopper (the
//     place_order RPC) and timed until the board's toast "New order #XXXXXXXX" is in the page.
//     Median and p95; goal: under 2 s.
// Run: npx tsx tests/bench/order-lifecycle-bench.ts [--changes 20] [--alerts 5]
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type Page } from '@playwright/test'
import { clientFor, signedInUser } from '../../supabase/local/contract-testing'
import { startHumoBackend } from '../../supabase/local/server'
import { writeBenchFigures, type Figure } from './bench-figures'

const { values } = parseArgs({
  options: {
    changes: { type: 'string', default: '20' },
    alerts: { type: 'string', default: '5' },
  },
  strict: false,
})
const changes = Number(values.changes)
const alerts = Number(values.alerts)
const AGE_VERIFIED_KEY = 'humo.age-verified'

const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
  return { median: at(0.5), p95: at(0.95) }
}

/**
 * Records, in the page, when an element matching `selector` first shows `text`. A string, not a
 * function: tsx's transform would add helpers the page does not have.
 */
async function whenTextShows(page: Page, selector: string, text: string): Promise<number> {
  const args = JSON.stringify({ selector, text })
  return page.evaluate<number>(`new Promise((resolve, reject) => {
    const { selector, text } = ${args}
    const seen = () =>
      [...document.querySelectorAll(selector)].some((el) => el.textContent.includes(text))
    if (seen()) return resolve(Date.now())
    const observer = new MutationObserver(() => {
      if (!seen()) return
      observer.disconnect()
      resolve(Date.now())
    })
    observer.observe(document.body, { subtree: true, childList: true, characterData: true })
    setTimeout(() => reject(new Error(text + ' never showed')), 30000)
  })`)
}

async function main(): Promise<void> {
  const backend = await startHumoBackend({
    port: 0,
    dataDir: null,
    staticDir: join(process.cwd(), 'dist'),
    quiet: true,
    // --alerts orders from one address with one phone: no rate limits (docs/decisions/026-rate-limits-and-unaccepted-orders.md).
    rateLimits: null,
  })
  const browser = await chromium.launch({
    executablePath: process.env.HUMO_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  const figures: Figure[] = []
  try {
    const service = clientFor(backend, backend.serviceRoleKey)
    const anon = clientFor(backend, backend.anonKey)

    // The shopper: a pickup order placed through checkout, its order page open.
    const shopper = await browser.newContext({ baseURL: backend.url })
    await shopper.addInitScript((key) => localStorage.setItem(key, 'yes'), AGE_VERIFIED_KEY)
    const page = await shopper.newPage()
    await page.goto('/product/watermelon-sea-salt-gummies')
    await page.getByRole('button', { name: 'Add to Cart' }).click()
    await page.goto('/checkout')
    await page.getByLabel('First Name').fill('Bench')
    await page.getByLabel('Last Name').fill('Shopper')
    await page.getByLabel('Email').fill(`bench-${Date.now()}@example.com`)
    await page.getByLabel('Phone').fill('(510) 555-0100')
    await page.getByRole('radio', { name: 'Pickup in store (free)' }).check()
    await page.getByRole('radio', { name: 'Cash', exact: true }).check()
    await page.getByRole('button', { name: 'Place Order' }).click()
    await page.getByRole('link', { name: 'Track your order' }).click()
    await page.waitForURL(/\/orders\//)
    const id = page.url().split('/orders/')[1]!
    const step = '[aria-current="step"]'
    await whenTextShows(page, step, 'Received')
    // Let the device join the order's channel before the first move.
    await page.waitForTimeout(1500)

    const latencies: number[] = []
    let from = 'pending'
    for (let i = 0; i < changes; i++) {
      const to = from === 'pending' ? 'processing' : 'pending'
      const words = to === 'processing' ? 'Preparing' : 'Received'
      const shown = whenTextShows(page, step, words)
      const started = Date.now()
      const moved = await service.rpc('set_order_status', { p_id: id, p_from: from, p_to: to })
      if (moved.error) throw new Error(moved.error.message)
      latencies.push((await shown) - started)
      from = to
      await page.waitForTimeout(100)
    }
    const change = stats(latencies)
    console.log(
      `staff status change → shopper's order page: median ${change.median} ms, p95 ${change.p95} ms (${changes} changes)`,
    )
    figures.push(
      {
        label: "Staff status change → shopper's open order page, median",
        value: change.median,
        unit: 'ms',
        goal: { op: '<', value: 500 },
      },
      {
        label: "Staff status change → shopper's open order page, p95",
        value: change.p95,
        unit: 'ms',
      },
    )

    // Staff: the order board open, signed in through the login page.
    const staff = await signedInUser(backend, 'owner')
    const board = await (await browser.newContext({ baseURL: backend.url })).newPage()
    await board.goto('/admin')
    await board.getByLabel('Email').fill(staff.email)
    await board.getByLabel('Password', { exact: true }).fill(staff.password)
    await board.getByRole('button', { name: 'ACCESS DASHBOARD' }).click()
    await board.getByText('Total Products').waitFor()
    await board.waitForTimeout(3000)
    const product = await anon
      .from('products')
      .select('id')
      .eq('slug', 'watermelon-sea-salt-gummies')
      .single()
    if (product.error) throw new Error(product.error.message)

    const alertTimes: number[] = []
    for (let i = 0; i < alerts; i++) {
      const orderId = randomUUID()
      const number = orderId.slice(0, 8).toUpperCase()
      const shown = whenTextShows(board, 'body', `New order #${number}`)
      const started = Date.now()
      const placed = await anon.rpc('place_order', {
        p_order: {
          id: orderId,
          secret: randomUUID() + randomUUID(),
          customer: {
            email: `alert-${i}@example.com`,
            firstName: 'Alert',
            lastName: 'Bench',
            phone: '(510) 555-0101',
          },
          fulfilment: 'delivery',
          deliveryMethod: 'standard',
          shippingAddress: {
            address1: '12 Grand Ave',
            city: 'Oakland',
            state: 'CA',
            zipCode: '94612',
          },
          paymentMethod: 'cash',
          items: [{ productId: product.data.id, quantity: 1 }],
        },
      })
      if (placed.error) throw new Error(placed.error.message)
      alertTimes.push((await shown) - started)
      await board.waitForTimeout(500)
    }
    const alert = stats(alertTimes)
    console.log(
      `new order → staff alert: median ${alert.median} ms, p95 ${alert.p95} ms (${alerts} orders)`,
    )
    figures.push(
      {
        label: 'New order → staff alert on the open board, median',
        value: alert.median,
        unit: 'ms',
        goal: { op: '<', value: 2000 },
      },
      { label: 'New order → staff alert on the open board, p95', value: alert.p95, unit: 'ms' },
    )
    const out = writeBenchFigures('order-lifecycle-bench', {
      title: "The order after checkout: staff and shopper hear of each other's changes",
      figures,
      notes: [
        'Headless Chromium against the production build served by the embedded backend (in-memory database, demo catalogue).',
        'Timed from just before the RPC in Node to the change observed in the page (both on this machine’s clock).',
      ],
      details: { latencies, alertTimes },
    })
    console.log(`report: ${out}`)
  } finally {
    await browser.close()
    await backend.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
