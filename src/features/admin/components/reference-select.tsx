import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useId, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { toaster } from '../../../ui/toaster'
import {
  deleteReference,
  isConnectionError,
  OFFLINE_SAVE_MESSAGE,
  type ReferenceRow,
} from '../admin-api'
import type { ReferenceKind } from '../admin.validation'
import { fieldLabel, iconButton } from './admin-styles'
import { ConfirmDialog } from './confirm-dialog'
import {
  ReferenceFormDialog,
  kindTitle,
  referenceInitial,
  type ReferenceInitial,
} from './reference-form-dialog'
import { EditIcon, TrashIcon } from '../../../ui/icons'

/** A listed item; the optional fields fill the edit form. */
export type ReferenceOption = ReferenceRow & Parameters<typeof referenceInitial>[0]

type Props = {
  kind: ReferenceKind
  label: string
  items: readonly ReferenceOption[]
  value: string
  onChange: (id: string) => void
  supabase: SupabaseClient | null
  onChanged: () => void
}

/**
 * The product form's inline selector (SPEC.md §2): a "create" row at the top opens a create
 * dialog; each option has an edit icon (the same dialog, filled in) and a delete icon behind a
 * confirmation; the server refuses deleting an item still referenced by products.
 */
export function ReferenceSelect({
  kind,
  label,
  items,
  value,
  onChange,
  supabase,
  onChanged,
}: Props) {
  const [open, setOpen] = useState(false)
  const [creating, setCreating] = useState(false)
  const [editing, setEditing] = useState<ReferenceInitial | null>(null)
  const [deleting, setDeleting] = useState<ReferenceRow | null>(null)
  const [busy, setBusy] = useState(false)
  // Rows created or renamed here show at once, before the device's lists have pulled them.
  const [extra, setExtra] = useState<ReferenceOption[]>([])
  const [renamed, setRenamed] = useState<Record<string, string>>({})
  const [gone, setGone] = useState<string[]>([])
  const rootRef = useRef<HTMLDivElement>(null)
  const id = useId()

  const all = [...items, ...extra.filter((e) => !items.some((i) => i.id === e.id))]
    .filter((i) => !gone.includes(i.id))
    .map((i) => (renamed[i.id] && renamed[i.id] !== i.name ? { ...i, name: renamed[i.id]! } : i))
  const selected = all.find((i) => i.id === value)

  useEffect(() => {
    if (!open) return
    const onDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onDown)
    return () => document.removeEventListener('pointerdown', onDown)
  }, [open])

  const confirmDelete = async () => {
    if (!deleting || !supabase) return
    setBusy(true)
    try {
      await deleteReference(supabase, kind, deleting.id)
      toaster.create({ type: 'success', title: `${kindTitle(kind)} deleted successfully!` })
      setGone((g) => [...g, deleting.id])
      if (value === deleting.id) onChange('')
      setDeleting(null)
      onChanged()
    } catch (e) {
      toaster.create({
        type: 'error',
        title: `Error deleting ${kind}`,
        description: isConnectionError(e)
          ? OFFLINE_SAVE_MESSAGE
          : e instanceof Error
            ? e.message
            : String(e),
      })
      setDeleting(null)
    } finally {
      setBusy(false)
    }
  }

  const optionClass = css({
    alignItems: 'center',
    borderRadius: 'sm',
    cursor: 'pointer',
    display: 'flex',
    flex: '1',
    fontSize: 'sm',
    px: '2',
    py: '1.5',
    textAlign: 'left',
    _hover: { bg: 'bg.muted' },
    _focusVisible: { bg: 'bg.muted', outline: 'none' },
  })

  return (
    <div
      ref={rootRef}
      className={css({ position: 'relative' })}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation()
          setOpen(false)
        }
      }}
    >
      <span id={`${id}-label`} className={fieldLabel}>
        {label}
      </span>
      <button
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={`${id}-label ${id}-value`}
        onClick={() => setOpen((o) => !o)}
        className={cx(
          input(),
          css({
            alignItems: 'center',
            cursor: 'pointer',
            display: 'flex',
            justifyContent: 'space-between',
            textAlign: 'left',
          }),
        )}
      >
        <span id={`${id}-value`} className={css({ color: selected ? 'fg.default' : 'fg.subtle' })}>
          {selected?.name ?? `Select ${kind}`}
        </span>
        <span aria-hidden>▾</span>
      </button>
      {open && (
        <div
          role="listbox"
          aria-label={label}
          className={css({
            bg: 'bg.surface',
            borderColor: 'border.default',
            borderRadius: 'md',
            borderWidth: '1px',
            boxShadow: 'raised',
            left: '0',
            maxH: '64',
            mt: '1',
            overflowY: 'auto',
            p: '1',
            position: 'absolute',
            right: '0',
            zIndex: 'dropdown',
          })}
        >
          <button
            type="button"
            className={cx(
              optionClass,
              css({ color: 'accent.fg', fontWeight: 'semibold', w: 'full' }),
            )}
            onClick={() => {
              setOpen(false)
              setCreating(true)
            }}
          >
            + Create new {kind}
          </button>
          {value && (
            <button
              type="button"
              className={cx(optionClass, css({ color: 'fg.muted', w: 'full' }))}
              onClick={() => {
                onChange('')
                setOpen(false)
              }}
            >
              No {kind}
            </button>
          )}
          {all.length === 0 && (
            <p className={css({ color: 'fg.muted', fontSize: 'sm', px: '2', py: '1.5' })}>
              No options available
            </p>
          )}
          {all.map((item) => (
            <div key={item.id} className={css({ alignItems: 'center', display: 'flex', gap: '1' })}>
              <button
                type="button"
                role="option"
                aria-selected={item.id === value}
                className={cx(
                  optionClass,
                  item.id === value && css({ fontWeight: 'semibold', color: 'accent.fg' }),
                )}
                onClick={() => {
                  onChange(item.id)
                  setOpen(false)
                }}
              >
                {item.id === value ? '✓ ' : ''}
                {item.name}
              </button>
              <button
                type="button"
                className={iconButton}
                aria-label={`Edit ${kind} ${item.name}`}
                onClick={() => {
                  setOpen(false)
                  setEditing(referenceInitial(item))
                }}
              >
                <EditIcon size={14} />
              </button>
              <button
                type="button"
                className={iconButton}
                aria-label={`Delete ${kind} ${item.name}`}
                onClick={() => {
                  setOpen(false)
                  setDeleting(item)
                }}
              >
                <TrashIcon size={14} />
              </button>
            </div>
          ))}
        </div>
      )}
      <ReferenceFormDialog
        kind={kind}
        open={creating || editing !== null}
        initial={editing}
        supabase={supabase}
        onClose={() => {
          setCreating(false)
          setEditing(null)
        }}
        onSaved={(row) => {
          if (editing) {
            setRenamed((r) => ({ ...r, [row.id]: row.name }))
          } else {
            setExtra((x) => [...x, row])
            onChange(row.id)
          }
          onChanged()
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Are you sure?"
        description={`This action cannot be undone. This will permanently delete the ${kind} "${deleting?.name ?? ''}" from the system.`}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </div>
  )
}
