import { describe, expect, it } from 'vitest'
import { shopDate, shopDateTime } from './admin-time'

// The device's own zone must not matter: these hold whatever TZ the test runs under.
describe('admin times in the shop time zone', () => {
  it('shows an instant on the shop clock with its zone', () => {
    expect(shopDateTime('2026-11-30T02:30:00.000Z')).toBe('Nov 29, 2026, 6:30 PM PST')
    expect(shopDateTime('2026-07-04T19:00:00Z')).toBe('Jul 4, 2026, 12:00 PM PDT')
  })

  it("gives the shop's calendar day, and keeps a plain day as it is", () => {
    expect(shopDate('2026-11-30T02:30:00.000Z')).toBe('Nov 29, 2026')
    expect(shopDate('2026-11-30')).toBe('Nov 30, 2026')
  })

  it('says nothing for a missing or unreadable time', () => {
    expect(shopDateTime(null)).toBe('')
    expect(shopDateTime('not a time')).toBe('')
    expect(shopDate(undefined)).toBe('')
  })
})
