/**
 * The delivery promises a cannabis shop can keep. Cannabis is never shipped in California: the
 * retailer's own drivers deliver it during opening hours (B&P §26090, 4 CCR §15415). So the
 * promises follow the shop's hours (Admin Settings), not a carrier's "2-3 business days":
 * standard delivery comes the next day the shop opens; express the same day when ordered by 2 PM
 * on a day the shop opens (SPEC.md's "same-day, order by 2PM"), else the next opening day too.
 */
import { formatMoney, type DeliveryMethod } from './money'
import {
  DAY_SHORT,
  hoursOn,
  shopClock,
  shopDayAfter,
  type ShopDay,
  type WeeklyHours,
} from './shop-hours'

/** Express orders placed by this minute of an opening day (2 PM) are delivered that day. */
export const EXPRESS_ORDER_BY_MINUTES = 14 * 60

export const STANDARD_DELIVERY_LABEL = 'Standard (next opening day)'

/** "Express $19.99 (same-day, order by 2PM)": SPEC.md's words, with the shop's fee. */
export function expressDeliveryLabel(fee: number): string {
  return `Express ${formatMoney(fee)} (same-day, order by 2PM)`
}

const sameDay = (a: ShopDay, b: ShopDay) =>
  a.year === b.year && a.month === b.month && a.day === b.day

/** The shop's day a delivery comes, or null when no day of the coming week opens. */
export function deliveryDay(
  method: DeliveryMethod,
  placedAt: Date,
  hours: WeeklyHours,
): { day: ShopDay; sameDay: boolean } | null {
  const placed = shopClock(placedAt)
  const today = hoursOn(hours, placed.weekday)
  if (
    method === 'express' &&
    today &&
    placed.minutes < Math.min(EXPRESS_ORDER_BY_MINUTES, today.close)
  )
    return { day: placed, sameDay: true }
  for (let offset = 1; offset <= 7; offset++) {
    const day = shopDayAfter(placed, offset)
    if (hoursOn(hours, day.weekday)) return { day, sameDay: false }
  }
  return null
}

function dayText(day: ShopDay, now: Date): string {
  const today = shopClock(now)
  if (sameDay(day, today)) return 'Today'
  if (sameDay(day, shopDayAfter(today, 1))) return 'Tomorrow'
  const month = new Date(Date.UTC(day.year, day.month, 15)).toLocaleString('en-US', {
    month: 'short',
    timeZone: 'UTC',
  })
  return `${DAY_SHORT[day.weekday]}, ${month} ${day.day}`
}

/**
 * When an order placed at `placedAt` arrives, as the order screens say it: "Tomorrow, during
 * opening hours", "Today, during opening hours", "Tue, Dec 2, during opening hours".
 */
export function deliveryEstimate(
  method: DeliveryMethod,
  placedAt: Date | null,
  hours: WeeklyHours,
  now: Date = new Date(),
): string {
  const when = placedAt && !Number.isNaN(placedAt.getTime()) ? placedAt : now
  const found = deliveryDay(method, when, hours)
  if (!found) return 'The shop will contact you to arrange a delivery time'
  return `${dayText(found.day, now)}, during opening hours`
}

/** The step of "What's Next?": "Same-day delivery" or "Delivery on the next opening day". */
export function deliveryStep(method: DeliveryMethod, placedAt: Date | null, hours: WeeklyHours) {
  const found = deliveryDay(method, placedAt ?? new Date(), hours)
  return found?.sameDay ? 'Same-day delivery' : 'Delivery on the next opening day'
}
