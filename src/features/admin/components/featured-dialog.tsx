import type { SupabaseClient } from '@supabase/supabase-js'
import { useMemo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { PanelDialog } from '../../../ui/panel-dialog'
import { Switch } from '../../../ui/switch'
import { toaster } from '../../../ui/toaster'
import { saveProduct } from '../admin-api'
import { searchProducts, type AdminProductRow } from '../admin-product'
import { muted } from './admin-styles'

type Props = {
  open: boolean
  onClose: () => void
  supabase: SupabaseClient | null
  rows: AdminProductRow[]
  onSaved: () => void
}

/** Manage Featured Products: the featured ones first, a switch per product. */
export function FeaturedDialog({ open, onClose, supabase, rows, onSaved }: Props) {
  const [query, setQuery] = useState('')
  const [pending, setPending] = useState<Record<string, boolean>>({})
  const shown = useMemo(
    () =>
      searchProducts(rows, query).sort(
        (a, b) => Number(b.is_featured) - Number(a.is_featured) || a.name.localeCompare(b.name),
      ),
    [rows, query],
  )
  const featuredCount = rows.filter((r) => pending[r.id] ?? r.is_featured).length

  const toggle = async (row: AdminProductRow, on: boolean) => {
    if (!supabase) return
    setPending((p) => ({ ...p, [row.id]: on }))
    try {
      await saveProduct(supabase, { id: row.id, is_featured: on })
      toaster.create({
        type: 'success',
        title: on ? `${row.name} is featured` : `${row.name} is no longer featured`,
      })
      onSaved()
    } catch (e) {
      setPending((p) => ({ ...p, [row.id]: row.is_featured }))
      toaster.create({
        type: 'error',
        title: 'Error updating product',
        description: e instanceof Error ? e.message : String(e),
      })
    }
  }

  return (
    <PanelDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      title="Manage Featured Products"
      description={`${featuredCount} featured products show the Featured badge and lead the home page.`}
    >
      <input
        type="search"
        placeholder="Search products..."
        aria-label="Search products to feature"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className={cx(input(), css({ mb: '3' }))}
      />
      <ul className={css({ display: 'grid', gap: '2', maxH: '96', overflowY: 'auto' })}>
        {shown.map((row) => (
          <li
            key={row.id}
            className={css({
              alignItems: 'center',
              display: 'flex',
              gap: '3',
              justifyContent: 'space-between',
            })}
          >
            <span>
              {row.name} <span className={muted}>{row.sku}</span>
            </span>
            <Switch
              label={<span className={css({ srOnly: true })}>Feature {row.name}</span>}
              checked={pending[row.id] ?? row.is_featured}
              onCheckedChange={(on) => void toggle(row, on)}
            />
          </li>
        ))}
      </ul>
    </PanelDialog>
  )
}
