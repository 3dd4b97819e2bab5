import { describe, expect, it } from 'vitest'
import { DEFAULT_MONEY_RULES } from '../../lib/money'
import { SHOP } from '../../lib/shop'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../lib/shop-hours'
import { hoursLines } from '../../lib/pickup-windows'
import { formFromSettings, validateShopSettings } from './shop-settings.validation'

const form = () =>
  formFromSettings(SHOP, DEFAULT_MONEY_RULES, DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES)
const PICKUP = { pickupPrepMinutes: 30, pickupSlotMinutes: 30 }

describe('Admin Settings form', () => {
  it('opens with the current settings and gives them back unchanged', () => {
    const opened = form()
    expect(opened.expressDelivery).toBe('19.99')
    const result = validateShopSettings(opened)
    expect(result).toEqual({
      ok: true,
      payload: {
        ...DEFAULT_MONEY_RULES,
        ...PICKUP,
        unacceptedOrderHours: 12,
        openingHours: DEFAULT_OPENING_HOURS,
        facts: { ...SHOP, hours: hoursLines(DEFAULT_OPENING_HOURS) },
      },
    })
  })

  it('takes the time to accept an order in whole opening hours, 1 to 168', () => {
    const ok = validateShopSettings({ ...form(), unacceptedOrderHours: ' 24 ' })
    expect(ok.ok && ok.payload.unacceptedOrderHours).toBe(24)
    for (const [typed, message] of [
      ['', 'Time to accept an order is required'],
      ['1.5', 'Time to accept an order must be a whole number of hours'],
      ['0', 'Time to accept an order must be between 1 and 168 opening hours'],
      ['169', 'Time to accept an order must be between 1 and 168 opening hours'],
    ] as const) {
      const result = validateShopSettings({ ...form(), unacceptedOrderHours: typed })
      expect(result.ok ? null : result.errors.unacceptedOrderHours, typed).toBe(message)
    }
  })

  it('turns the fees into numbers and the phone numbers into E.164', () => {
    const result = validateShopSettings({
      ...form(),
      expressDelivery: '$24.99',
      phone: '213 555 0100',
      textUpdatesPhone: '+1 (213) 555-0101',
      textUpdatesKeyword: 'smoke',
      state: 'ca',
    })
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    expect(result.payload.expressDelivery).toBe(24.99)
    expect(result.payload.facts.phone).toEqual({ display: '213 555 0100', e164: '+12135550100' })
    expect(result.payload.facts.textUpdates).toEqual({
      display: '+1 (213) 555-0101',
      e164: '+12135550101',
      keyword: 'SMOKE',
    })
    expect(result.payload.facts.address.state).toBe('CA')
    expect(
      formFromSettings(
        result.payload.facts,
        result.payload,
        result.payload.openingHours,
        DEFAULT_PICKUP_RULES,
      ).expressDelivery,
    ).toBe('24.99')
  })

  it('says what is wrong, field by field', () => {
    const result = validateShopSettings({
      ...form(),
      name: ' ',
      email: 'not-an-email',
      phone: '555-0100',
      zip: '9002',
      standardShipping: '-1',
      expressDelivery: 'fast',
      freeShippingThreshold: '50.123',
      pickupPrepMinutes: '1000',
      pickupSlotMinutes: '25',
    })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toEqual({
      name: 'Shop name is required',
      email: 'Email must be a valid email address',
      phone: 'Phone must be a US number with 10 digits',
      zip: 'ZIP code must be 5 digits',
      standardShipping: 'Standard delivery fee must be between $0 and $1000',
      expressDelivery: 'Express delivery fee must be a number',
      freeShippingThreshold: 'Free delivery threshold can have at most 2 decimals',
      pickupPrepMinutes: 'Preparation time must be between 0 and 720 minutes',
      pickupSlotMinutes: 'Pickup window length must be 15, 20, 30, 45, 60, 90, 120 minutes',
    })
  })

  it('edits the week as data and derives the hours lines the contact page shows', () => {
    const days = form().openingHours
    // Sunday closed; Monday 10:30 AM-7:00 PM; Saturday open late.
    days[0] = { ...days[0]!, closed: true }
    days[1] = { closed: false, open: '10:30', close: '19:00' }
    days[6] = { closed: false, open: '10:00', close: '22:00' }
    const result = validateShopSettings({
      ...form(),
      openingHours: days,
      pickupPrepMinutes: '45',
      pickupSlotMinutes: '60',
    })
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    expect(result.payload.openingHours[0]).toBeNull()
    expect(result.payload.openingHours[1]).toEqual({ open: '10:30', close: '19:00' })
    expect(result.payload.pickupPrepMinutes).toBe(45)
    expect(result.payload.pickupSlotMinutes).toBe(60)
    expect(result.payload.facts.hours).toEqual([
      { days: 'Mon', hours: '10:30 AM-7:00 PM' },
      { days: 'Tue-Fri', hours: '9:00 AM-8:00 PM' },
      { days: 'Sat', hours: '10:00 AM-10:00 PM' },
      { days: 'Sun', hours: 'Closed' },
    ])
  })

  it('refuses a day that closes before it opens, naming the day', () => {
    const days = form().openingHours
    days[2] = { closed: false, open: '18:00', close: '09:00' }
    days[3] = { closed: false, open: '', close: '17:00' }
    const result = validateShopSettings({ ...form(), openingHours: days })
    expect(result).toEqual({
      ok: false,
      errors: {
        'openingHours.2': 'Tuesday: the shop must open before it closes',
        'openingHours.3': 'Wednesday: enter the opening and closing times',
      },
    })
  })
})
