import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { waitlistToCsv } from './waitlist-api'

describe('the waitlist CSV', () => {
  it('has one row per person with the consent they gave, and no formula a spreadsheet runs', () => {
    const csv = waitlistToCsv([
      {
        email: 'ada@example.com',
        consentText: 'I agree, "quoted", with a comma',
        consentedAt: '2026-11-30T12:00:00Z',
        confirmationEmail: 'sent',
      },
      {
        email: '=HYPERLINK("http://evil")@example.com',
        consentText: 'I agree',
        consentedAt: '2026-11-30T12:01:00Z',
        confirmationEmail: 'not sent',
      },
    ])
    const rows = Papa.parse<string[]>(csv).data
    expect(rows[0]).toEqual(['email', 'consented_at', 'consent_text', 'confirmation_email'])
    expect(rows[1]).toEqual([
      'ada@example.com',
      '2026-11-30T12:00:00Z',
      'I agree, "quoted", with a comma',
      'sent',
    ])
    expect(rows[2]![0]).toBe(`'=HYPERLINK("http://evil")@example.com`)
  })
})
