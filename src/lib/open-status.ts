/**
 * Whether the shop is open now, and when the phone takes orders, in the shop's time zone, from
 * its opening hours (shop-hours.ts). Apart from shop-hours.ts, whose rules every page's settings
 * read: these words are only worked out once the page has settled (open-status.tsx), so they
 * are not among a first visit's scripts (the storefront's JavaScript budget, docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md).
 */
import {
  DAY_NAMES,
  formatClock,
  hoursOn,
  shopClock,
  shopDayAfter,
  type WeeklyHours,
} from './shop-hours'

const PHONE_ORDERS = 'Order by phone'

/** `phone`: when the phone takes orders, in the same hours (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md). */
export type OpenStatus = { open: boolean; text: string; phone: string }

/**
 * "Open now · closes 8:00 PM", or "Closed · opens 10:00 AM" (today), "Closed · opens 9:00 AM
 * tomorrow", "Closed · opens 9:00 AM Monday"; "Closed" when no day of the week opens. The phone
 * takes orders while the shop is open (staff take them at the counter, docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md): "Order by
 * phone until 6:00 PM", "Order by phone from 9:00 AM tomorrow", never "24/7".
 */
export function openStatus(hours: WeeklyHours, now: Date = new Date()): OpenStatus {
  const today = shopClock(now)
  const todays = hoursOn(hours, today.weekday)
  if (todays && today.minutes >= todays.open && today.minutes < todays.close) {
    const closes = formatClock(todays.close)
    return {
      open: true,
      text: `Open now · closes ${closes}`,
      phone: `${PHONE_ORDERS} until ${closes}`,
    }
  }
  for (let offset = 0; offset <= 7; offset++) {
    const day = offset === 0 ? today : shopDayAfter(today, offset)
    const h = hoursOn(hours, day.weekday)
    if (!h || (offset === 0 && today.minutes >= h.open)) continue
    const when = offset === 0 ? '' : offset === 1 ? ' tomorrow' : ` ${DAY_NAMES[day.weekday]}`
    const opens = `${formatClock(h.open)}${when}`
    return { open: false, text: `Closed · opens ${opens}`, phone: `${PHONE_ORDERS} from ${opens}` }
  }
  return { open: false, text: 'Closed', phone: PHONE_ORDERS }
}
