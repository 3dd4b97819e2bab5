// The settings row from the server onto the device: every field is checked on its own, and a bad
// or missing one falls back to the built-in value instead of breaking the device.
import { describe, expect, it } from 'vitest'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../lib/shop-hours'
import { shopSettingsOf } from '../hooks/use-shop-settings'
import { shopSettingsRowToDoc } from './shop-settings-doc'
import type { ShopSettingsRow } from './shop-settings-row'

const row = (extra: Partial<ShopSettingsRow>): ShopSettingsRow => ({
  id: 'shop',
  _modified: '2026-11-25T10:00:00.000001+00:00',
  _deleted: false,
  tax_rate: 0.08,
  standard_shipping: 9.99,
  express_delivery: 19.99,
  free_shipping_threshold: 50,
  ...extra,
})

const week = [
  null,
  { open: '08:00', close: '22:00' },
  { open: '08:00', close: '22:00' },
  { open: '08:00', close: '22:00' },
  { open: '08:00', close: '22:00' },
  { open: '08:00', close: '23:30' },
  { open: '10:00', close: '24:00' },
]

describe('shopSettingsRowToDoc', () => {
  it('keeps valid hours, rules and the email switch', () => {
    const doc = shopSettingsRowToDoc(
      row({
        opening_hours: week,
        pickup_prep_minutes: 45,
        pickup_slot_minutes: 15,
        order_emails: true,
      }),
    )
    expect(doc.openingHours).toEqual(week)
    expect(doc.pickupPrepMinutes).toBe(45)
    expect(doc.pickupSlotMinutes).toBe(15)
    expect(doc.orderEmails).toBe(true)
    const settings = shopSettingsOf(doc)
    expect(settings.hours).toEqual(week)
    expect(settings.pickup).toEqual({ prepMinutes: 45, slotMinutes: 15 })
    expect(settings.orderEmails).toBe(true)
  })

  it('falls back to the defaults when the keys are missing (an older server)', () => {
    const doc = shopSettingsRowToDoc(row({}))
    expect(doc.openingHours).toEqual(DEFAULT_OPENING_HOURS)
    expect(doc.pickupPrepMinutes).toBe(DEFAULT_PICKUP_RULES.prepMinutes)
    expect(doc.pickupSlotMinutes).toBe(DEFAULT_PICKUP_RULES.slotMinutes)
    expect(doc.orderEmails).toBe(false)
  })

  it.each([
    ['not an array', 'Mon-Fri 9-5'],
    ['six days', week.slice(1)],
    ['eight days', [...week, null]],
    ['a day that closes before it opens', [...week.slice(0, 6), { open: '18:00', close: '10:00' }]],
    ['a time that is not HH:MM', [...week.slice(0, 6), { open: '9am', close: '17:00' }]],
    ['an hour past 24', [...week.slice(0, 6), { open: '09:00', close: '25:00' }]],
    ['a day of the wrong type', [...week.slice(0, 6), 'closed']],
    ['a day without a close', [...week.slice(0, 6), { open: '09:00' }]],
    ['a day as an array', [...week.slice(0, 6), ['09:00', '17:00']]],
    ['numbers', [...week.slice(0, 6), { open: 900, close: 1700 }]],
    ['a missing day', [...week.slice(0, 6), undefined]],
  ])('falls back to the default week for %s', (_, hours) => {
    const doc = shopSettingsRowToDoc(row({ opening_hours: hours, pickup_prep_minutes: 20 }))
    expect(doc.openingHours).toEqual(DEFAULT_OPENING_HOURS)
    // The other fields are kept: one bad field does not take the rest with it.
    expect(doc.pickupPrepMinutes).toBe(20)
  })

  it.each([
    ['a negative number', -5],
    ['a fraction', 12.5],
    ['NaN', Number.NaN],
    ['a huge number', 1e9],
    ['a word', 'thirty'],
    ['an object', { minutes: 30 }],
    ['null', null],
    ['true', true],
  ])('falls back to the default pickup rules for %s', (_, value) => {
    const doc = shopSettingsRowToDoc(
      row({ pickup_prep_minutes: value, pickup_slot_minutes: value, opening_hours: week }),
    )
    expect(doc.pickupPrepMinutes).toBe(DEFAULT_PICKUP_RULES.prepMinutes)
    expect(doc.pickupSlotMinutes).toBe(DEFAULT_PICKUP_RULES.slotMinutes)
    expect(doc.openingHours).toEqual(week)
  })

  it('reads numbers sent as strings, and a zero preparation time', () => {
    const doc = shopSettingsRowToDoc(row({ pickup_prep_minutes: '0', pickup_slot_minutes: '60' }))
    expect(doc.pickupPrepMinutes).toBe(0)
    expect(doc.pickupSlotMinutes).toBe(60)
  })

  it('sends no emails unless the server says exactly true', () => {
    for (const value of ['true', 1, 'yes', null, {}]) {
      expect(shopSettingsRowToDoc(row({ order_emails: value })).orderEmails).toBe(false)
    }
  })

  it('gives the defaults before the first sync', () => {
    const settings = shopSettingsOf(null)
    expect(settings.hours).toEqual(DEFAULT_OPENING_HOURS)
    expect(settings.pickup).toEqual(DEFAULT_PICKUP_RULES)
    expect(settings.orderEmails).toBe(false)
  })
})
