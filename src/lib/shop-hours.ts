/**
 * The shop's opening hours and pickup windows, always in the shop's time zone
 * (America/Los_Angeles) whatever the device's: "Open now · closes 8:00 PM", the pickup windows
 * checkout offers (pickup-windows.ts, apart: only checkout and the order screens need them, while
 * this module's "Open now" is on every page), and the clock arithmetic both share.
 *
 * The time zone arithmetic uses the platform's own time zone data (Intl.DateTimeFormat), not a
 * library: @date-fns/tz did the same in 1.7 KB gzipped that every storefront page paid for (its
 * package is not marked free of side effects), and the header's "Open now" is on every page.
 */

export const SHOP_TIME_ZONE = 'America/Los_Angeles'

/** One day's hours, 24-hour "HH:MM" in the shop's time zone; null when closed all day. */
export type DayHours = { open: string; close: string } | null
/** Seven entries, index 0 is Sunday (as Date#getDay). */
export type WeeklyHours = readonly DayHours[]

export type PickupRules = {
  /** The earliest window starts at least this long after the order is placed. */
  prepMinutes: number
  /** The length of one pickup window. */
  slotMinutes: number
}

/** SPEC.md §2: Mon-Fri 9:00 AM-8:00 PM, Sat 10:00 AM-6:00 PM, Sun 11:00 AM-5:00 PM. */
export const DEFAULT_OPENING_HOURS: WeeklyHours = [
  { open: '11:00', close: '17:00' },
  { open: '09:00', close: '20:00' },
  { open: '09:00', close: '20:00' },
  { open: '09:00', close: '20:00' },
  { open: '09:00', close: '20:00' },
  { open: '09:00', close: '20:00' },
  { open: '10:00', close: '18:00' },
]

export const DEFAULT_PICKUP_RULES: PickupRules = { prepMinutes: 30, slotMinutes: 30 }

export const DAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
]
export const DAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

export function minutesOf(hhmm: string): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm)
  if (!match) return NaN
  return Number(match[1]) * 60 + Number(match[2])
}

/** 1200 → "8:00 PM". */
export function formatClock(minutes: number): string {
  const h24 = Math.floor(minutes / 60) % 24
  const m = minutes % 60
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12
  return `${h12}:${String(m).padStart(2, '0')} ${h24 < 12 ? 'AM' : 'PM'}`
}

/** A valid day: both times parse and it opens before it closes. */
export function isValidDay(day: DayHours): boolean {
  if (day === null) return true
  const open = minutesOf(day.open)
  const close = minutesOf(day.close)
  return Number.isFinite(open) && Number.isFinite(close) && open < close && close <= 24 * 60
}

export type ShopDay = { year: number; month: number; day: number; weekday: number; minutes: number }

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
})

/** The shop's wall clock at an instant, as a UTC timestamp of the same wall time. */
function wallTime(at: number): number {
  const p: Record<string, number> = {}
  for (const part of PARTS.formatToParts(at)) p[part.type] = Number(part.value)
  return Date.UTC(p.year!, p.month! - 1, p.day, p.hour! % 24, p.minute)
}

/** The shop's calendar day and minute of the day at an instant. */
export function shopClock(at: Date): ShopDay {
  const wall = new Date(wallTime(at.getTime()))
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth(),
    day: wall.getUTCDate(),
    weekday: wall.getUTCDay(),
    minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
  }
}

/** The instant of a wall-clock time in the shop (month 0-based; minutes past midnight). */
export function shopInstant(year: number, month: number, day: number, minutes: number): Date {
  const wall = Date.UTC(year, month, day, 0, minutes)
  const offset = (at: number) => wallTime(at) - Math.floor(at / 60_000) * 60_000
  // The zone's offset at a first guess, then at the instant that gives (a DST change between);
  // a time the spring change skips moves forward, as a clock set then would.
  const first = wall - offset(wall)
  const second = wall - offset(first)
  return new Date(wallTime(second) === wall ? second : Math.max(first, second))
}

/** The shop's calendar day `offset` days after `base` (calendar arithmetic, DST-safe). */
export function shopDayAfter(base: ShopDay, offset: number): ShopDay {
  const d = new Date(Date.UTC(base.year, base.month, base.day + offset))
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    minutes: 0,
  }
}

export function hoursOn(
  hours: WeeklyHours,
  weekday: number,
): { open: number; close: number } | null {
  const day = hours[weekday]
  if (!day || !isValidDay(day)) return null
  return { open: minutesOf(day.open), close: minutesOf(day.close) }
}
