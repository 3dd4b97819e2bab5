/**
 * The shop settings' wire row (`pull_shop_settings`, `admin_save_shop_settings`'s answer) as the
 * device document: the money rules, the facts, hours and pickup rules (./shop-settings-row.ts's
 * checks) and California's rules with their dates (docs/decisions/051-california-taxes-and-daily-limits.md). Only the replication and the
 * admin's save write the document, so this is not part of what every page loads.
 */
import type { WithDeleted } from 'rxdb'
import type { ComplianceRule } from '../../lib/compliance-rules'
import { DEFAULT_MONEY_RULES } from '../../lib/money'
import { DEFAULT_PICKUP_RULES } from '../../lib/shop-hours'
import {
  DEFAULT_UNACCEPTED_ORDER_HOURS,
  type ShopSettingsDoc,
} from '../schemas/shop-settings.schema'
import {
  amount,
  completeFacts,
  minutesOr,
  openingHoursOf,
  type ShopSettingsRow,
} from './shop-settings-row'

type RuleRow = ComplianceRule

const DAY = /^\d{4}-\d{2}-\d{2}$/

function ruleRowOf(value: unknown): RuleRow | null {
  if (!value || typeof value !== 'object') return null
  const r = value as Record<string, unknown>
  const number = typeof r.value === 'string' ? Number(r.value) : r.value
  // A rule this device does not know (a newer server's) is kept but never looked up: whoever
  // computes asks for the rules it knows by name (ruleOn).
  if (typeof r.id !== 'string' || typeof r.rule !== 'string' || r.rule.length > 40) return null
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) return null
  if (typeof r.effectiveFrom !== 'string' || !DAY.test(r.effectiveFrom)) return null
  return {
    id: r.id,
    // An unknown name stays inert (see above).
    rule: r.rule as ComplianceRule['rule'],
    value: number,
    effectiveFrom: r.effectiveFrom,
    passedOn: r.passedOn === true,
    label: typeof r.label === 'string' ? r.label : null,
    source: typeof r.source === 'string' ? r.source : null,
  }
}

/**
 * The shop's rules; a server from before them sends none (whoever computes falls back on the
 * built-in ones, src/lib/compliance-defaults.ts). Rows that do not read are left out rather than
 * guessed.
 */
export function complianceRulesOf(value: unknown): RuleRow[] {
  if (!Array.isArray(value)) return []
  return value.map(ruleRowOf).filter((rule): rule is RuleRow => rule !== null)
}

export function shopSettingsRowToDoc(row: ShopSettingsRow): WithDeleted<ShopSettingsDoc> {
  const d = DEFAULT_MONEY_RULES
  return {
    id: row.id,
    // The old single rate, still in the schema; nothing computes with it (docs/decisions/051-california-taxes-and-daily-limits.md).
    taxRate: Math.min(amount(row.tax_rate, 0), 1),
    standardShipping: amount(row.standard_shipping, d.standardShipping),
    expressDelivery: amount(row.express_delivery, d.expressDelivery),
    freeShippingThreshold: amount(row.free_shipping_threshold, d.freeShippingThreshold),
    facts: completeFacts(row.facts),
    openingHours: openingHoursOf(row.opening_hours),
    // A day at most: a longer preparation or window offers no window at all.
    pickupPrepMinutes: minutesOr(
      row.pickup_prep_minutes,
      DEFAULT_PICKUP_RULES.prepMinutes,
      0,
      1440,
    ),
    pickupSlotMinutes: minutesOr(
      row.pickup_slot_minutes,
      DEFAULT_PICKUP_RULES.slotMinutes,
      5,
      1440,
    ),
    orderEmails: row.order_emails === true,
    unacceptedOrderHours: minutesOr(
      row.unaccepted_order_hours,
      DEFAULT_UNACCEPTED_ORDER_HOURS,
      1,
      168,
    ),
    complianceRules: complianceRulesOf(row.compliance_rules),
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}
