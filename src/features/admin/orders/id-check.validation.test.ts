import { describe, expect, it } from 'vitest'
import { mmicExpiredOn, validateHandoff } from './id-check.validation'

describe('the handoff: ID number and MMIC check', () => {
  it('needs the ID number, trimmed, as the server hashes it', () => {
    expect(validateHandoff({ idNumber: '  ', mmicChecked: false }, {})).toEqual({
      ok: false,
      errors: { idNumber: "Enter the number on the buyer's ID" },
    })
    expect(validateHandoff({ idNumber: 'D-12', mmicChecked: false }, {})).toEqual({
      ok: false,
      errors: { idNumber: 'Enter the whole ID number: at least 4 letters or digits' },
    })
    expect(validateHandoff({ idNumber: 'x'.repeat(65), mmicChecked: false }, {})).toEqual({
      ok: false,
      errors: { idNumber: 'An ID number has at most 64 characters' },
    })
    expect(validateHandoff({ idNumber: ' D1234567 ', mmicChecked: false }, {})).toEqual({
      ok: true,
      input: { idNumber: 'D1234567', mmicChecked: false },
    })
  })

  it('needs "MMIC checked" for a medical order without sales tax only', () => {
    const exempt = { salesTaxExempt: true }
    expect(validateHandoff({ idNumber: 'D1234567', mmicChecked: false }, exempt)).toEqual({
      ok: false,
      errors: { mmicChecked: 'Check the patient\'s MMIC and tick "MMIC checked" first' },
    })
    expect(validateHandoff({ idNumber: 'D1234567', mmicChecked: true }, exempt)).toEqual({
      ok: true,
      input: { idNumber: 'D1234567', mmicChecked: true },
    })
    expect(
      validateHandoff({ idNumber: 'D1234567', mmicChecked: false }, { salesTaxExempt: false }),
    ).toMatchObject({ ok: true })
  })

  it('knows an expired card by the shop day', () => {
    expect(mmicExpiredOn('2026-11-27', '2026-11-28')).toBe(true)
    expect(mmicExpiredOn('2026-11-28', '2026-11-28')).toBe(false)
    expect(mmicExpiredOn(null, '2026-11-28')).toBe(false)
  })
})
