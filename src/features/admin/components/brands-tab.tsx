import type { SupabaseClient } from '@supabase/supabase-js'
import { useMemo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import { deleteReference } from '../admin-api'
import type { AdminProductRow } from '../admin-product'
import { useReferenceLists } from '../hooks/use-admin-data'
import { card, iconButton, muted, table } from './admin-styles'
import { ConfirmDialog } from './confirm-dialog'
import { ReferenceFormDialog, type ReferenceInitial } from './reference-form-dialog'
import { EditIcon, TrashIcon } from '../../../ui/icons'

type Props = {
  supabase: SupabaseClient | null
  products: AdminProductRow[] | null
  onChanged: () => void
}

type Brand = ReturnType<typeof useReferenceLists>['brands'][number]

/** Brand management (DESIGN.md §8: real, not a placeholder): list, create, edit, delete. */
export function BrandsTab({ supabase, products, onChanged }: Props) {
  const { brands } = useReferenceLists()
  const [query, setQuery] = useState('')
  const [editing, setEditing] = useState<ReferenceInitial | null>(null)
  const [creating, setCreating] = useState(false)
  const [deleting, setDeleting] = useState<Brand | null>(null)
  const [busy, setBusy] = useState(false)
  const [gone, setGone] = useState<string[]>([])

  const counts = useMemo(() => {
    const map = new Map<string, number>()
    for (const p of products ?? [])
      if (p.brand_id) map.set(p.brand_id, (map.get(p.brand_id) ?? 0) + 1)
    return map
  }, [products])
  const shown = brands
    .filter((b) => !gone.includes(b.id))
    .filter((b) => b.name.toLowerCase().includes(query.trim().toLowerCase()))

  const confirmDelete = async () => {
    if (!deleting || !supabase) return
    setBusy(true)
    try {
      await deleteReference(supabase, 'brand', deleting.id)
      setGone((g) => [...g, deleting.id])
      toaster.create({ type: 'success', title: 'Brand deleted successfully!' })
      onChanged()
    } catch (e) {
      toaster.create({
        type: 'error',
        title: 'Error deleting brand',
        description: e instanceof Error ? e.message : String(e),
      })
    } finally {
      setDeleting(null)
      setBusy(false)
    }
  }

  return (
    <section className={cx(card, css({ p: '5' }))} aria-label="Brand management">
      <div
        className={css({
          alignItems: 'center',
          display: 'flex',
          flexWrap: 'wrap',
          gap: '3',
          justifyContent: 'space-between',
          mb: '4',
        })}
      >
        <input
          type="search"
          placeholder="Search brands..."
          aria-label="Search brands"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className={cx(input(), css({ maxW: 'sm' }))}
        />
        <Button onClick={() => setCreating(true)}>+ Add Brand</Button>
      </div>
      <div className={css({ overflowX: 'auto' })}>
        <table className={table}>
          <thead>
            <tr>
              <th>Logo</th>
              <th>Brand</th>
              <th>Founded</th>
              <th>Products</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 && (
              <tr>
                <td colSpan={5} className={cx(muted, css({ textAlign: 'center', py: '8!' }))}>
                  No brands found
                </td>
              </tr>
            )}
            {shown.map((brand) => (
              <tr key={brand.id} data-testid="brand-row">
                <td>
                  {brand.logoUrl ? (
                    <img
                      src={brand.logoUrl}
                      alt={`${brand.name} logo`}
                      className={css({
                        bg: 'bg.muted',
                        borderRadius: 'md',
                        h: '10',
                        objectFit: 'contain',
                        w: '10',
                      })}
                    />
                  ) : (
                    <span
                      aria-hidden
                      className={css({
                        alignItems: 'center',
                        bg: 'accent.subtle',
                        borderRadius: 'md',
                        color: 'accent.fg',
                        display: 'inline-flex',
                        fontWeight: 'bold',
                        h: '10',
                        justifyContent: 'center',
                        w: '10',
                      })}
                    >
                      {brand.name.charAt(0)}
                    </span>
                  )}
                </td>
                <td>
                  <div className={css({ fontWeight: 'medium' })}>{brand.name}</div>
                  {brand.description && (
                    <div className={css({ color: 'fg.muted', fontSize: 'xs', maxW: 'md' })}>
                      {brand.description}
                    </div>
                  )}
                </td>
                <td>{brand.foundedYear ?? '—'}</td>
                <td>{products ? (counts.get(brand.id) ?? 0) : '…'}</td>
                <td>
                  <div className={css({ display: 'flex', gap: '1' })}>
                    <button
                      type="button"
                      className={iconButton}
                      aria-label={`Edit ${brand.name}`}
                      onClick={() =>
                        setEditing({
                          id: brand.id,
                          name: brand.name,
                          description: brand.description ?? '',
                          founded_year: brand.foundedYear ? String(brand.foundedYear) : '',
                          logo_url: brand.logoUrl ?? '',
                        })
                      }
                    >
                      <EditIcon size={16} />
                    </button>
                    <button
                      type="button"
                      className={iconButton}
                      aria-label={`Delete ${brand.name}`}
                      onClick={() => setDeleting(brand)}
                    >
                      <TrashIcon size={16} />
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ReferenceFormDialog
        kind="brand"
        open={creating || editing !== null}
        initial={editing}
        supabase={supabase}
        onClose={() => {
          setCreating(false)
          setEditing(null)
        }}
        onSaved={onChanged}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Are you sure?"
        description={`This action cannot be undone. This will permanently delete the brand "${deleting?.name ?? ''}" from the system.`}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </section>
  )
}
