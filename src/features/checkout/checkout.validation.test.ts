import { describe, expect, it } from 'vitest'
import { emptyDraft, mmicOf, mmicProblem, normaliseDraft } from './checkout.validation'

const medical = (mmicNumber: string, mmicExpiry: string) => ({
  ...emptyDraft,
  customerKind: 'medical' as const,
  mmicNumber,
  mmicExpiry,
})

describe('the MMIC at checkout', () => {
  it('is optional: none given is no problem, and an adult-use order ignores the fields', () => {
    expect(mmicProblem(medical('', ''), '2026-11-28')).toBeNull()
    expect(mmicOf(medical('', ''))).toBeNull()
    const adult = { ...medical('A1B2C3', '2027-01-01'), customerKind: 'adult' as const }
    expect(mmicProblem(adult, '2026-11-28')).toBeNull()
    expect(mmicOf(adult)).toBeNull()
  })

  it('reads the number as the server keeps it, and the card valid through its expiry day', () => {
    expect(mmicOf(medical(' ab-12 34 ', '2026-11-28'))).toEqual({
      number: 'AB1234',
      expiry: '2026-11-28',
    })
    expect(mmicProblem(medical('ab-12 34', '2026-11-28'), '2026-11-28')).toBeNull()
  })

  it('says what is missing or wrong, and keeps what was typed', () => {
    const short = medical('A1', '2027-01-01')
    expect(mmicProblem(short, '2026-11-28')).toBe('MMIC number must have 4 to 20 letters or digits')
    expect(mmicOf(short)).toBeNull()
    expect(mmicProblem(medical('A1B2C3', ''), '2026-11-28')).toBe('Enter the MMIC’s expiry date')
    const expired = medical('A1B2C3', '2026-11-27')
    expect(mmicProblem(expired, '2026-11-28')).toMatch(/^This MMIC has expired/)
    // Still the card given: the server is told it and refuses with its own words.
    expect(mmicOf(expired)).toEqual({ number: 'A1B2C3', expiry: '2026-11-27' })
    expect(normaliseDraft(expired)).toMatchObject({
      mmicNumber: 'A1B2C3',
      mmicExpiry: '2026-11-27',
    })
  })
})
