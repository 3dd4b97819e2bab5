import { TZDate } from '@date-fns/tz'
import { describe, expect, it } from 'vitest'
import { DEFAULT_COMPLIANCE_RULES } from './compliance-defaults'
import {
  formatPickupWindow,
  hoursLines,
  isWithinHours,
  legalHoursOf,
  pickupSlots,
} from './pickup-windows'
import { openStatus } from './open-status'
import {
  DEFAULT_OPENING_HOURS,
  DEFAULT_PICKUP_RULES,
  shopClock,
  type WeeklyHours,
} from './shop-hours'

// Wednesday 25 November 2026 in Los Angeles (UTC-8).
const la = (day: number, hour: number, minute = 0, month = 10, year = 2026) =>
  new Date(new TZDate(year, month, day, hour, minute, 'America/Los_Angeles').getTime())

describe('the shop clock', () => {
  it('agrees with an independent time zone library, across both DST changes', () => {
    // @date-fns/tz (a dev dependency) is the oracle for the module's Intl arithmetic.
    for (const start of [Date.UTC(2026, 2, 6), Date.UTC(2026, 9, 30)]) {
      for (let t = start; t < start + 3 * 86_400_000; t += 17 * 60_000) {
        const z = new TZDate(t, 'America/Los_Angeles')
        expect(shopClock(new Date(t))).toEqual({
          year: z.getFullYear(),
          month: z.getMonth(),
          day: z.getDate(),
          weekday: z.getDay(),
          minutes: z.getHours() * 60 + z.getMinutes(),
        })
      }
    }
  })
})

describe('open now', () => {
  it('says when the shop closes while it is open, whatever the device says', () => {
    expect(openStatus(DEFAULT_OPENING_HOURS, la(25, 12)).text).toBe('Open now · closes 8:00 PM')
    expect(openStatus(DEFAULT_OPENING_HOURS, la(28, 17, 59)).text).toBe('Open now · closes 6:00 PM')
  })

  it('says when it opens next: today, tomorrow or on a named day', () => {
    expect(openStatus(DEFAULT_OPENING_HOURS, la(25, 7)).text).toBe('Closed · opens 9:00 AM')
    expect(openStatus(DEFAULT_OPENING_HOURS, la(27, 21)).text).toBe(
      'Closed · opens 10:00 AM tomorrow',
    )
    const weekdaysOnly: WeeklyHours = DEFAULT_OPENING_HOURS.map((d, i) =>
      i === 0 || i === 6 ? null : d,
    )
    expect(openStatus(weekdaysOnly, la(27, 21)).text).toBe('Closed · opens 9:00 AM Monday')
    expect(openStatus(Array(7).fill(null), la(25, 12)).text).toBe('Closed')
  })
})

describe('pickup windows', () => {
  it('start no earlier than now plus the preparation time, inside the hours, earliest first', () => {
    const slots = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES, la(25, 12, 10))
    expect(slots[0]).toMatchObject({
      start: la(25, 13).toISOString(),
      end: la(25, 13, 30).toISOString(),
      dayLabel: 'Today',
      timeLabel: '1:00 PM – 1:30 PM',
    })
    expect(slots.at(-1)?.end).toBe(la(1, 20, 0, 11).toISOString())
    for (const slot of slots) expect(isWithinHours(DEFAULT_OPENING_HOURS, slot)).toBe(true)
    const starts = slots.map((s) => s.start)
    expect([...starts].sort()).toEqual(starts)
  })

  it('within the legal hours of 4 CCR §15403 however long the shop is open (docs/decisions/055-delivery-by-the-rules.md)', () => {
    const late: WeeklyHours = Array.from({ length: 7 }, () => ({ open: '05:00', close: '23:30' }))
    const legal = legalHoursOf(DEFAULT_COMPLIANCE_RULES)
    const slots = pickupSlots(late, DEFAULT_PICKUP_RULES, la(25, 4), legal)
    expect(slots[0]).toMatchObject({ start: la(25, 6).toISOString(), dayLabel: 'Today' })
    const todays = slots.filter((s) => s.dayLabel === 'Today')
    expect(todays.at(-1)?.end).toBe(la(25, 22).toISOString())
    // Without them, the shop's own hours only.
    expect(pickupSlots(late, DEFAULT_PICKUP_RULES, la(25, 4))[0]?.start).toBe(
      la(25, 5).toISOString(),
    )
    // A rule entered for a later day applies from that day.
    const later = legalHoursOf([
      ...DEFAULT_COMPLIANCE_RULES,
      {
        ...DEFAULT_COMPLIANCE_RULES.find((r) => r.rule === 'handoff_hours_end')!,
        id: 'x',
        value: 20,
        effectiveFrom: '2026-11-26',
      },
    ])
    const withLater = pickupSlots(late, DEFAULT_PICKUP_RULES, la(25, 4), later)
    expect(withLater.filter((s) => s.dayLabel === 'Today').at(-1)?.end).toBe(
      la(25, 22).toISOString(),
    )
    expect(withLater.filter((s) => s.dayLabel === 'Tomorrow').at(-1)?.end).toBe(
      la(26, 20).toISOString(),
    )
  })

  it('after closing time, the first window is the next opening', () => {
    const [first] = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES, la(25, 19, 45))
    expect(first).toMatchObject({ start: la(26, 9).toISOString(), dayLabel: 'Tomorrow' })
  })

  it('keeps wall-clock times on the day the clocks go forward', () => {
    const [first] = pickupSlots(DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES, la(14, 8, 0, 2, 2027))
    // Sunday 14 March 2027: 11:00 AM PDT is 18:00 UTC.
    expect(first?.start).toBe('2027-03-14T18:00:00.000Z')
  })

  it('refuses windows outside one day of opening hours', () => {
    const w = (a: Date, b: Date) => ({ start: a.toISOString(), end: b.toISOString() })
    expect(isWithinHours(DEFAULT_OPENING_HOURS, w(la(25, 8, 30), la(25, 9)))).toBe(false)
    expect(isWithinHours(DEFAULT_OPENING_HOURS, w(la(25, 19, 45), la(25, 20, 15)))).toBe(false)
    expect(isWithinHours(DEFAULT_OPENING_HOURS, w(la(25, 10), la(25, 9)))).toBe(false)
  })

  it('reads a window in the shop’s time', () => {
    const now = la(25, 12)
    const window = { start: la(26, 10).toISOString(), end: la(26, 10, 30).toISOString() }
    expect(formatPickupWindow(window, now)).toBe('Tomorrow, 10:00 AM – 10:30 AM')
    const later = { start: la(30, 10).toISOString(), end: la(30, 10, 30).toISOString() }
    expect(formatPickupWindow(later, now)).toBe('Mon, Nov 30, 10:00 AM – 10:30 AM')
  })
})

it('groups the hours into lines, Monday first', () => {
  expect(hoursLines(DEFAULT_OPENING_HOURS)).toEqual([
    { days: 'Mon-Fri', hours: '9:00 AM-8:00 PM' },
    { days: 'Sat', hours: '10:00 AM-6:00 PM' },
    { days: 'Sun', hours: '11:00 AM-5:00 PM' },
  ])
})

describe('phone ordering hours (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md)', () => {
  it('follow the opening hours: until closing while open, else from the next opening', () => {
    expect(openStatus(DEFAULT_OPENING_HOURS, la(25, 12)).phone).toBe('Order by phone until 8:00 PM')
    // Saturday 28 November: closes at 6:00 PM.
    expect(openStatus(DEFAULT_OPENING_HOURS, la(28, 17, 59)).phone).toBe(
      'Order by phone until 6:00 PM',
    )
    expect(openStatus(DEFAULT_OPENING_HOURS, la(28, 18)).phone).toBe(
      'Order by phone from 11:00 AM tomorrow',
    )
    expect(openStatus(DEFAULT_OPENING_HOURS, la(25, 7)).phone).toBe('Order by phone from 9:00 AM')
  })

  it('change with the settings, and never promise hours when no day opens', () => {
    const mondays: WeeklyHours = [
      null,
      { open: '10:00', close: '14:00' },
      null,
      null,
      null,
      null,
      null,
    ]
    expect(openStatus(mondays, la(25, 12)).phone).toBe('Order by phone from 10:00 AM Monday')
    expect(openStatus([null, null, null, null, null, null, null], la(25, 12)).phone).toBe(
      'Order by phone',
    )
  })
})
