import type { SupabaseClient } from '@supabase/supabase-js'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import { FileUpload } from '../../../ui/file-upload'
import { PanelDialog } from '../../../ui/panel-dialog'
import { toaster } from '../../../ui/toaster'
import {
  importProducts,
  isConnectionError,
  OFFLINE_SAVE_MESSAGE,
  refusedRowIndex,
} from '../admin-api'
import {
  importFileError,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  PRODUCT_CSV_COLUMNS,
  parseProductsCsv,
  type ImportRow,
} from '../admin-csv'
import type { AdminProductRow } from '../admin-product'
import { PRODUCT_FACT_COLUMNS } from '../product-facts-csv'
import { useReferenceLists } from '../hooks/use-admin-data'
import { errorBox, muted, table } from './admin-styles'

/** A file's cells are anyone's text: a long word wraps rather than widening the table. */
const longText = css({ overflowWrap: 'anywhere', maxW: 'xs' })

/** "Row 3 (SKU FLW-00003): " of a refusal of `admin_import_products`. */
const ROW_PREFIX = /^Row \d+( \(SKU [^)]*\))?: /

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
  const [failure, setFailure] = useState<string | null>(null)

  const reset = () => {
    setFileName(null)
    setParsed(null)
    setFailure(null)
  }

  const read = async (file: File | undefined) => {
    if (!file) return
    setFileName(file.name)
    setFailure(null)
    // A file too big to import is refused by its size, before the tab spends time reading it.
    const tooBig = importFileError(file)
    if (tooBig) return setParsed({ rows: [], fileErrors: [tooBig] })
    let text: string
    try {
      text = await file.text()
    } catch {
      return setParsed({ rows: [], fileErrors: ['The file could not be read. Choose it again'] })
    }
    setParsed(
      parseProductsCsv(text, {
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

  /** One call, one transaction on the server: every row is written, or none. */
  const importAll = async () => {
    if (!parsed || invalid) return
    if (!supabase || !navigator.onLine) return setFailure(OFFLINE_SAVE_MESSAGE)
    setBusy(true)
    setFailure(null)
    try {
      const result = await importProducts(
        supabase,
        parsed.rows.map((row) => {
          const { media, ...rest } = row.payload
          return {
            ...rest,
            id: row.existingId ?? crypto.randomUUID(),
            ...(row.existingId ? {} : { is_new: true }),
            ...(media ? { media } : {}),
          }
        }),
      )
      toaster.create({ type: 'success', title: `Imported ${result.count} products` })
      onImported()
      reset()
      onClose()
    } catch (e) {
      if (isConnectionError(e)) return setFailure(OFFLINE_SAVE_MESSAGE)
      const message = e instanceof Error ? e.message : String(e)
      // The server names the refused row; the preview marks it.
      const index = refusedRowIndex(message)
      const refused = index === null ? undefined : parsed.rows[index]
      const detail = message.replace(ROW_PREFIX, '')
      if (refused) {
        setParsed({
          ...parsed,
          rows: parsed.rows.map((r) =>
            r === refused ? { ...r, errors: [...r.errors, detail] } : r,
          ),
        })
      }
      setFailure(
        refused
          ? `Nothing was imported. Line ${refused.line} (SKU ${refused.sku}): ${detail}`
          : `Nothing was imported. ${message}`,
      )
    } finally {
      setBusy(false)
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
      description={`A CSV with the columns of Export Products. Rows whose SKU exists update that product; new rows need a media path. Every row is written, or none; up to ${MAX_IMPORT_ROWS} products (${MAX_IMPORT_BYTES / 1024 / 1024} MB) at a time. A file without the ${PRODUCT_FACT_COLUMNS.join(', ')} columns leaves those facts as they are (new products: cannabis, no daily limit).`}
    >
      <div className={css({ display: 'grid', gap: '4' })}>
        <FileUpload
          label="CSV file"
          dropzoneLabel="Drop a CSV here or choose one"
          accept={['text/csv', '.csv']}
          multiple={false}
          hint={`Columns: ${PRODUCT_CSV_COLUMNS.join(', ')}`}
          onFiles={(files) => void read(files[0])}
        />
        {failure && (
          <div role="alert" className={errorBox} data-testid="import-failure">
            {failure}
          </div>
        )}
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
                      <td className={longText}>{row.sku}</td>
                      <td className={longText}>{row.name}</td>
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
            {busy ? 'Importing...' : `Import ${parsed?.rows.length ?? 0} products`}
          </Button>
        </div>
      </div>
    </PanelDialog>
  )
}
