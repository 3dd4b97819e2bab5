import { describe, expect, it } from 'vitest'
import { DEFAULT_COMPLIANCE_RULES } from '../../../lib/compliance-defaults'
import type { ComplianceRule } from '../../../lib/compliance-rules'
import {
  addDays,
  canDeleteRule,
  formatDay,
  isCalendarDay,
  ruleHistory,
  rulesFormOf,
  validateRules,
  type RulesForm,
} from './compliance-rules.validation'

const TODAY = '2026-11-28'
const RULES = DEFAULT_COMPLIANCE_RULES

/** The form as it opens, with `change` typed into some rules. */
function typed(change: Partial<{ [K in keyof RulesForm]: Partial<RulesForm[K]> }>): RulesForm {
  const form = rulesFormOf(RULES, TODAY)
  for (const [rule, entry] of Object.entries(change)) {
    const key = rule as keyof RulesForm
    form[key] = { ...form[key], ...entry, touched: true }
  }
  return form
}

describe('Admin Settings → Taxes and daily limits', () => {
  it('opens with the value in force today, in percent or grams, from today', () => {
    const form = rulesFormOf(RULES, TODAY)
    expect(form.excise_rate).toMatchObject({ value: '15', effectiveFrom: TODAY, touched: false })
    expect(form.sales_tax_rate.value).toBe('9.75')
    expect(form.local_tax_rate).toMatchObject({
      value: '10',
      passedOn: false,
      label: 'City cannabis business tax',
    })
    expect(form.local_tax_rate_medical.value).toBe('5')
    expect(form.limit_adult_flower_g.value).toBe('28.5')
    expect(form.limit_medical_flower_g.value).toBe('226.8')
    // On a day the 19% was in force, that is what opens.
    expect(rulesFormOf(RULES, '2025-08-15').excise_rate.value).toBe('19')
  })

  it('saves nothing when nothing was typed, or when what was typed is already in force', () => {
    expect(validateRules(rulesFormOf(RULES, TODAY), RULES, TODAY)).toEqual({
      ok: true,
      payloads: [],
    })
    expect(validateRules(typed({ excise_rate: { value: '15.000' } }), RULES, TODAY)).toEqual({
      ok: true,
      payloads: [],
    })
  })

  it("enters CDTFA's example: sales tax 8.5% from today, the 10% local tax passed on", () => {
    const result = validateRules(
      typed({
        sales_tax_rate: { value: '8.5', source: ' CDTFA example ' },
        local_tax_rate: { passedOn: true },
      }),
      RULES,
      TODAY,
    )
    expect(result).toEqual({
      ok: true,
      payloads: [
        {
          rule: 'sales_tax_rate',
          value: 0.085,
          effectiveFrom: TODAY,
          source: 'CDTFA example',
        },
        {
          rule: 'local_tax_rate',
          value: 0.1,
          effectiveFrom: TODAY,
          passedOn: true,
          label: 'City cannabis business tax',
          source: null,
        },
      ],
    })
  })

  it('sends percentages as fractions with five decimals, and a rate ahead of its day', () => {
    const result = validateRules(
      typed({
        sales_tax_rate: { value: '8.875 %', effectiveFrom: '2027-01-01' },
        excise_rate: { value: '0.125' },
        limit_adult_flower_g: { value: '28.35 g' },
      }),
      RULES,
      TODAY,
    )
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    expect(result.payloads.map((p) => [p.rule, p.value, p.effectiveFrom])).toEqual([
      ['excise_rate', 0.00125, TODAY],
      ['sales_tax_rate', 0.08875, '2027-01-01'],
      ['limit_adult_flower_g', 28.35, TODAY],
    ])
  })

  it('says what is wrong, rule by rule, and saves none of it', () => {
    const result = validateRules(
      typed({
        excise_rate: { value: 'fifteen' },
        sales_tax_rate: { value: '8.8755' },
        local_tax_rate: { value: '60', label: 'x'.repeat(81) },
        local_tax_rate_medical: { value: '' },
        limit_adult_flower_g: { value: '0' },
        limit_adult_concentrate_g: { value: '8.125' },
        limit_medical_flower_g: { effectiveFrom: '2026-11-27' },
        limit_medical_concentrate_g: { effectiveFrom: '2026-02-30' },
      }),
      RULES,
      TODAY,
    )
    expect(result).toEqual({
      ok: false,
      errors: {
        'excise_rate.value': 'Cannabis excise rate must be a number, in percent (8.5 for 8.5%)',
        'sales_tax_rate.value': 'Sales tax rate can have at most 3 decimals',
        'local_tax_rate.value': 'Local cannabis business tax rate must be between 0% and 50%',
        'local_tax_rate.label': 'The name can have at most 80 characters',
        'local_tax_rate_medical.value': 'Medical local tax rate is required',
        'limit_adult_flower_g.value':
          'Adult-use flower limit must be more than 0 g and at most 10,000 g',
        'limit_adult_concentrate_g.value':
          'Adult-use concentrate limit can have at most 2 decimals',
        'limit_medical_flower_g.effectiveFrom':
          'The date cannot be before today (2026-11-28): what was charged before stays as it was. Enter today or a later day.',
        'limit_medical_concentrate_g.effectiveFrom': 'Enter the date it takes effect as YYYY-MM-DD',
      },
    })
  })

  it('refuses a day more than ten years ahead, as the server does', () => {
    const far = addDays(TODAY, 3661)
    const result = validateRules(typed({ excise_rate: { effectiveFrom: far } }), RULES, TODAY)
    expect(result).toEqual({
      ok: false,
      errors: { 'excise_rate.effectiveFrom': 'A rule can be entered at most ten years ahead' },
    })
    expect(addDays(TODAY, 3660) > TODAY).toBe(true)
  })

  it('lists a rule newest first: upcoming, in force today, earlier; only today or later can go', () => {
    const upcoming: ComplianceRule = {
      id: 'u',
      rule: 'excise_rate',
      value: 0.2,
      effectiveFrom: '2027-07-01',
      passedOn: false,
      label: null,
      source: null,
    }
    const history = ruleHistory([...RULES, upcoming], 'excise_rate', TODAY)
    expect(history.map((h) => [h.row.effectiveFrom, h.state])).toEqual([
      ['2027-07-01', 'upcoming'],
      ['2025-10-01', 'in-force'],
      ['2025-07-01', 'earlier'],
      ['2023-01-01', 'earlier'],
    ])
    expect(canDeleteRule(upcoming, TODAY)).toBe(true)
    expect(canDeleteRule({ effectiveFrom: TODAY }, TODAY)).toBe(true)
    expect(canDeleteRule({ effectiveFrom: '2025-10-01' }, TODAY)).toBe(false)
  })

  it('reads calendar days without a time zone', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true)
    expect(isCalendarDay('2027-02-29')).toBe(false)
    expect(isCalendarDay('28/11/2026')).toBe(false)
    expect(formatDay('2025-10-01')).toBe('Oct 1, 2025')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
  })
})
