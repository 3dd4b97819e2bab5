/**
 * Returns of a completed order (issue 32, docs/decisions/054-metrc-sales-export.md): what can still come back
 * (`admin_order_returns`), the return form's check, and the record (`admin_record_return`). The
 * server decides (quantities, refund, cannabis never back to stock); the form says the same first.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import * as v from 'valibot'
import { AdminApiError } from '../admin-api'

export type ReturnableLine = {
  itemId: string
  name: string
  isCannabis: boolean
  sold: number
  returnable: number
}

export type RecordedReturn = {
  id: string
  reason: string
  refund: number
  fullRefund: boolean
  returnedAt: string
  recordedBy: string | null
  lines: {
    itemId: string
    name: string
    quantity: number
    isCannabis: boolean
    restocked: boolean
  }[]
}

export type OrderReturns = {
  returns: RecordedReturn[]
  returnable: ReturnableLine[]
  /** What the customer paid less the refunds already given. */
  refundable: number
}

const num = (value: unknown) => (typeof value === 'number' ? value : Number(value) || 0)

export async function fetchOrderReturns(
  supabase: SupabaseClient,
  orderId: string,
): Promise<OrderReturns> {
  const response = await supabase.rpc('admin_order_returns', { p_order: orderId })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  const data = (response.data ?? {}) as Partial<OrderReturns>
  return {
    returns: Array.isArray(data.returns) ? data.returns : [],
    returnable: Array.isArray(data.returnable) ? data.returnable : [],
    refundable: num(data.refundable),
  }
}

/** The form as it holds text: per line how many came back and whether it goes back to stock. */
export type ReturnFormValues = {
  lines: Record<string, { quantity: string; restock: boolean }>
  reason: string
  refund: string
}

export type ReturnRequest = {
  lines: { itemId: string; quantity: number; restock: boolean }[]
  reason: string
  refund: number
}

const money = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('Enter the money given back (0 if none)'),
  v.transform(Number),
  v.number('Enter an amount like 12.50'),
  v.minValue(0, 'The refund cannot be negative'),
  v.check((n) => Math.round(n * 100) === n * 100, 'Dollars and cents only (like 12.50)'),
)

/** Checks the form against what can come back; errors keyed by field ('lines' for the lines). */
export function checkReturnForm(
  values: ReturnFormValues,
  returnable: readonly ReturnableLine[],
  refundable: number,
): { ok: true; request: ReturnRequest } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  const lines: ReturnRequest['lines'] = []
  for (const line of returnable) {
    const entry = values.lines[line.itemId]
    const text = entry?.quantity.trim() ?? ''
    if (text === '' || text === '0') continue
    const n = Number(text)
    if (!Number.isInteger(n) || n < 1 || n > line.returnable) {
      errors[`line-${line.itemId}`] =
        line.returnable === 0
          ? `${line.name} has already come back in full`
          : `${line.name}: 1 to ${line.returnable}`
      continue
    }
    lines.push({
      itemId: line.itemId,
      quantity: n,
      restock: !line.isCannabis && Boolean(entry?.restock),
    })
  }
  if (lines.length === 0 && Object.keys(errors).length === 0)
    errors.lines = 'Say how many of at least one line came back'
  const reason = values.reason.trim()
  if (reason === '') errors.reason = 'Say why the goods came back'
  else if (reason.length > 500) errors.reason = 'At most 500 characters'
  const refund = v.safeParse(money, values.refund)
  if (!refund.success) errors.refund = refund.issues[0].message
  else if (refund.output > refundable + 1e-9)
    errors.refund = `At most ${refundable.toFixed(2)}: what the customer paid less earlier refunds`
  if (Object.keys(errors).length > 0 || !refund.success) return { ok: false, errors }
  return { ok: true, request: { lines, reason, refund: refund.output } }
}

export async function recordReturn(
  supabase: SupabaseClient,
  orderId: string,
  request: ReturnRequest,
): Promise<{ fullRefund: boolean; fullPrice: number }> {
  const response = await supabase.rpc('admin_record_return', {
    p_order: orderId,
    p_lines: request.lines,
    p_reason: request.reason,
    p_refund: request.refund,
  })
  if (response.error) throw new AdminApiError(response.error.message, response.error.code)
  const data = (response.data ?? {}) as { fullRefund?: boolean; fullPrice?: number }
  return { fullRefund: data.fullRefund === true, fullPrice: num(data.fullPrice) }
}
