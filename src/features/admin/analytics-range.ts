/**
 * Analytics' date range (issue 33): the last 7, 30 or 90 shop days, or custom dates from–to,
 * and the orders and daily revenue it holds. Days are the shop's calendar days (Los Angeles), as
 * the tax report and the Metrc export count them; both ends are included.
 */
import { shopDate } from '../../lib/compliance-rules'
import { roundMoney } from '../../lib/money'
import {
  isCalendarDay,
  type AdminSearch,
  type AnalyticsRangeChoice,
  type PresetDays,
} from './admin-search'
import type { StatOrder } from './order-stats'

export const RANGE_CHOICES: readonly { value: AnalyticsRangeChoice; label: string }[] = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: 'custom', label: 'Custom dates' },
]

export const DEFAULT_DAYS: PresetDays = 30
/** A custom range spans at most a year and a day: a chart of more says nothing per day. */
export const MAX_RANGE_DAYS = 366

export type DayRange = {
  choice: AnalyticsRangeChoice
  from: string
  to: string
  days: number
  /** "Last 30 days", or "Nov 1, 2026 – Nov 28, 2026". */
  label: string
  /** Why the custom dates asked for were not used (then the range is the default). */
  problem?: string
}

const MS_PER_DAY = 86_400_000
const utc = (day: string) => Date.parse(`${day}T00:00:00Z`)

export function addDays(day: string, n: number): string {
  return new Date(utc(day) + n * MS_PER_DAY).toISOString().slice(0, 10)
}

/** Days from `from` to `to`, both counted. */
export function daysBetween(from: string, to: string): number {
  return Math.round((utc(to) - utc(from)) / MS_PER_DAY) + 1
}

const DAY_LABEL = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})
export const dayLabel = (day: string) => DAY_LABEL.format(new Date(utc(day)))

function lastDays(days: PresetDays, today: string, problem?: string): DayRange {
  return {
    choice: String(days) as AnalyticsRangeChoice,
    from: addDays(today, -(days - 1)),
    to: today,
    days,
    label: `Last ${days} days`,
    ...(problem ? { problem } : {}),
  }
}

/** Why custom dates cannot be shown, or null when they can. */
export function customRangeProblem(from: unknown, to: unknown, today: string): string | null {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return 'Choose both a From and a To date.'
  if (from > to) return 'The From date must be on or before the To date.'
  if (from > today) return 'The From date is in the future: there are no orders yet.'
  if (daysBetween(from, to) > MAX_RANGE_DAYS) return 'Choose at most 366 days.'
  return null
}

/** The range an address asks for (admin-search.ts), today being the shop's `today`. */
export function resolveRange(search: AdminSearch, today: string = shopDate()): DayRange {
  // Custom dates are there as soon as one end is (the other may still be being chosen).
  if (search.from === undefined && search.to === undefined)
    return lastDays(search.days ?? DEFAULT_DAYS, today)
  const problem = customRangeProblem(search.from, search.to, today)
  if (problem || !search.from || !search.to) return lastDays(DEFAULT_DAYS, today, problem ?? '')
  return {
    choice: 'custom',
    from: search.from,
    to: search.to,
    days: daysBetween(search.from, search.to),
    label: `${dayLabel(search.from)} – ${dayLabel(search.to)}`,
  }
}

/** The shop day an order was placed on. */
export const orderDay = (order: Pick<StatOrder, 'createdAt'>) => shopDate(new Date(order.createdAt))

export function ordersInRange<T extends StatOrder>(orders: readonly T[], range: DayRange): T[] {
  return orders.filter((o) => {
    const day = orderDay(o)
    return day >= range.from && day <= range.to
  })
}

/** Revenue and orders per shop day of the range (oldest first, empty days as 0). */
export function revenueByShopDay(orders: readonly StatOrder[], range: DayRange) {
  const buckets = new Map<string, { day: string; revenue: number; orders: number }>()
  for (let i = 0; i < range.days; i++) {
    const day = addDays(range.from, i)
    buckets.set(day, { day, revenue: 0, orders: 0 })
  }
  for (const o of orders) {
    if (o.status === 'cancelled') continue
    const bucket = buckets.get(orderDay(o))
    if (!bucket) continue
    bucket.revenue = roundMoney(bucket.revenue + o.total)
    bucket.orders += 1
  }
  return [...buckets.values()]
}
