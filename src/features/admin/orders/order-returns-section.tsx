import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { formatMoney } from '../../../lib/money'
import { Button } from '../../../ui/button'
import { errorBox, fieldError, muted, sectionTitle, table } from '../components/admin-styles'
import { PlainCheckbox } from '../components/plain-checkbox'
import { TextField } from '../components/text-field'
import { useOnline } from '../hooks/use-online'
import {
  checkReturnForm,
  fetchOrderReturns,
  recordReturn,
  type OrderReturns,
  type ReturnFormValues,
} from './order-returns'

const emptyForm: ReturnFormValues = { lines: {}, reason: '', refund: '' }

/**
 * A completed order's returns (docs/decisions/054-metrc-sales-export.md): those recorded, and "Record return" — which lines
 * and how many came back, why, and the money given back. Returned cannabis is held for
 * destruction, never back on sale; merchandise goes back to stock when "Back to stock" is ticked.
 */
export function OrderReturnsSection({
  orderId,
  supabase,
}: {
  orderId: string
  supabase: SupabaseClient | null
}) {
  const online = useOnline()
  const [data, setData] = useState<OrderReturns | null>(null)
  const [refresh, setRefresh] = useState(0)
  const [open, setOpen] = useState(false)
  const [form, setForm] = useState<ReturnFormValues>(emptyForm)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | undefined>()
  const [saved, setSaved] = useState<string | undefined>()
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    if (!supabase || !online) return
    let current = true
    fetchOrderReturns(supabase, orderId)
      .then((answer) => current && setData(answer))
      .catch((e: unknown) => current && setFailure(e instanceof Error ? e.message : String(e)))
    return () => {
      current = false
    }
  }, [supabase, online, orderId, refresh])

  const setLine = (itemId: string, change: Partial<{ quantity: string; restock: boolean }>) =>
    setForm((f) => ({
      ...f,
      lines: {
        ...f.lines,
        [itemId]: { quantity: '', restock: false, ...f.lines[itemId], ...change },
      },
    }))

  const submit = async () => {
    if (!supabase || !data) return
    const checked = checkReturnForm(form, data.returnable, data.refundable)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setErrors({})
    setFailure(undefined)
    setSaving(true)
    try {
      const answer = await recordReturn(supabase, orderId, checked.request)
      setSaved(
        answer.fullRefund
          ? 'Return recorded. Refunded in full: its taxes come off the tax report.'
          : `Return recorded. The refund is less than the full price with taxes (${formatMoney(answer.fullPrice)}): the tax report deducts nothing for it.`,
      )
      setOpen(false)
      setForm(emptyForm)
      setRefresh((n) => n + 1)
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e))
    } finally {
      setSaving(false)
    }
  }

  return (
    <section aria-labelledby={`returns-${orderId}`}>
      <h3 id={`returns-${orderId}`} className={sectionTitle}>
        Returns
      </h3>
      {!online || !supabase ? (
        <p className={muted}>Returns need a connection to the server.</p>
      ) : (
        <div className={css({ display: 'grid', gap: '3' })}>
          {data && data.returns.length === 0 && <p className={muted}>No returns.</p>}
          {data?.returns.map((r) => (
            <p key={r.id} className={css({ fontSize: 'sm' })}>
              {new Date(r.returnedAt).toLocaleString()}:{' '}
              {r.lines
                .map(
                  (l) =>
                    `${l.quantity} × ${l.name}${l.isCannabis ? ' (held for destruction)' : l.restocked ? ' (back to stock)' : ''}`,
                )
                .join(', ')}
              {' — '}
              {r.reason}; refunded {formatMoney(r.refund)}
            </p>
          ))}
          {saved && (
            <p role="status" className={muted}>
              {saved}
            </p>
          )}
          {failure && (
            <p role="alert" className={errorBox}>
              {failure}
            </p>
          )}
          {!open ? (
            <div>
              <Button
                variant="outline"
                size="sm"
                disabled={!data || data.returnable.every((l) => l.returnable === 0)}
                onClick={() => {
                  setOpen(true)
                  setSaved(undefined)
                }}
              >
                Record return
              </Button>
            </div>
          ) : (
            data && (
              <form
                aria-label="Record return"
                className={css({ display: 'grid', gap: '3' })}
                onSubmit={(e) => {
                  e.preventDefault()
                  void submit()
                }}
              >
                <table className={table}>
                  <thead>
                    <tr>
                      <th>Product</th>
                      <th>Can come back</th>
                      <th>Returned</th>
                      <th>Then</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.returnable.map((line) => (
                      <tr key={line.itemId}>
                        <td>{line.name}</td>
                        <td>{line.returnable}</td>
                        <td>
                          <TextField
                            label={`Quantity of ${line.name} returned`}
                            type="number"
                            inputMode="numeric"
                            min={0}
                            max={line.returnable}
                            step="1"
                            value={form.lines[line.itemId]?.quantity ?? ''}
                            onValueChange={(quantity) => setLine(line.itemId, { quantity })}
                            error={errors[`line-${line.itemId}`]}
                            disabled={line.returnable === 0}
                          />
                        </td>
                        <td>
                          {line.isCannabis ? (
                            <span className={muted}>Held for destruction</span>
                          ) : (
                            <PlainCheckbox
                              checked={form.lines[line.itemId]?.restock ?? false}
                              onCheckedChange={(restock) => setLine(line.itemId, { restock })}
                            >
                              Back to stock
                            </PlainCheckbox>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {errors.lines && <p className={fieldError}>{errors.lines}</p>}
                <TextField
                  label="Reason"
                  value={form.reason}
                  onValueChange={(reason) => setForm((f) => ({ ...f, reason }))}
                  error={errors.reason}
                />
                <TextField
                  label={`Money given back (at most ${formatMoney(data.refundable)})`}
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step="0.01"
                  value={form.refund}
                  onValueChange={(refund) => setForm((f) => ({ ...f, refund }))}
                  error={errors.refund}
                />
                <div className={cx(css({ display: 'flex', gap: '2' }))}>
                  <Button type="submit" disabled={saving}>
                    {saving ? 'Recording…' : 'Save return'}
                  </Button>
                  <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                    Cancel
                  </Button>
                </div>
              </form>
            )
          )}
        </div>
      )}
    </section>
  )
}
