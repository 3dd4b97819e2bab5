import { describe, expect, it } from 'vitest'
import { DEFAULT_MONEY_RULES } from '../../lib/money'
import { SHOP } from '../../lib/shop'
import { formFromSettings, validateShopSettings } from './shop-settings.validation'

const form = () => formFromSettings(SHOP, DEFAULT_MONEY_RULES)

describe('Admin Settings form', () => {
  it('opens with the current settings and gives them back unchanged', () => {
    const opened = form()
    expect(opened.taxPercent).toBe('8')
    expect(opened.expressDelivery).toBe('19.99')
    const result = validateShopSettings(opened)
    expect(result).toEqual({ ok: true, payload: { ...DEFAULT_MONEY_RULES, facts: SHOP } })
  })

  it('turns the percent into a fraction and the phone numbers into E.164', () => {
    const result = validateShopSettings({
      ...form(),
      taxPercent: '8.875',
      expressDelivery: '$24.99',
      phone: '213 555 0100',
      textUpdatesPhone: '+1 (213) 555-0101',
      textUpdatesKeyword: 'smoke',
      state: 'ca',
    })
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    expect(result.payload.taxRate).toBe(0.08875)
    expect(result.payload.expressDelivery).toBe(24.99)
    expect(result.payload.facts.phone).toEqual({ display: '213 555 0100', e164: '+12135550100' })
    expect(result.payload.facts.textUpdates).toEqual({
      display: '+1 (213) 555-0101',
      e164: '+12135550101',
      keyword: 'SMOKE',
    })
    expect(result.payload.facts.address.state).toBe('CA')
    expect(formFromSettings(result.payload.facts, result.payload).taxPercent).toBe('8.875')
  })

  it('says what is wrong, field by field', () => {
    const result = validateShopSettings({
      ...form(),
      name: ' ',
      email: 'not-an-email',
      phone: '555-0100',
      zip: '9002',
      taxPercent: '30',
      standardShipping: '-1',
      expressDelivery: 'fast',
      freeShippingThreshold: '50.123',
      hours: [{ days: 'Mon-Fri', hours: '' }],
    })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toEqual({
      name: 'Shop name is required',
      email: 'Email must be a valid email address',
      phone: 'Phone must be a US number with 10 digits',
      zip: 'ZIP code must be 5 digits',
      taxPercent: 'Tax rate must be between 0% and 25%',
      standardShipping: 'Standard delivery fee must be between $0 and $1000',
      expressDelivery: 'Express delivery fee must be a number',
      freeShippingThreshold: 'Free delivery threshold can have at most 2 decimals',
      'hours.0.hours': 'Hours is required',
    })
  })

  it('needs at least one line of opening hours', () => {
    const result = validateShopSettings({ ...form(), hours: [] })
    expect(result).toEqual({
      ok: false,
      errors: { hours: 'Add at least one line of opening hours' },
    })
  })
})
