/**
 * Figures of the dashboard and the reports, from the device's data (SPEC.md §3 "Derived
 * statistics"). Trends compare the last 30 days with the 30 days before (DESIGN.md §8: computed,
 * not hard-coded). Cancelled orders are not sales.
 */
import { roundMoney } from '../../lib/money'
import { asFulfilment, orderStatusLabel } from '../../lib/order-status'

export type StatOrder = {
  id: string
  status: string
  total: number
  createdAt: string
  items: readonly {
    productId?: string | null
    name?: string
    quantity?: number
    lineTotal?: number
  }[]
}
export type StatProduct = { createdAt: string; stock: number | null; unlimited: boolean }

const DAY = 86_400_000
export const TREND_DAYS = 30

export function isLowStock(p: Pick<StatProduct, 'stock' | 'unlimited'>): boolean {
  return !p.unlimited && (p.stock ?? 0) < 10
}

/** Percent change from `before` to `now`, one decimal; null when there is nothing to compare. */
export function percentChange(now: number, before: number): number | null {
  if (before === 0) return now === 0 ? 0 : null
  return Math.round(((now - before) / before) * 1000) / 10
}

const isSale = (o: StatOrder) => o.status !== 'cancelled'

export function periodTotals(orders: readonly StatOrder[]) {
  const sales = orders.filter(isSale)
  const revenue = roundMoney(sales.reduce((sum, o) => sum + o.total, 0))
  return {
    orders: orders.length,
    sales: sales.length,
    revenue,
    averageOrderValue: sales.length ? roundMoney(revenue / sales.length) : 0,
  }
}

function within(at: string, from: number, to: number) {
  const t = Date.parse(at)
  return t >= from && t < to
}

/** One figure over the last 30 days and the 30 days before (what a card compares). */
export type Period = { last: number; before: number }

export function dashboardStats(
  products: readonly StatProduct[],
  orders: readonly StatOrder[],
  now = Date.now(),
) {
  const current = now - TREND_DAYS * DAY
  const previous = now - 2 * TREND_DAYS * DAY
  const all = periodTotals(orders)
  const last = periodTotals(orders.filter((o) => within(o.createdAt, current, now + DAY)))
  const before = periodTotals(orders.filter((o) => within(o.createdAt, previous, current)))
  const newProducts = products.filter((p) => within(p.createdAt, current, now + DAY)).length
  const olderProducts = products.filter((p) => within(p.createdAt, previous, current)).length
  const periods = {
    /** Products added. */
    products: { last: newProducts, before: olderProducts },
    orders: { last: last.orders, before: before.orders },
    revenue: { last: last.revenue, before: before.revenue },
    averageOrderValue: { last: last.averageOrderValue, before: before.averageOrderValue },
  } satisfies Record<string, Period>
  return {
    totalProducts: products.length,
    lowStock: products.filter(isLowStock).length,
    totalOrders: orders.length,
    pendingOrders: orders.filter((o) => o.status === 'pending').length,
    revenue: all.revenue,
    averageOrderValue: all.averageOrderValue,
    periods,
    trends: {
      products: percentChange(newProducts, olderProducts),
      orders: percentChange(last.orders, before.orders),
      revenue: percentChange(last.revenue, before.revenue),
      averageOrderValue: percentChange(last.averageOrderValue, before.averageOrderValue),
    },
  }
}

/**
 * What a card's trend says, always with what it compares (issue 33): "+50.0% vs the previous 30
 * days", or the difference itself ("+3 vs the previous 30 days") when the 30 days before had
 * nothing to take a percentage of.
 */
export function comparisonText(period: Period, format: (n: number) => string = String): string {
  const change = percentChange(period.last, period.before)
  const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '-' : '')
  if (change !== null)
    return `${sign(change)}${Math.abs(change).toFixed(1)}% vs the previous 30 days`
  const difference = roundMoney(period.last - period.before)
  return `${sign(difference)}${format(Math.abs(difference))} vs the previous 30 days`
}

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
] as const

export function ordersByStatus(orders: readonly StatOrder[]) {
  return ORDER_STATUSES.map((status) => ({
    status,
    count: orders.filter((o) => o.status === status).length,
  }))
}

/**
 * Orders per status in their own words (docs/decisions/018-order-after-checkout.md), for the sales report: "Ready for
 * pickup" and "Out for delivery" are counted apart; statuses with no order are left out.
 */
export function ordersByStatusWords(
  orders: readonly (StatOrder & { fulfilment?: string })[],
): { label: string; count: number }[] {
  const counts = new Map<string, number>()
  for (const status of ORDER_STATUSES) {
    for (const fulfilment of ['pickup', 'delivery'] as const) {
      const n = orders.filter(
        (o) => o.status === status && asFulfilment(o.fulfilment) === fulfilment,
      ).length
      if (n === 0) continue
      const label = orderStatusLabel(status, fulfilment)
      counts.set(label, (counts.get(label) ?? 0) + n)
    }
  }
  return [...counts].map(([label, count]) => ({ label, count }))
}

export function topProducts(orders: readonly StatOrder[], limit = 5) {
  const byProduct = new Map<string, { name: string; quantity: number; revenue: number }>()
  for (const o of orders) {
    if (!isSale(o)) continue
    for (const item of o.items) {
      const name = item.name ?? 'Unknown product'
      const key = item.productId ?? name
      const entry = byProduct.get(key) ?? { name, quantity: 0, revenue: 0 }
      entry.quantity += item.quantity ?? 0
      entry.revenue = roundMoney(entry.revenue + (item.lineTotal ?? 0))
      byProduct.set(key, entry)
    }
  }
  return [...byProduct.values()]
    .sort((a, b) => b.quantity - a.quantity || b.revenue - a.revenue)
    .slice(0, limit)
}

/** Orders created within the last `days` days (all of them when days is null). */
export function ordersInPeriod<T extends StatOrder>(
  orders: readonly T[],
  days: number | null,
  now = Date.now(),
): T[] {
  if (days === null) return [...orders]
  return orders.filter((o) => Date.parse(o.createdAt) >= now - days * DAY)
}
