import type { SupabaseClient } from '@supabase/supabase-js'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { toaster } from '../../../ui/toaster'
import { saveProduct } from '../admin-api'
import { PRODUCT_CSV_COLUMNS, parseProductsCsv, type ImportRow } from '../admin-csv'
import type { AdminProductRow } from '../admin-product'
import { useReferenceLists } from '../hooks/use-admin-data'
import { errorBox, fieldLabel, muted, table } from './admin-styles'

type Props = {
  open: boolean
  onClose: () => void
  supabase: SupabaseClient | null
  rows: AdminProductRow[]
  onImported: () => void
}

/**
 * Import Products: a CSV with the export's columns, previewed with each row's errors. Nothing is
 * written while any row is invalid.
 */
export function ImportProductsDialog({ open, onClose, supabase, rows, onImported }: Props) {
  const lists = useReferenceLists()
  const [fileName, setFileName] = useState<string | null>(null)
  const [parsed, setParsed] = useState<{ rows: ImportRow[]; fileErrors: string[] } | null>(null)
  const [busy, setBusy] = useState(false)
  const [progress, setProgress] = useState<string | null>(null)

  const reset = () => {
    setFileName(null)
    setParsed(null)
    setProgress(null)
  }

  const read = async (file: File | undefined) => {
    if (!file) return
    setFileName(file.name)
    setParsed(
      parseProductsCsv(await file.text(), {
        brands: lists.brands,
        categories: lists.categories,
        productTypes: lists.productTypes,
        existing: rows.map((r) => ({ id: r.id, sku: r.sku })),
      }),
    )
  }

  const invalid = parsed
    ? parsed.fileErrors.length > 0 || parsed.rows.some((r) => r.errors.length > 0)
    : true

  const importAll = async () => {
    if (!parsed || invalid || !supabase) return
    setBusy(true)
    let done = 0
    try {
      for (const row of parsed.rows) {
        setProgress(`Importing ${done + 1} of ${parsed.rows.length}…`)
        const { media, ...rest } = row.payload
        await saveProduct(supabase, {
          ...rest,
          id: row.existingId ?? crypto.randomUUID(),
          ...(row.existingId ? {} : { is_new: true }),
          ...(media ? { media } : {}),
        })
        done += 1
      }
      toaster.create({ type: 'success', title: `Imported ${done} products` })
      onImported()
      reset()
      onClose()
    } catch (e) {
      toaster.create({
        type: 'error',
        title: 'Import stopped',
        description: `${e instanceof Error ? e.message : String(e)} (${done} of ${parsed.rows.length} rows saved)`,
      })
      onImported()
    } finally {
      setBusy(false)
      setProgress(null)
    }
  }

  return (
    <PanelDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          reset()
          onClose()
        }
      }}
      size="xl"
      title="Import Products"
      description="A CSV with the columns of Export Products. Rows whose SKU exists update that product; new rows need a media path."
    >
      <div className={css({ display: 'grid', gap: '4' })}>
        <div>
          <label htmlFor="import-products-file" className={fieldLabel}>
            CSV file
          </label>
          <input
            id="import-products-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void read(e.target.files?.[0])}
            className={css({ fontSize: 'sm' })}
          />
          <p className={css({ color: 'fg.subtle', fontSize: 'xs', mt: '1' })}>
            Columns: {PRODUCT_CSV_COLUMNS.join(', ')}
          </p>
        </div>
        {parsed && parsed.fileErrors.length > 0 && (
          <div role="alert" className={errorBox}>
            {parsed.fileErrors.join('. ')}
          </div>
        )}
        {parsed && parsed.rows.length > 0 && (
          <>
            <p className={muted} data-testid="import-summary">
              {fileName}: {parsed.rows.length} rows,{' '}
              {parsed.rows.filter((r) => r.errors.length).length} with errors
              {invalid
                ? '. Fix the file and choose it again; nothing is imported while a row has errors.'
                : '.'}
            </p>
            <div className={css({ maxH: '96', overflowY: 'auto' })}>
              <table className={table}>
                <thead>
                  <tr>
                    <th>Line</th>
                    <th>SKU</th>
                    <th>Name</th>
                    <th>Action</th>
                    <th>Errors</th>
                  </tr>
                </thead>
                <tbody>
                  {parsed.rows.map((row) => (
                    <tr
                      key={row.line}
                      data-testid="import-row"
                      data-invalid={row.errors.length > 0 || undefined}
                    >
                      <td>{row.line}</td>
                      <td>{row.sku}</td>
                      <td>{row.name}</td>
                      <td>
                        <span
                          className={badge({
                            tone: row.action === 'create' ? 'accent' : 'neutral',
                          })}
                        >
                          {row.action}
                        </span>
                      </td>
                      <td className={css({ color: 'danger.fg' })}>
                        {row.errors.join('; ') || '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        <div
          className={css({
            alignItems: 'center',
            display: 'flex',
            gap: '2',
            justifyContent: 'flex-end',
          })}
        >
          {progress && <span className={muted}>{progress}</span>}
          <Button
            variant="outline"
            onClick={() => {
              reset()
              onClose()
            }}
          >
            Cancel
          </Button>
          <Button disabled={invalid || busy} onClick={() => void importAll()}>
            Import {parsed?.rows.length ?? 0} products
          </Button>
        </div>
      </div>
    </PanelDialog>
  )
}
