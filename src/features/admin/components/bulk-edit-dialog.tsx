import type { SupabaseClient } from '@supabase/supabase-js'
import { useMemo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { formatMoney } from '../../../lib/money'
import { Button } from '../../../ui/button'
import { Checkbox } from '../../../ui/checkbox'
import { PanelDialog } from '../../../ui/panel-dialog'
import { SelectField } from '../../../ui/select'
import { toaster } from '../../../ui/toaster'
import { importProducts, isConnectionError, OFFLINE_SAVE_MESSAGE } from '../admin-api'
import { searchProducts, type AdminProductRow, type SaveProductPayload } from '../admin-product'
import { muted, table } from './admin-styles'

type Props = {
  open: boolean
  onClose: () => void
  supabase: SupabaseClient | null
  rows: AdminProductRow[]
  onSaved: () => void
}

type Field = 'price' | 'stock' | 'sale' | 'featured' | 'active'
const FIELDS = [
  { value: 'price', label: 'Set price' },
  { value: 'stock', label: 'Set stock quantity' },
  { value: 'sale', label: 'Set on sale' },
  { value: 'featured', label: 'Set featured' },
  { value: 'active', label: 'Set active' },
] as const
const YES_NO = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const

/** Bulk Edit Products: one change applied to a selection of products, all or none. */
export function BulkEditDialog({ open, onClose, supabase, rows, onSaved }: Props) {
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState<string[]>([])
  const [field, setField] = useState<Field>('price')
  const [amount, setAmount] = useState('')
  const [flag, setFlag] = useState<'yes' | 'no'>('yes')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const shown = useMemo(() => searchProducts(rows, query), [rows, query])

  const change = (): Partial<SaveProductPayload> | string => {
    if (field === 'price' || field === 'stock') {
      const n = Number(amount)
      if (amount.trim() === '' || !Number.isFinite(n) || n < 0)
        return 'Enter a number of at least 0'
      if (field === 'stock' && !Number.isInteger(n)) return 'Stock must be a whole number'
      return field === 'price'
        ? { price: n === 0 ? null : n }
        : { quantity_available: n, is_unlimited_quantity: false }
    }
    const on = flag === 'yes'
    return field === 'sale'
      ? { is_on_sale: on }
      : field === 'featured'
        ? { is_featured: on }
        : { is_active: on }
  }

  const apply = async () => {
    const patch = change()
    if (typeof patch === 'string') return setError(patch)
    if (!selected.length) return setError('Select at least one product')
    if (!supabase || !navigator.onLine) return setError(OFFLINE_SAVE_MESSAGE)
    setError(null)
    setBusy(true)
    try {
      // One transaction: every selected product changes, or none does.
      const { count } = await importProducts(
        supabase,
        selected.map((id) => ({ id, ...patch })),
      )
      toaster.create({
        type: 'success',
        title: `Updated ${count} product${count === 1 ? '' : 's'}`,
      })
      setSelected([])
      onSaved()
      onClose()
    } catch (e) {
      if (isConnectionError(e)) return setError(OFFLINE_SAVE_MESSAGE)
      const message = e instanceof Error ? e.message : String(e)
      setError(`No product was changed. ${message}`)
    } finally {
      setBusy(false)
    }
  }

  const allShown = shown.length > 0 && shown.every((r) => selected.includes(r.id))

  return (
    <PanelDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      size="xl"
      title="Bulk Edit Products"
      description="Choose products, then one change to apply to all of them."
    >
      <div className={css({ display: 'grid', gap: '4' })}>
        <div
          className={css({
            alignItems: 'end',
            display: 'grid',
            gap: '3',
            gridTemplateColumns: { base: '1fr', md: '1fr 1fr auto' },
          })}
        >
          <SelectField
            label="Change"
            options={FIELDS}
            value={field}
            onValueChange={(v) => setField(v)}
          />
          {field === 'price' || field === 'stock' ? (
            <label className={css({ display: 'grid', fontSize: 'sm', gap: '1' })}>
              {field === 'price' ? 'New price ($)' : 'New stock quantity'}
              <input
                type="number"
                min={0}
                step={field === 'price' ? '0.01' : '1'}
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                className={input()}
              />
            </label>
          ) : (
            <SelectField
              label="Value"
              options={YES_NO}
              value={flag}
              onValueChange={(v) => setFlag(v)}
            />
          )}
          <Button onClick={() => void apply()} disabled={busy}>
            {busy ? 'Applying...' : `Apply to ${selected.length} selected`}
          </Button>
        </div>
        {error && (
          <p role="alert" className={css({ color: 'danger.fg', fontSize: 'sm' })}>
            {error}
          </p>
        )}
        <input
          type="search"
          placeholder="Search products..."
          aria-label="Search products to edit"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className={cx(input(), css({ maxW: 'sm' }))}
        />
        <div className={css({ maxH: '80', overflowY: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>
                  <Checkbox
                    label={<span className={css({ srOnly: true })}>Select all shown</span>}
                    checked={allShown}
                    onCheckedChange={(on) =>
                      setSelected((s) =>
                        on
                          ? [...new Set([...s, ...shown.map((r) => r.id)])]
                          : s.filter((id) => !shown.some((r) => r.id === id)),
                      )
                    }
                  />
                </th>
                <th>Product</th>
                <th>Price</th>
                <th>Stock</th>
                <th>Flags</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.id}>
                  <td>
                    <Checkbox
                      label={<span className={css({ srOnly: true })}>Select {row.name}</span>}
                      checked={selected.includes(row.id)}
                      onCheckedChange={(on) =>
                        setSelected((s) => (on ? [...s, row.id] : s.filter((id) => id !== row.id)))
                      }
                    />
                  </td>
                  <td>
                    {row.name} <span className={muted}>{row.sku}</span>
                  </td>
                  <td>{formatMoney(row.price)}</td>
                  <td>{row.is_unlimited_quantity ? 'Unlimited' : (row.quantity_available ?? 0)}</td>
                  <td className={muted}>
                    {[
                      row.is_active ? 'active' : 'inactive',
                      row.is_on_sale && 'on sale',
                      row.is_featured && 'featured',
                    ]
                      .filter(Boolean)
                      .join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </PanelDialog>
  )
}
