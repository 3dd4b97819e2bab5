/**
 * California's legal numbers as data (docs/decisions/051-california-taxes-and-daily-limits.md):
 * each rule is a row with the date it takes effect, kept in `compliance_rules` on the server and
 * synced to devices with the shop's settings. A sale uses the rows in force on its date in the
 * shop's time zone; a new rate can be entered ahead of time and takes over on its day.
 *
 * The same selection runs in SQL (`public.compliance_rule_on`); the parity tests feed both.
 */
import type { RuleKey } from './rule-keys'
import { shopClock } from './shop-hours'

export { isRuleKey, RULE_KEYS, type RuleKey } from './rule-keys'

export type ComplianceRule = {
  id: string
  rule: RuleKey
  /** A rate is a fraction (0.15 is 15%); a limit is grams. */
  value: number
  /** The first day (YYYY-MM-DD, the shop's calendar) the row applies to. */
  effectiveFrom: string
  /** Local cannabis business tax only: passed on to the buyer, separately stated. */
  passedOn: boolean
  /** Local cannabis business tax only: its name on the receipt. */
  label: string | null
  /** Where the number comes from (a statute, a regulation, the shop's own city). */
  source: string | null
}

export type CustomerKind = 'adult' | 'medical'

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The shop's calendar day (America/Los_Angeles) of an instant, as YYYY-MM-DD. */
export function shopDate(at: Date = new Date()): string {
  const { year, month, day } = shopClock(at)
  return `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** The row of `rule` in force on `day`: the latest that took effect on or before it. */
export function ruleOn(
  rules: readonly ComplianceRule[],
  rule: RuleKey,
  day: string,
): ComplianceRule | null {
  let best: ComplianceRule | null = null
  for (const row of rules) {
    if (row.rule !== rule || !DAY.test(row.effectiveFrom) || row.effectiveFrom > day) continue
    if (!best || row.effectiveFrom > best.effectiveFrom) best = row
  }
  return best
}

export type TaxRates = {
  /** Fractions, with at most five decimals (0.0975 is 9.75%). */
  excise: number
  sales: number
  /** The local cannabis business tax, 0 when the shop does not pass one on separately stated. */
  local: number
  localLabel: string
}

export const DEFAULT_LOCAL_TAX_LABEL = 'City cannabis business tax'

/** The rates of a sale of `kind` on `day`; a rule with no row in force counts as 0. */
export function taxRatesOn(
  rules: readonly ComplianceRule[],
  day: string,
  kind: CustomerKind,
): TaxRates {
  const excise = ruleOn(rules, 'excise_rate', day)?.value ?? 0
  const sales = ruleOn(rules, 'sales_tax_rate', day)?.value ?? 0
  const adultLocal = ruleOn(rules, 'local_tax_rate', day)
  // A city may tax medical sales at its own rate (Los Angeles: 5% against 10%); without a
  // medical row the adult-use one applies to both.
  const local =
    (kind === 'medical' ? ruleOn(rules, 'local_tax_rate_medical', day) : null) ?? adultLocal
  const passedOn = adultLocal?.passedOn === true
  return {
    excise,
    sales,
    local: passedOn && local ? local.value : 0,
    localLabel: adultLocal?.label?.trim() || DEFAULT_LOCAL_TAX_LABEL,
  }
}

export type DailyLimits = { flowerGrams: number | null; concentrateGrams: number | null }

/** §15409's daily limits for a customer of `kind` on `day`; null when no row is in force. */
export function dailyLimitsOn(
  rules: readonly ComplianceRule[],
  day: string,
  kind: CustomerKind,
): DailyLimits {
  const flower = ruleOn(
    rules,
    kind === 'medical' ? 'limit_medical_flower_g' : 'limit_adult_flower_g',
    day,
  )
  const concentrate = ruleOn(
    rules,
    kind === 'medical' ? 'limit_medical_concentrate_g' : 'limit_adult_concentrate_g',
    day,
  )
  return { flowerGrams: flower?.value ?? null, concentrateGrams: concentrate?.value ?? null }
}

/** "15%", "8.5%", "9.75%", "8.875%": a rate as receipts print it. */
export function formatRate(rate: number): string {
  const percent = Math.round(rate * 100_000) / 1000
  return `${Number(percent.toFixed(3))}%`
}
