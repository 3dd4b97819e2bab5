/**
 * Admin Settings → Taxes and daily limits (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md): the form staff use to
 * enter a new tax rate or daily limit from the day it takes effect, apart from React.
 *
 * Each rule opens with the value in force today, so a new user reads "Sales tax rate (%) 9.75,
 * takes effect on <today>" and types the new one over it. Only a rule someone changed is sent
 * (`admin_save_compliance_rule`); one whose value, and for the local tax whether it is passed on
 * and its name, match what is already in force on the chosen day is left alone. Rates are typed
 * in percent ("8.5", up to three decimals) and sent as fractions (0.085): the server keeps five
 * decimals and refuses anything else, so the device says so first.
 */
import * as v from 'valibot'
import {
  DEFAULT_LOCAL_TAX_LABEL,
  formatRate,
  ruleOn,
  type ComplianceRule,
  type RuleKey,
} from '../../../lib/compliance-rules'

export const MAX_RATE_PERCENT = 50
export const MAX_LIMIT_GRAMS = 10_000
export const MAX_LABEL = 80
export const MAX_SOURCE = 300
/** The server takes a rule at most ten years ahead (3660 days). */
export const MAX_DAYS_AHEAD = 3660

export type RuleInfo = {
  /** The group's heading. */
  title: string
  /** The value input's label, unique in the dialog. */
  inputLabel: string
  /** In sentences: "the sales tax rate". */
  noun: string
  unit: 'percent' | 'grams' | 'hours' | 'dollars'
  help: string
}

/** The rules in the order the settings list them: the taxes, then the daily limits. */
export const RULE_INFO: Record<RuleKey, RuleInfo> = {
  excise_rate: {
    title: 'Cannabis excise tax',
    inputLabel: 'Cannabis excise rate (%)',
    noun: 'The cannabis excise rate',
    unit: 'percent',
    help: 'On the gross receipts of cannabis: its price after discounts, the delivery fee and a local tax passed on.',
  },
  sales_tax_rate: {
    title: 'Sales tax',
    inputLabel: 'Sales tax rate (%)',
    noun: 'The sales tax rate',
    unit: 'percent',
    help: "The full rate of the shop's address (state, county and district), on everything charged, the excise included.",
  },
  local_tax_rate: {
    title: 'Local cannabis business tax',
    inputLabel: 'Local cannabis business tax rate (%)',
    noun: 'The local cannabis business tax rate',
    unit: 'percent',
    help: "The city's tax on the cannabis sold. Charged to the buyer only when it is passed on, separately stated; otherwise the shop pays it.",
  },
  local_tax_rate_medical: {
    title: 'Local tax on medical sales',
    inputLabel: 'Medical local tax rate (%)',
    noun: 'The medical local tax rate',
    unit: 'percent',
    help: "The city's rate for sales to medical patients, passed on when the local tax is. Without one, medical sales pay the rate above.",
  },
  limit_adult_flower_g: {
    title: 'Adult use: flower a day',
    inputLabel: 'Adult-use flower limit (g)',
    noun: 'The adult-use flower limit',
    unit: 'grams',
    help: 'Non-concentrated cannabis one adult-use customer may buy in a day.',
  },
  limit_adult_concentrate_g: {
    title: 'Adult use: concentrate a day',
    inputLabel: 'Adult-use concentrate limit (g)',
    noun: 'The adult-use concentrate limit',
    unit: 'grams',
    help: 'Concentrate, including the concentrate in products, one adult-use customer may buy in a day.',
  },
  limit_medical_flower_g: {
    title: 'Medical: flower a day',
    inputLabel: 'Medical flower limit (g)',
    noun: 'The medical flower limit',
    unit: 'grams',
    help: 'Dried flower one medical patient may buy in a day.',
  },
  limit_medical_concentrate_g: {
    title: 'Medical: concentrate a day',
    inputLabel: 'Medical concentrate limit (g)',
    noun: 'The medical concentrate limit',
    unit: 'grams',
    help: 'Concentrate one medical patient may buy in a day.',
  },
  handoff_hours_start: {
    title: 'Handoffs from',
    inputLabel: 'Handoffs from (hour)',
    noun: 'The first hour of handoffs',
    unit: 'hours',
    help: 'The hour of the day, shop time, from which orders go out and are picked up or delivered (6 for 6:00 AM, 6.5 for 6:30 AM).',
  },
  handoff_hours_end: {
    title: 'Handoffs until',
    inputLabel: 'Handoffs until (hour)',
    noun: 'The last hour of handoffs',
    unit: 'hours',
    help: 'The hour of the day, shop time, at which assignments, pickups and deliveries stop (22 for 10:00 PM).',
  },
  driver_load_cap: {
    title: 'Most a driver carries',
    inputLabel: 'Most a driver carries ($)',
    noun: 'The most a driver carries',
    unit: 'dollars',
    help: 'The total of the orders one driver may have out for delivery at once.',
  },
}

export const TAX_RULES = [
  'excise_rate',
  'sales_tax_rate',
  'local_tax_rate',
  'local_tax_rate_medical',
] as const satisfies readonly RuleKey[]
export const LIMIT_RULES = [
  'limit_adult_flower_g',
  'limit_adult_concentrate_g',
  'limit_medical_flower_g',
  'limit_medical_concentrate_g',
] as const satisfies readonly RuleKey[]
/** 4 CCR §15403 and §15418 (docs/decisions/055-delivery-by-the-rules.md). */
export const DELIVERY_RULES = [
  'handoff_hours_start',
  'handoff_hours_end',
  'driver_load_cap',
] as const satisfies readonly RuleKey[]
export const FORM_RULES: readonly RuleKey[] = [...TAX_RULES, ...LIMIT_RULES, ...DELIVERY_RULES]

/** One rule's inputs, as typed. */
export type RuleEntry = {
  value: string
  effectiveFrom: string
  source: string
  /** Local cannabis business tax only. */
  passedOn: boolean
  label: string
  /** Someone typed in this rule since it was filled. */
  touched: boolean
}

export type RulesForm = Record<RuleKey, RuleEntry>

/** What `admin_save_compliance_rule` takes. */
export type RulePayload = {
  rule: RuleKey
  value: number
  effectiveFrom: string
  passedOn?: boolean
  label?: string | null
  source: string | null
}

/** A value as its input shows it: "8.5" for 0.085, "28.5" for 28.5 g. */
export function valueText(rule: RuleKey, value: number): string {
  return RULE_INFO[rule].unit === 'percent' ? formatRate(value).slice(0, -1) : String(value)
}

/** A value as a sentence says it: "8.5%", "28.5 g", "10:00 PM", "$5,000". */
export function valueWords(rule: RuleKey, value: number): string {
  switch (RULE_INFO[rule].unit) {
    case 'percent':
      return formatRate(value)
    case 'grams':
      return `${value} g`
    case 'hours':
      return hourWords(value)
    case 'dollars':
      return `$${value.toLocaleString('en-US')}`
  }
}

/** 6 → "6:00 AM", 22.5 → "10:30 PM", 24 → "12:00 AM" (midnight at the end of the day). */
export function hourWords(hours: number): string {
  const minutes = Math.round(hours * 60) % (24 * 60)
  const h = Math.floor(minutes / 60)
  const m = String(minutes % 60).padStart(2, '0')
  return `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? 'AM' : 'PM'}`
}

/** The form as it opens on `today`: each rule's value in force, from today. */
export function rulesFormOf(rules: readonly ComplianceRule[], today: string): RulesForm {
  const form = {} as RulesForm
  for (const rule of FORM_RULES) {
    const row = ruleOn(rules, rule, today)
    form[rule] = {
      value: row ? valueText(rule, row.value) : '',
      effectiveFrom: today,
      source: '',
      passedOn: row?.passedOn === true,
      label: row?.label ?? (rule === 'local_tax_rate' ? DEFAULT_LOCAL_TAX_LABEL : ''),
      touched: false,
    }
  }
  return form
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDay(text: string): boolean {
  if (!DAY.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

/** `day` plus `days` calendar days, YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

const places = (n: number, count: number) =>
  Math.abs(Math.round(n * 10 ** count) - n * 10 ** count) < 1e-6

/** A rate typed in percent ("8.5", "8.5 %"), turned into a fraction (0.085). */
const percentField = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(`${name} is required`),
    v.transform((text) => text.replace(/\s*%$/, '')),
    v.regex(/^-?(\d+\.?\d*|\.\d+)$/, `${name} must be a number, in percent (8.5 for 8.5%)`),
    v.transform(Number),
    v.minValue(0, `${name} must be between 0% and ${MAX_RATE_PERCENT}%`),
    v.maxValue(MAX_RATE_PERCENT, `${name} must be between 0% and ${MAX_RATE_PERCENT}%`),
    v.check((n) => places(n, 3), `${name} can have at most 3 decimals`),
    // 8.875 * 1000 is 8874.999999999998 in binary floats: round to the server's five decimals.
    v.transform((percent) => Math.round(percent * 1000) / 100_000),
  )

/** An hour of the day, 0 to 24, to the quarter hour (as the server keeps it). */
const hoursField = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(`${name} is required`),
    v.regex(/^(\d+\.?\d*|\.\d+)$/, `${name} must be an hour of the day (6, or 6.5 for 6:30 AM)`),
    v.transform(Number),
    v.check((n) => n >= 0 && n <= 24, `${name} must be between 0 and 24`),
    v.check((n) => Number.isInteger(n * 4), `${name} must be to the quarter hour`),
  )

const dollarsField = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(`${name} is required`),
    v.transform((text) => text.replace(/^\$\s*/, '').replace(/,/g, '')),
    v.regex(/^(\d+\.?\d*|\.\d+)$/, `${name} must be an amount in dollars`),
    v.transform(Number),
    v.check((n) => n > 0 && n <= 1_000_000, `${name} must be more than $0 and at most $1,000,000`),
    v.check((n) => places(n, 2), `${name} can have at most 2 decimals`),
  )

const FIELDS = {
  percent: percentField,
  grams: (name: string) => gramsField(name),
  hours: hoursField,
  dollars: dollarsField,
} as const

const gramsField = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(`${name} is required`),
    v.transform((text) => text.replace(/\s*g$/i, '')),
    v.regex(/^-?(\d+\.?\d*|\.\d+)$/, `${name} must be a number of grams`),
    v.transform(Number),
    v.check(
      (n) => n > 0 && n <= MAX_LIMIT_GRAMS,
      `${name} must be more than 0 g and at most ${MAX_LIMIT_GRAMS.toLocaleString('en-US')} g`,
    ),
    v.check((n) => places(n, 2), `${name} can have at most 2 decimals`),
  )

/** The day a rule takes effect: a real day, today or later, at most ten years ahead. */
const dayField = (today: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Enter the date it takes effect'),
    v.check(isCalendarDay, 'Enter the date it takes effect as YYYY-MM-DD'),
    v.check(
      (day) => day >= today,
      `The date cannot be before today (${today}): what was charged before stays as it was. Enter today or a later day.`,
    ),
    v.check(
      (day) => day <= addDays(today, MAX_DAYS_AHEAD),
      'A rule can be entered at most ten years ahead',
    ),
  )

const optionalText = (max: number, message: string) =>
  v.pipe(v.string(), v.trim(), v.maxLength(max, message))

function entrySchema(rule: RuleKey, today: string) {
  const info = RULE_INFO[rule]
  const name = info.inputLabel.replace(/ \((%|g|hour|\$)\)$/, '')
  return v.object({
    value: FIELDS[info.unit](name),
    effectiveFrom: dayField(today),
    source: optionalText(MAX_SOURCE, `The source can have at most ${MAX_SOURCE} characters`),
    label: optionalText(MAX_LABEL, `The name can have at most ${MAX_LABEL} characters`),
    passedOn: v.boolean(),
  })
}

/** Whether a valid entry would change anything in force on its day. */
function changes(
  rule: RuleKey,
  entry: { value: number; effectiveFrom: string; source: string; passedOn: boolean; label: string },
  rules: readonly ComplianceRule[],
): boolean {
  const current = ruleOn(rules, rule, entry.effectiveFrom)
  if (!current || entry.source !== '') return true
  if (Math.round(current.value * 100_000) !== Math.round(entry.value * 100_000)) return true
  if (rule !== 'local_tax_rate') return false
  const label = current.label?.trim() || DEFAULT_LOCAL_TAX_LABEL
  return current.passedOn !== entry.passedOn || label !== (entry.label || DEFAULT_LOCAL_TAX_LABEL)
}

/**
 * The rules to save, or the errors keyed `<rule>.<field>` ("sales_tax_rate.value"). Rules
 * nobody touched are not checked: a value already stored is the server's business.
 */
export function validateRules(
  form: RulesForm,
  rules: readonly ComplianceRule[],
  today: string,
): { ok: true; payloads: RulePayload[] } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  const payloads: RulePayload[] = []
  for (const rule of FORM_RULES) {
    const entry = form[rule]
    if (!entry.touched) continue
    const result = v.safeParse(entrySchema(rule, today), entry)
    if (!result.success) {
      for (const issue of result.issues) {
        const key = `${rule}.${v.getDotPath(issue) ?? 'value'}`
        errors[key] ??= issue.message
      }
      continue
    }
    const o = result.output
    if (!changes(rule, o, rules)) continue
    payloads.push({
      rule,
      value: o.value,
      effectiveFrom: o.effectiveFrom,
      ...(rule === 'local_tax_rate' ? { passedOn: o.passedOn, label: o.label || null } : {}),
      source: o.source || null,
    })
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, payloads }
}

export type RuleRowState = 'in-force' | 'upcoming' | 'earlier'

/** A rule's rows, newest first, each marked in force today, upcoming or earlier. */
export function ruleHistory(
  rules: readonly ComplianceRule[],
  rule: RuleKey,
  today: string,
): { row: ComplianceRule; state: RuleRowState }[] {
  const inForce = ruleOn(rules, rule, today)
  return rules
    .filter((row) => row.rule === rule)
    .sort((a, b) => b.effectiveFrom.localeCompare(a.effectiveFrom))
    .map((row) => ({
      row,
      state:
        row.id === inForce?.id ? 'in-force' : row.effectiveFrom > today ? 'upcoming' : 'earlier',
    }))
}

/** Only a row that has not taken effect before today may be deleted (the server's rule). */
export const canDeleteRule = (row: Pick<ComplianceRule, 'effectiveFrom'>, today: string) =>
  row.effectiveFrom >= today

/** "Nov 28, 2026" for a day written YYYY-MM-DD (a calendar day: no time zone applies). */
export function formatDay(day: string): string {
  if (!isCalendarDay(day)) return day
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  })
}
