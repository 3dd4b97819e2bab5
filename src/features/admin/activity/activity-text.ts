/**
 * The audit trail in words, for the Activity list and its CSV: what happened, and what a change
 * was and became, field by field.
 */
import { toCsv } from '../admin-csv'
import { shopDateTime } from '../admin-time'
import type { ActivityEntry } from './activity-api'

const ACTIONS: Record<string, string> = {
  'order.status': 'Order status changed',
  'order.handoff': 'Order handed over',
  'order.driver': 'Driver assigned',
  'order.update': 'Order details changed',
  'product.create': 'Product created',
  'product.update': 'Product changed',
  'product.price': 'Price changed',
  'product.stock': 'Stock changed',
  'product.delete': 'Product deleted',
  'product.restore': 'Product restored',
  'settings.update': 'Settings changed',
  'compliance_rule.create': 'Tax or limit rule added',
  'compliance_rule.update': 'Tax or limit rule changed',
  'compliance_rule.delete': 'Tax or limit rule removed',
  'staff.role': 'Role changed',
  'invitation.create': 'Invitation created',
  'invitation.use': 'Invitation used',
  'invitation.revoke': 'Invitation revoked',
  'review.hide': 'Review hidden',
  'review.show': 'Review shown again',
}

export function actionLabel(action: string): string {
  return ACTIONS[action] ?? action
}

/** Who did it: their email and role, or the shop's own jobs. */
export function actorLabel(entry: ActivityEntry): string {
  if (!entry.actorId) return 'The shop (automatic)'
  const who = entry.actorEmail ?? entry.actorId
  return entry.actorRole ? `${who} (${entry.actorRole})` : who
}

const value = (v: unknown): string => {
  if (v === null || v === undefined) return '—'
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return JSON.stringify(v)
}

/** "price: 30 → 35; name: Old → New", each field that changed (or was set, or removed). */
export function changeText(entry: ActivityEntry): string {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])]
  return keys
    .map((key) => {
      const had = entry.before && key in entry.before
      const has = entry.after && key in entry.after
      if (had && has) return `${key}: ${value(entry.before![key])} → ${value(entry.after![key])}`
      if (has) return `${key}: ${value(entry.after![key])}`
      return `${key}: ${value(entry.before![key])} → removed`
    })
    .join('; ')
}

export const ACTIVITY_CSV_COLUMNS = [
  'at',
  'at_shop_time',
  'actor_email',
  'actor_role',
  'actor_id',
  'action',
  'what',
  'entity',
  'entity_id',
  'before',
  'after',
] as const

/** The trail as a CSV (the project's cell rules: no cell goes out as a formula). */
export function activityToCsv(entries: readonly ActivityEntry[]): string {
  return toCsv(
    ACTIVITY_CSV_COLUMNS,
    entries.map((e) => [
      e.at,
      shopDateTime(e.at),
      e.actorEmail,
      e.actorRole,
      e.actorId,
      e.action,
      actionLabel(e.action),
      e.entity,
      e.entityId,
      e.before ? JSON.stringify(e.before) : '',
      e.after ? JSON.stringify(e.after) : '',
    ]),
  )
}
