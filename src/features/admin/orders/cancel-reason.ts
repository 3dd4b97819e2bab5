/**
 * Why an order is cancelled (issue 32, docs/decisions/055-delivery-by-the-rules.md): one of the usual reasons or staff's own
 * words. The shopper reads it on their order page; set_order_status refuses a cancel without one
 * or with more than 200 characters (cancel_reason_required), which this says beforehand.
 */
export const MAX_CANCEL_REASON = 200
export const OTHER_REASON = 'Other'

export function cancelReasonOf(
  choice: string,
  other: string,
): { ok: true; reason: string } | { ok: false; error: string } {
  if (!choice) return { ok: false, error: 'Choose why the order is cancelled' }
  const reason = (choice === OTHER_REASON ? other : choice).trim()
  if (!reason) return { ok: false, error: 'Say why the order is cancelled' }
  if (reason.length > MAX_CANCEL_REASON)
    return { ok: false, error: `A reason has at most ${MAX_CANCEL_REASON} characters` }
  return { ok: true, reason }
}
