import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { FileUpload } from '../../../ui/file-upload'
import { Switch } from '../../../ui/switch'
import { toaster } from '../../../ui/toaster'
import {
  isConnectionError,
  OFFLINE_SAVE_MESSAGE,
  removeMediaFiles,
  saveProduct,
  uploadMedia,
} from '../admin-api'
import {
  buildSavePayload,
  formValuesOf,
  mediaTypeOf,
  mergeMedia,
  type AdminMediaRow,
  type AdminProductRow,
} from '../admin-product'
import {
  ALLOWED_UPLOAD_TYPES,
  checkUploads,
  emptyProductForm,
  validateProductForm,
  type ProductFormValues,
} from '../admin.validation'
import { useReferenceLists } from '../hooks/use-admin-data'
import { useOnline } from '../hooks/use-online'
import { errorBox, grid2, muted, sectionTitle } from './admin-styles'
import { MediaThumb } from './media-thumb'
import { MetrcPackageFields } from '../metrc/metrc-package-fields'
import { ProductFactsFields } from './product-facts-fields'
import { ProductTraitsFields } from './product-traits-fields'
import { ReferenceSelect } from './reference-select'
import { DescriptionField } from './description-field'
import { sanitizeDescription } from '../description-html'
import { TextField } from './text-field'

type Props = {
  open: boolean
  row: AdminProductRow | null
  supabase: SupabaseClient | null
  onClose: () => void
  onSaved: () => void
  onReferencesChanged: () => void
}

/** "Add New Product" / "Edit Product" (SPEC.md §2, §3 product form, §4, §5). */
export function ProductFormDialog(props: Props) {
  return (
    <PanelDialog
      open={props.open}
      onOpenChange={(o) => !o && props.onClose()}
      size="xl"
      title={props.row ? 'Edit Product' : 'Add New Product'}
    >
      {props.open && <ProductForm key={props.row?.id ?? 'new'} {...props} />}
    </PanelDialog>
  )
}

type NewFile = { file: File; url: string }

const offlineNote = css({
  bg: 'deal.subtle',
  borderColor: 'deal.solid',
  borderRadius: 'md',
  borderWidth: '1px',
  color: 'fg.default',
  fontSize: 'sm',
  px: '3',
  py: '2',
})

function ProductForm({ row, supabase, onClose, onSaved, onReferencesChanged }: Props) {
  const isNew = row === null
  const [productId] = useState(() => row?.id ?? crypto.randomUUID())
  const [values, setValues] = useState<ProductFormValues>(() =>
    row ? formValuesOf(row) : emptyProductForm,
  )
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [existing, setExisting] = useState<AdminMediaRow[]>(() => row?.product_media ?? [])
  const [removed, setRemoved] = useState<string[]>([])
  const [files, setFiles] = useState<NewFile[]>([])
  const [busy, setBusy] = useState(false)
  const lists = useReferenceLists()
  const online = useOnline()

  const filesRef = useRef(files)
  filesRef.current = files
  useEffect(() => () => filesRef.current.forEach((f) => URL.revokeObjectURL(f.url)), [])

  /** A field's new value; the field sections (facts, Metrc package) key it themselves. */
  const setField = (key: keyof ProductFormValues, value: unknown) =>
    setValues((s) => ({ ...s, [key]: value }))
  const set =
    <K extends keyof ProductFormValues>(key: K) =>
    (value: ProductFormValues[K]) =>
      setField(key, value)
  const text = (key: keyof ProductFormValues) => ({
    value: values[key] as string,
    onValueChange: set(key) as (v: string) => void,
    error: errors[key],
  })

  const kept = existing.filter((m) => !removed.includes(m.id))

  const pickFiles = (list: readonly File[]) => {
    const { accepted, badType, tooLarge } = checkUploads(list)
    if (badType.length) {
      toaster.create({
        type: 'error',
        title: 'Invalid file type',
        description: `${badType.map((f) => f.name).join(', ')}: only JPEG, JPG, PNG, WebP images and MP4, WebM videos.`,
      })
    }
    if (tooLarge.length) {
      toaster.create({
        type: 'error',
        title: 'File too large',
        description: `Files must be under 50MB: ${tooLarge.map((f) => f.name).join(', ')}`,
      })
    }
    setFiles((current) => [
      ...current,
      ...accepted.map((file) => ({ file, url: URL.createObjectURL(file) })),
    ])
  }

  const setPrimary = async (media: AdminMediaRow) => {
    if (!supabase || !row) return
    try {
      await saveProduct(supabase, {
        id: row.id,
        media: existing.map((m) => ({
          id: m.id,
          media_url: m.media_url,
          media_type: m.media_type,
          is_primary: m.id === media.id,
          display_order: m.display_order ?? 0,
        })),
      })
      setExisting((list) => list.map((m) => ({ ...m, is_primary: m.id === media.id })))
      toaster.create({ type: 'success', title: 'Primary image updated successfully!' })
      onSaved()
    } catch (e) {
      toaster.create({
        type: 'error',
        title: 'Error setting primary image',
        description: isConnectionError(e) ? OFFLINE_SAVE_MESSAGE : 'Please try again.',
      })
    }
  }

  const submit = async () => {
    setFormError(null)
    const checked = validateProductForm(values)
    if (!checked.ok) {
      setErrors(checked.errors)
      setFormError('Please fix the highlighted fields.')
      return
    }
    setErrors({})
    if (isNew && files.length === 0)
      return setFormError('Please upload at least one product image or video')
    if (!isNew && kept.length + files.length === 0)
      return setFormError('Product must have at least one image or video')
    // Saving goes through the server in one transaction; the form stays as it is meanwhile.
    if (!supabase || !navigator.onLine) return setFormError(OFFLINE_SAVE_MESSAGE)
    setBusy(true)
    let uploaded: { path: string; file: File }[] = []
    try {
      try {
        uploaded = await uploadMedia(
          supabase,
          productId,
          files.map((f) => f.file),
        )
      } catch (e) {
        if (isConnectionError(e)) return setFormError(OFFLINE_SAVE_MESSAGE)
        // Nothing was saved and the form keeps what was typed; the refused file can be removed.
        toaster.create({
          type: 'error',
          title: 'Upload failed',
          description: e instanceof Error ? e.message : String(e),
        })
        return
      }
      const primary = kept.find((m) => m.is_primary)?.id ?? null
      checked.output.description = await sanitizeDescription(checked.output.description)
      const payload = buildSavePayload(checked.output, {
        id: productId,
        isNew,
        media: mergeMedia(
          kept,
          uploaded.map((u) => ({ path: u.path, type: mediaTypeOf(u.file) })),
          primary,
        ),
      })
      try {
        await saveProduct(supabase, payload)
      } catch (e) {
        await removeMediaFiles(
          supabase,
          uploaded.map((u) => u.path),
        )
        if (isConnectionError(e)) return setFormError(OFFLINE_SAVE_MESSAGE)
        toaster.create({
          type: 'error',
          title: isNew ? 'Error creating product' : 'Error updating product',
          description: e instanceof Error ? e.message : String(e),
        })
        return
      }
      // Removing media deletes their files too (SPEC.md §4), once the save went through.
      await removeMediaFiles(
        supabase,
        existing.filter((m) => removed.includes(m.id)).map((m) => m.media_url),
      )
      toaster.create({
        type: 'success',
        title: isNew ? 'Product created successfully!' : 'Product updated successfully!',
      })
      setFiles([])
      setRemoved([])
      onSaved()
      onClose()
    } finally {
      setBusy(false)
    }
  }

  const num = { type: 'number', inputMode: 'decimal' as const, min: 0 }

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
      className={css({ display: 'grid', gap: '5' })}
    >
      {!online && (
        <div role="status" className={offlineNote} data-testid="product-form-offline">
          You are offline. You can keep editing; saving needs a connection to the server.
        </div>
      )}
      <div className={grid2}>
        <TextField label="SKU" {...text('sku')} required />
        <TextField label="Product name" {...text('name')} required />
      </div>
      <DescriptionField {...text('description')} />
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' },
        })}
      >
        <ReferenceSelect
          kind="brand"
          label="Brand"
          items={lists.brands}
          value={values.brand_id}
          onChange={set('brand_id')}
          supabase={supabase}
          onChanged={onReferencesChanged}
        />
        <ReferenceSelect
          kind="category"
          label="Category"
          items={lists.categories}
          value={values.category_id}
          onChange={set('category_id')}
          supabase={supabase}
          onChanged={onReferencesChanged}
        />
        <ReferenceSelect
          kind="product type"
          label="Product type"
          items={lists.productTypes}
          value={values.product_type_id}
          onChange={set('product_type_id')}
          supabase={supabase}
          onChanged={onReferencesChanged}
        />
      </div>
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr 1fr', md: 'repeat(4, 1fr)' },
        })}
      >
        <TextField label="Price ($)" {...num} step="0.01" {...text('price')} />
        <TextField label="Original price ($)" {...num} step="0.01" {...text('original_price')} />
        <TextField label="Weight (g)" {...num} step="0.01" {...text('weight_grams')} />
        <TextField
          label="Quantity available"
          {...num}
          step="1"
          {...text('quantity_available')}
          disabled={values.is_unlimited_quantity}
        />
        <TextField label="THC %" {...num} max={100} step="0.1" {...text('thc_percentage')} />
        <TextField label="CBD %" {...num} max={100} step="0.1" {...text('cbd_percentage')} />
        <TextField
          label="Total cannabinoids %"
          {...num}
          max={100}
          step="0.1"
          {...text('total_cannabinoids_percentage')}
        />
        <TextField
          label="Smokeback %"
          {...num}
          max={100}
          step="0.1"
          {...text('smokeback_percentage')}
        />
      </div>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '6' })}>
        <Switch
          label="Unlimited stock"
          checked={values.is_unlimited_quantity}
          onCheckedChange={set('is_unlimited_quantity')}
        />
        <Switch label="On sale" checked={values.is_on_sale} onCheckedChange={set('is_on_sale')} />
        <Switch label="Active" checked={values.is_active} onCheckedChange={set('is_active')} />
        <Switch
          label="Featured"
          checked={values.is_featured}
          onCheckedChange={set('is_featured')}
        />
      </div>

      <ProductFactsFields values={values} errors={errors} onChange={setField} />
      <MetrcPackageFields values={values} errors={errors} onChange={setField} />

      <ProductTraitsFields
        values={values}
        errors={errors}
        onEffects={set('effects')}
        onTerpenes={set('terpenes')}
      />

      <section aria-label="Media">
        <h3 className={sectionTitle}>Images and videos</h3>
        <FileUpload
          label="Upload JPEG, PNG or WebP images, MP4 or WebM videos (up to 50 MB each)"
          dropzoneLabel="Drop images or videos here, or choose files"
          hint="The first image is the primary one unless you choose another."
          accept={[...ALLOWED_UPLOAD_TYPES]}
          onFiles={pickFiles}
        />
        <ul
          className={css({
            display: 'grid',
            gap: '3',
            gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
            mt: '3',
          })}
        >
          {kept.map((media) => (
            <li
              key={media.id}
              className={css({ display: 'grid', gap: '1' })}
              data-testid="existing-media"
            >
              <MediaThumb
                path={media.media_url}
                type={media.media_type}
                alt={`${values.name} media`}
              />
              <div
                className={css({
                  alignItems: 'center',
                  display: 'flex',
                  flexWrap: 'wrap',
                  gap: '1',
                })}
              >
                {media.is_primary ? (
                  <span className={badge({ tone: 'solid' })}>Primary</span>
                ) : (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    onClick={() => void setPrimary(media)}
                  >
                    Set primary
                  </Button>
                )}
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  onClick={() => setRemoved((r) => [...r, media.id])}
                >
                  Remove
                </Button>
              </div>
            </li>
          ))}
          {files.map((item, index) => (
            <li
              key={item.url}
              className={css({ display: 'grid', gap: '1' })}
              data-testid="new-media"
            >
              <MediaThumb src={item.url} type={mediaTypeOf(item.file)} alt={item.file.name} />
              <span
                className={css({
                  fontSize: 'xs',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  whiteSpace: 'nowrap',
                })}
              >
                {item.file.name}
              </span>
              <div
                className={css({
                  alignItems: 'center',
                  display: 'flex',
                  flexWrap: 'wrap',
                  gap: '1',
                })}
              >
                {kept.length === 0 && index === 0 ? (
                  <span className={badge({ tone: 'solid' })}>Primary</span>
                ) : kept.length === 0 ? (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    onClick={() => setFiles((list) => [item, ...list.filter((f) => f !== item)])}
                  >
                    Set primary
                  </Button>
                ) : null}
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    URL.revokeObjectURL(item.url)
                    setFiles((list) => list.filter((f) => f !== item))
                  }}
                >
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
        {removed.length > 0 && (
          <p className={cx(muted, css({ mt: '2' }))}>
            {removed.length} file{removed.length === 1 ? '' : 's'} will be removed when you save.{' '}
            <button
              type="button"
              className={css({
                color: 'accent.fg',
                cursor: 'pointer',
                textDecoration: 'underline',
              })}
              onClick={() => setRemoved([])}
            >
              Undo
            </button>
          </p>
        )}
      </section>

      {formError && (
        <div role="alert" className={errorBox}>
          {formError}
        </div>
      )}
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : isNew ? 'Create Product' : 'Update Product'}
        </Button>
      </div>
    </form>
  )
}
