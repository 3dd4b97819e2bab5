/**
 * The rows `compliance_rules` starts with (migration 20261128100000_create_compliance_rules.sql):
 * what a device uses before its first sync brings the shop's own. Data with dates and sources,
 * not constants: a parity test holds this list equal to the migration's rows, and the server's
 * rows always win (docs/decisions/051-california-taxes-and-daily-limits.md).
 */
import type { ComplianceRule } from './compliance-rules'

const row = (
  id: string,
  rule: ComplianceRule['rule'],
  value: number,
  effectiveFrom: string,
  source: string,
  extra: Partial<Pick<ComplianceRule, 'passedOn' | 'label'>> = {},
): ComplianceRule => ({
  id,
  rule,
  value,
  effectiveFrom,
  passedOn: extra.passedOn ?? false,
  label: extra.label ?? null,
  source,
})

export const DEFAULT_COMPLIANCE_RULES: readonly ComplianceRule[] = [
  row(
    '00000000-0000-4000-8c00-000000000001',
    'excise_rate',
    0.15,
    '2023-01-01',
    'R&T Code §34011.2 (AB 195): 15% of gross receipts, collected by the retailer',
  ),
  row(
    '00000000-0000-4000-8c00-000000000002',
    'excise_rate',
    0.19,
    '2025-07-01',
    'CDTFA rate adjustment under R&T Code §34011.2(b) for 2025-26',
  ),
  row(
    '00000000-0000-4000-8c00-000000000003',
    'excise_rate',
    0.15,
    '2025-10-01',
    'AB 564 (Stats. 2025, ch. 127): back to 15% from 2025-10-01',
  ),
  row(
    '00000000-0000-4000-8c00-000000000004',
    'sales_tax_rate',
    0.095,
    '2017-10-01',
    'CDTFA rate for the City of Los Angeles (Measure H)',
  ),
  row(
    '00000000-0000-4000-8c00-000000000005',
    'sales_tax_rate',
    0.0975,
    '2025-04-01',
    'CDTFA rate for the City of Los Angeles (Measure A, 2025-04-01)',
  ),
  row(
    '00000000-0000-4000-8c00-000000000006',
    'local_tax_rate',
    0.1,
    '2018-01-01',
    'Los Angeles cannabis business tax L702, adult-use retail ($100 per $1,000)',
    { label: 'City cannabis business tax' },
  ),
  row(
    '00000000-0000-4000-8c00-000000000007',
    'local_tax_rate_medical',
    0.05,
    '2018-01-01',
    'Los Angeles cannabis business tax L701, medical retail ($50 per $1,000)',
  ),
  row(
    '00000000-0000-4000-8c00-000000000008',
    'limit_adult_flower_g',
    28.5,
    '2018-01-01',
    '4 CCR §15409(a)(1): 28.5 g of non-concentrated cannabis a day',
  ),
  row(
    '00000000-0000-4000-8c00-000000000009',
    'limit_adult_concentrate_g',
    8,
    '2018-01-01',
    '4 CCR §15409(a)(2): 8 g of concentrate a day, including concentrate in products',
  ),
  row(
    '00000000-0000-4000-8c00-00000000000a',
    'limit_medical_flower_g',
    226.8,
    '2018-01-01',
    '4 CCR §15409(b)(1): 8 oz of dried flower a day (more when the recommendation says so)',
  ),
  row(
    '00000000-0000-4000-8c00-00000000000b',
    'limit_medical_concentrate_g',
    8,
    '2018-01-01',
    'Stricter reading: §15409(b) counts concentrate by a plant conversion the state never set, so the adult-use 8 g applies',
  ),
  row(
    '00000000-0000-4000-8c00-00000000000c',
    'handoff_hours_start',
    6,
    '2018-01-01',
    '4 CCR §15403: sales and deliveries only between 6:00 a.m. and 10:00 p.m. Pacific Time',
  ),
  row(
    '00000000-0000-4000-8c00-00000000000d',
    'handoff_hours_end',
    22,
    '2018-01-01',
    '4 CCR §15403: sales and deliveries only between 6:00 a.m. and 10:00 p.m. Pacific Time',
  ),
  row(
    '00000000-0000-4000-8c00-00000000000e',
    'driver_load_cap',
    5000,
    '2019-01-16',
    '4 CCR §15418(a): at most $5,000 of cannabis goods in the delivery vehicle at any time',
  ),
]
