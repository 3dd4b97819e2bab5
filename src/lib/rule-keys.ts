/**
 * The names of California's legal numbers kept as data (compliance_rules, docs/decisions/051-california-taxes-and-daily-limits.md): what a
 * device accepts from the server's settings document. Apart from ./compliance-rules.ts so the
 * settings' reading (on every page) does not load the rules' computations.
 */
export const RULE_KEYS = [
  'excise_rate',
  'sales_tax_rate',
  'local_tax_rate',
  'local_tax_rate_medical',
  'limit_adult_flower_g',
  'limit_adult_concentrate_g',
  'limit_medical_flower_g',
  'limit_medical_concentrate_g',
  'handoff_hours_start',
  'handoff_hours_end',
  'driver_load_cap',
] as const

export type RuleKey = (typeof RULE_KEYS)[number]

export const isRuleKey = (value: unknown): value is RuleKey =>
  typeof value === 'string' && (RULE_KEYS as readonly string[]).includes(value)
