import { describe, expect, it } from 'vitest'
import {
  deliveryDay,
  deliveryEstimate,
  deliveryStep,
  expressDeliveryLabel,
  STANDARD_DELIVERY_LABEL,
} from './delivery-promises'
import { DEFAULT_OPENING_HOURS, type WeeklyHours } from './shop-hours'

// Los Angeles is UTC-8 in late November; Nov 28, 2026 is a Saturday (open 10-6).
const at = (iso: string) => new Date(iso)
const saturdayMorning = at('2026-11-28T18:00:00Z') // 10:00 AM
const saturdayAfternoon = at('2026-11-28T23:00:00Z') // 3:00 PM

describe('delivery promises the shop keeps', () => {
  it('names the methods without a carrier’s days', () => {
    expect(STANDARD_DELIVERY_LABEL).toBe('Standard (next opening day)')
    expect(expressDeliveryLabel(19.99)).toBe('Express $19.99 (same-day, order by 2PM)')
  })

  it('delivers standard orders the next day the shop opens', () => {
    const found = deliveryDay('standard', saturdayMorning, DEFAULT_OPENING_HOURS)
    expect(found).toMatchObject({ sameDay: false, day: { day: 29, weekday: 0 } })
    expect(
      deliveryEstimate('standard', saturdayMorning, DEFAULT_OPENING_HOURS, saturdayMorning),
    ).toBe('Tomorrow, during opening hours')
    // Closed on Sundays: the next opening day is Monday.
    const noSundays: WeeklyHours = [null, ...DEFAULT_OPENING_HOURS.slice(1)]
    expect(deliveryEstimate('standard', saturdayMorning, noSundays, saturdayMorning)).toBe(
      'Mon, Nov 30, during opening hours',
    )
  })

  it('delivers express the same day when ordered by 2 PM on an opening day, else next', () => {
    expect(
      deliveryEstimate('express', saturdayMorning, DEFAULT_OPENING_HOURS, saturdayMorning),
    ).toBe('Today, during opening hours')
    expect(deliveryStep('express', saturdayMorning, DEFAULT_OPENING_HOURS)).toBe(
      'Same-day delivery',
    )
    expect(deliveryStep('express', saturdayAfternoon, DEFAULT_OPENING_HOURS)).toBe(
      'Delivery on the next opening day',
    )
    expect(deliveryStep('standard', saturdayMorning, DEFAULT_OPENING_HOURS)).toBe(
      'Delivery on the next opening day',
    )
  })

  it('promises no day when the shop never opens', () => {
    const closed: WeeklyHours = [null, null, null, null, null, null, null]
    expect(deliveryEstimate('standard', saturdayMorning, closed)).toBe(
      'The shop will contact you to arrange a delivery time',
    )
  })
})
