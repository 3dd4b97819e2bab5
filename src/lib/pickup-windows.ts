/**
 * The pickup windows checkout offers and the screens that show a window, in the shop's time
 * zone: the slots open to an order placed now, whether a window is inside the opening hours (the
 * rule place_order applies on the server), and how windows, times and hours read. Apart from
 * shop-hours.ts, whose "Open now" every page carries, because only checkout, the order screens,
 * the contact page and the back office need these.
 */
import { ruleOn, type ComplianceRule } from './compliance-rules'
import {
  DAY_SHORT,
  formatClock,
  hoursOn,
  shopClock,
  shopDayAfter,
  shopInstant,
  type PickupRules,
  type ShopDay,
  type WeeklyHours,
} from './shop-hours'

/** How many days ahead checkout offers pickup windows (and the server accepts them). */
export const PICKUP_DAYS_AHEAD = 7

export type PickupWindow = { start: string; end: string }

export type PickupSlot = PickupWindow & {
  /** "Today", "Tomorrow", "Thu, Nov 26". */
  dayLabel: string
  /** "2:00 PM – 2:30 PM". */
  timeLabel: string
}

/**
 * The minutes of a shop day (YYYY-MM-DD) within which the law lets orders be handed over (4 CCR
 * §15403's 6 AM–10 PM, kept as dated rules: docs/decisions/055-delivery-by-the-rules.md), or null when none is known.
 */
export type LegalHours = (day: string) => { start: number; end: number } | null

/** The legal hours of each day from the shop's compliance rules (hours of the day, 6.5 = 6:30). */
export function legalHoursOf(rules: readonly ComplianceRule[]): LegalHours {
  return (day) => {
    const start = ruleOn(rules, 'handoff_hours_start', day)
    const end = ruleOn(rules, 'handoff_hours_end', day)
    return start && end ? { start: start.value * 60, end: end.value * 60 } : null
  }
}

/**
 * The pickup windows open to an order placed now: slots of `slotMinutes` from opening to
 * closing (and within the legal hours, when given), each starting no earlier than now plus the
 * preparation time, for the next PICKUP_DAYS_AHEAD days. The first is the earliest.
 */
export function pickupSlots(
  hours: WeeklyHours,
  rules: PickupRules,
  now: Date = new Date(),
  legalHours?: LegalHours,
): PickupSlot[] {
  const slot = Math.max(5, Math.round(rules.slotMinutes))
  const earliest = now.getTime() + Math.max(0, rules.prepMinutes) * 60_000
  const today = shopClock(now)
  const slots: PickupSlot[] = []
  for (let offset = 0; offset < PICKUP_DAYS_AHEAD; offset++) {
    const day = offset === 0 ? today : shopDayAfter(today, offset)
    const h = hoursOn(hours, day.weekday)
    if (!h) continue
    const legal = legalHours?.(isoDay(day))
    const open = legal ? Math.max(h.open, legal.start) : h.open
    const close = legal ? Math.min(h.close, legal.end) : h.close
    const dayLabel = offset === 0 ? 'Today' : offset === 1 ? 'Tomorrow' : shortDate(day)
    for (let m = open; m + slot <= close; m += slot) {
      const start = shopInstant(day.year, day.month, day.day, m)
      if (start.getTime() < earliest) continue
      const end = shopInstant(day.year, day.month, day.day, m + slot)
      slots.push({
        start: start.toISOString(),
        end: end.toISOString(),
        dayLabel,
        timeLabel: `${formatClock(m)} – ${formatClock(m + slot)}`,
      })
    }
  }
  return slots
}

const isoDay = (day: ShopDay) =>
  `${day.year}-${String(day.month + 1).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`

function shortDate(day: ShopDay): string {
  const month = new Date(Date.UTC(day.year, day.month, 15)).toLocaleString('en-US', {
    month: 'short',
    timeZone: 'UTC',
  })
  return `${DAY_SHORT[day.weekday]}, ${month} ${day.day}`
}

/** Is the window inside one day's opening hours (the rule place_order applies)? */
export function isWithinHours(hours: WeeklyHours, window: PickupWindow): boolean {
  const start = new Date(window.start)
  const end = new Date(window.end)
  if (!(start.getTime() < end.getTime())) return false
  const s = shopClock(start)
  const e = shopClock(end)
  const h = hoursOn(hours, s.weekday)
  if (!h) return false
  const sameDay = s.year === e.year && s.month === e.month && s.day === e.day
  return sameDay && s.minutes >= h.open && e.minutes <= h.close
}

/**
 * A window as people read it, in the shop's time: "Today, 2:00 PM – 2:30 PM",
 * "Tomorrow, 10:00 AM – 10:30 AM", "Thu, Nov 26, 10:00 AM – 10:30 AM".
 */
export function formatPickupWindow(window: PickupWindow, now: Date = new Date()): string {
  const s = shopClock(new Date(window.start))
  const e = shopClock(new Date(window.end))
  const today = shopClock(now)
  const tomorrow = shopDayAfter(today, 1)
  const same = (a: ShopDay, b: ShopDay) =>
    a.year === b.year && a.month === b.month && a.day === b.day
  const day = same(s, today) ? 'Today' : same(s, tomorrow) ? 'Tomorrow' : shortDate(s)
  return `${day}, ${formatClock(s.minutes)} – ${formatClock(e.minutes)}`
}

/**
 * The hours as lines for people, Monday first, consecutive days with the same hours grouped:
 * [{days: 'Mon-Fri', hours: '9:00 AM-8:00 PM'}, {days: 'Sat', …}, {days: 'Sun', …}].
 */
export function hoursLines(hours: WeeklyHours): { days: string; hours: string }[] {
  const order = [1, 2, 3, 4, 5, 6, 0]
  const text = (weekday: number) => {
    const h = hoursOn(hours, weekday)
    return h ? `${formatClock(h.open)}-${formatClock(h.close)}` : 'Closed'
  }
  const lines: { first: number; last: number; hours: string }[] = []
  for (const weekday of order) {
    const current = text(weekday)
    const previous = lines.at(-1)
    if (previous && previous.hours === current) previous.last = weekday
    else lines.push({ first: weekday, last: weekday, hours: current })
  }
  return lines.map((l) => ({
    days: l.first === l.last ? DAY_SHORT[l.first]! : `${DAY_SHORT[l.first]}-${DAY_SHORT[l.last]}`,
    hours: l.hours,
  }))
}

/** "2:05 PM" in the shop's time, with "Nov 24, " before it when it is not the shop's today. */
export function formatShopTime(at: Date, now: Date = new Date()): string {
  if (Number.isNaN(at.getTime())) return ''
  const s = shopClock(at)
  const today = shopClock(now)
  const time = formatClock(s.minutes)
  if (s.year === today.year && s.month === today.month && s.day === today.day) return time
  const month = new Date(Date.UTC(s.year, s.month, 15)).toLocaleString('en-US', {
    month: 'short',
    timeZone: 'UTC',
  })
  return `${month} ${s.day}, ${time}`
}
