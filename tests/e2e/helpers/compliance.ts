import type { SupabaseClient } from '@supabase/supabase-js'
import { computeTaxes } from '../../../src/lib/california-tax'
import {
  shopDate,
  taxRatesOn,
  type ComplianceRule,
  type CustomerKind,
} from '../../../src/lib/compliance-rules'
import { roundMoney } from '../../../src/lib/money'

type RuleRow = {
  id: string
  rule: ComplianceRule['rule']
  value: number | string
  effective_from: string
  passed_on: boolean
  label: string | null
  source: string | null
}

/** The shop's tax rates and daily limits as the server holds them (docs/decisions/051-california-taxes-and-daily-limits.md). */
export async function rulesOnServer(admin: SupabaseClient): Promise<ComplianceRule[]> {
  const { data, error } = await admin.from('compliance_rules').select('*').returns<RuleRow[]>()
  if (error) throw error
  return data.map((r) => ({
    id: r.id,
    rule: r.rule,
    value: Number(r.value),
    effectiveFrom: r.effective_from,
    passedOn: r.passed_on,
    label: r.label,
    source: r.source,
  }))
}

/**
 * Deletes the rules entered for today or later by a spec (admin_delete_compliance_rule), so the
 * specs after it find the shop's own rates.
 */
export async function deleteRulesFromToday(
  admin: SupabaseClient,
  rules: readonly ComplianceRule['rule'][],
): Promise<void> {
  const today = shopDate()
  for (const row of await rulesOnServer(admin)) {
    if (!rules.includes(row.rule) || row.effectiveFrom < today) continue
    const { error } = await admin.rpc('admin_delete_compliance_rule', { p_id: row.id })
    if (error) throw error
  }
}

/** What an order of cannabis costs today with the server's rules: its taxes and total. */
export function expectedTotals(
  rules: readonly ComplianceRule[],
  order: { cannabis: number; deliveryFee: number; kind?: CustomerKind; exempt?: boolean },
) {
  const taxes = computeTaxes(
    {
      cannabis: order.cannabis,
      other: 0,
      deliveryFee: order.deliveryFee,
      salesTaxExempt: order.exempt === true,
    },
    taxRatesOn(rules, shopDate(), order.kind ?? 'adult'),
  )
  return { ...taxes, total: roundMoney(order.cannabis + order.deliveryFee + taxes.tax) }
}
