import type { SupabaseClient } from '@supabase/supabase-js'
import { useMemo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { badge, input } from 'styled-system/recipes'
import { useMediaUrl } from '../../../data/hooks/use-media-url'
import { formatMoney } from '../../../lib/money'
import { Button } from '../../../ui/button'
import { Skeleton } from '../../../ui/skeleton'
import { toaster } from '../../../ui/toaster'
import { deleteProduct, isConnectionError } from '../admin-api'
import {
  primaryMedia,
  searchProducts,
  sortProducts,
  stockLevel,
  type AdminProductRow,
  type ProductSortKey,
} from '../admin-product'
import type { AdminProductsState } from '../hooks/use-admin-products'
import { card, iconButton, muted, table } from './admin-styles'
import { ConfirmDialog } from './confirm-dialog'
import { EditIcon, TrashIcon } from '../../../ui/icons'

type Props = {
  supabase: SupabaseClient | null
  products: AdminProductsState
  onAdd: () => void
  onEdit: (row: AdminProductRow) => void
  /** A budtender reads the catalogue without changing it (issue 32): no add, edit or delete. */
  readOnly?: boolean
}

const PAGE_SIZE = 12

function Thumb({ row }: { row: AdminProductRow }) {
  const media = primaryMedia(row)
  const url = useMediaUrl(media?.media_type === 'image' ? media.media_url : null)
  const videoUrl = useMediaUrl(media?.media_type === 'video' ? media.media_url : null)
  const box = css({ bg: 'bg.muted', borderRadius: 'md', h: '12', objectFit: 'cover', w: '12' })
  if (media?.media_type === 'video') {
    return (
      <video
        src={`${videoUrl}#t=0.001`}
        muted
        preload="metadata"
        className={box}
        aria-label={row.name}
      />
    )
  }
  return (
    <img
      src={url}
      alt={row.name}
      loading="lazy"
      className={box}
      onError={(e) => {
        e.currentTarget.src = '/placeholder.svg'
      }}
    />
  )
}

function StockBadge({ row }: { row: AdminProductRow }) {
  const level = stockLevel(row)
  if (level === 'unlimited') return <span className={badge({ tone: 'accent' })}>Unlimited</span>
  if (level === 'out') return <span className={badge({ tone: 'danger' })}>Out of stock</span>
  return (
    <span className={badge({ tone: level === 'low' ? 'deal' : 'neutral' })}>
      {row.quantity_available} units
    </span>
  )
}

const one = (n: number | null) => (n ?? 0).toFixed(1)

/** Product management (SPEC.md §2): search, sort, the table, edit and delete. */
export function ProductsTab({ supabase, products, onAdd, onEdit, readOnly = false }: Props) {
  const [query, setQuery] = useState('')
  const [sort, setSort] = useState<{ key: ProductSortKey; direction: 'asc' | 'desc' } | null>(null)
  const [page, setPage] = useState(1)
  const [deleting, setDeleting] = useState<AdminProductRow | null>(null)
  const [busy, setBusy] = useState(false)

  const rows = useMemo(() => {
    const found = searchProducts(products.rows ?? [], query)
    return sort ? sortProducts(found, sort.key, sort.direction) : found
  }, [products.rows, query, sort])
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE))
  const shown = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)

  const sortBy = (key: ProductSortKey) =>
    setSort((s) => ({ key, direction: s?.key === key && s.direction === 'asc' ? 'desc' : 'asc' }))
  const sortHeader = (key: ProductSortKey, label: string) => (
    <th
      aria-sort={
        sort?.key === key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'
      }
    >
      <button
        type="button"
        onClick={() => sortBy(key)}
        className={css({
          cursor: 'pointer',
          textTransform: 'inherit',
          fontWeight: 'inherit',
          letterSpacing: 'inherit',
        })}
      >
        {label} {sort?.key === key ? (sort.direction === 'asc' ? '↑' : '↓') : '↕'}
      </button>
    </th>
  )

  const confirmDelete = async () => {
    if (!deleting || !supabase) return
    setBusy(true)
    try {
      await deleteProduct(supabase, deleting)
      toaster.create({ type: 'success', title: 'Product deleted successfully!' })
      setDeleting(null)
      products.reload()
    } catch (e) {
      toaster.create({
        type: 'error',
        title: 'Error deleting product',
        description: isConnectionError(e)
          ? 'You are offline. Deleting needs a connection to the server; try again once you are back online.'
          : e instanceof Error
            ? e.message
            : String(e),
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className={cx(card, css({ p: '5' }))} aria-label="Product management">
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
          placeholder="Search products..."
          aria-label="Search products"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setPage(1)
          }}
          className={cx(input(), css({ maxW: 'sm' }))}
        />
        {!readOnly && <Button onClick={onAdd}>+ Add Product</Button>}
      </div>
      {products.error && !products.rows ? (
        <p role="alert" className={css({ color: 'danger.fg' })}>
          Error loading products: {products.error}
        </p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>Image</th>
                {sortHeader('name', 'Product')}
                <th>Brand</th>
                <th>Category</th>
                {sortHeader('price', 'Price')}
                <th>THC/CBD</th>
                {sortHeader('quantity_available', 'Stock')}
                <th>Status</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {!products.rows &&
                Array.from({ length: 5 }, (_, i) => (
                  <tr key={i} data-testid="product-placeholder">
                    <td colSpan={9}>
                      <Skeleton className={css({ h: '10', w: 'full' })} />
                    </td>
                  </tr>
                ))}
              {products.rows && shown.length === 0 && (
                <tr>
                  <td colSpan={9} className={cx(muted, css({ py: '8!', textAlign: 'center' }))}>
                    No products found
                  </td>
                </tr>
              )}
              {shown.map((row) => (
                <tr
                  key={row.id}
                  data-testid="product-row"
                  data-inactive={row.is_active ? undefined : ''}
                  className={css({ '&[data-inactive] td:nth-child(-n+2)': { opacity: 0.6 } })}
                >
                  <td>
                    <Thumb row={row} />
                  </td>
                  <td>
                    <div className={css({ fontWeight: 'medium' })}>{row.name}</div>
                    <div className={css({ color: 'fg.subtle', fontSize: 'xs' })}>{row.sku}</div>
                  </td>
                  <td>{row.brand?.name ?? 'N/A'}</td>
                  <td>{row.category?.name ?? 'N/A'}</td>
                  <td>
                    <div>{formatMoney(row.price)}</div>
                    {row.original_price !== null && row.original_price > (row.price ?? 0) && (
                      <div
                        className={css({
                          color: 'fg.subtle',
                          fontSize: 'xs',
                          textDecoration: 'line-through',
                        })}
                      >
                        {formatMoney(row.original_price)}
                      </div>
                    )}
                  </td>
                  <td className={css({ whiteSpace: 'nowrap' })}>
                    {one(row.thc_percentage)}% / {one(row.cbd_percentage)}%
                  </td>
                  <td>
                    <StockBadge row={row} />
                  </td>
                  <td>
                    <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })}>
                      <span className={badge({ tone: row.is_on_sale ? 'deal' : 'neutral' })}>
                        {row.is_on_sale ? 'On Sale' : 'Regular'}
                      </span>
                      {row.is_featured && (
                        <span className={badge({ tone: 'accent' })}>Featured</span>
                      )}
                      {!row.is_active && (
                        <span
                          className={badge({ tone: 'danger' })}
                          title="Hidden from the shop until it is made active again"
                        >
                          Inactive
                        </span>
                      )}
                    </div>
                  </td>
                  <td>
                    <div className={css({ display: readOnly ? 'none' : 'flex', gap: '1' })}>
                      <button
                        type="button"
                        className={iconButton}
                        aria-label={`Edit ${row.name}`}
                        onClick={() => onEdit(row)}
                      >
                        <EditIcon size={16} />
                      </button>
                      <button
                        type="button"
                        className={iconButton}
                        aria-label={`Delete ${row.name}`}
                        onClick={() => setDeleting(row)}
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
      )}
      {products.rows && pages > 1 && (
        <nav
          aria-label="Product pages"
          className={css({
            alignItems: 'center',
            display: 'flex',
            gap: '3',
            justifyContent: 'flex-end',
            mt: '4',
          })}
        >
          <Button
            size="sm"
            variant="outline"
            disabled={page <= 1}
            onClick={() => setPage((p) => p - 1)}
          >
            Previous
          </Button>
          <span className={muted}>
            Page {page} of {pages} ({rows.length} products)
          </span>
          <Button
            size="sm"
            variant="outline"
            disabled={page >= pages}
            onClick={() => setPage((p) => p + 1)}
          >
            Next
          </Button>
        </nav>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Product"
        description="Are you sure you want to delete this product? This action cannot be undone."
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </section>
  )
}
