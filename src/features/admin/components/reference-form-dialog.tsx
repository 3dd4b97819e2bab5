import type { SupabaseClient } from '@supabase/supabase-js'
import { useState } from 'react'
import * as v from 'valibot'
import { css } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { toaster } from '../../../ui/toaster'
import {
  createReference,
  isConnectionError,
  OFFLINE_SAVE_MESSAGE,
  updateReference,
  type ReferenceRow,
} from '../admin-api'
import {
  issuesByField,
  referenceSchema,
  withoutEmpty,
  type ReferenceKind,
} from '../admin.validation'
import { TextField } from './text-field'

export const kindTitle = (kind: ReferenceKind) => kind.charAt(0).toUpperCase() + kind.slice(1)

type Values = {
  name: string
  description: string
  founded_year: string
  logo_url: string
  display_order: string
}
export type ReferenceInitial = Partial<Values> & { id: string }

/** The edit form's starting values from a listed brand, category or product type. */
export function referenceInitial(item: {
  id: string
  name: string
  description?: string | null
  displayOrder?: number | null
  foundedYear?: number | null
  logoUrl?: string | null
}): ReferenceInitial {
  const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n))
  return {
    id: item.id,
    name: item.name,
    description: item.description ?? '',
    display_order: text(item.displayOrder),
    founded_year: text(item.foundedYear),
    logo_url: item.logoUrl ?? '',
  }
}

type Props = {
  kind: ReferenceKind
  open: boolean
  supabase: SupabaseClient | null
  /** Editing this row; creating when absent. */
  initial?: ReferenceInitial | null
  onClose: () => void
  onSaved: (row: ReferenceRow) => void
}

const empty: Values = {
  name: '',
  description: '',
  founded_year: '',
  logo_url: '',
  display_order: '',
}

/** Create (or edit) a brand, category or product type (SPEC.md §5 "Brand create" …). */
export function ReferenceFormDialog({ kind, open, supabase, initial, onClose, onSaved }: Props) {
  return (
    <PanelDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={initial ? `Edit ${kindTitle(kind)}` : `Create ${kindTitle(kind)}`}
    >
      {open && (
        <ReferenceForm
          kind={kind}
          supabase={supabase}
          initial={initial}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
    </PanelDialog>
  )
}

function ReferenceForm({ kind, supabase, initial, onClose, onSaved }: Omit<Props, 'open'>) {
  const [values, setValues] = useState<Values>({ ...empty, ...initial })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const set = (key: keyof Values) => (value: string) => setValues((s) => ({ ...s, [key]: value }))

  const submit = async () => {
    const input =
      kind === 'brand'
        ? {
            name: values.name,
            description: values.description,
            founded_year: values.founded_year,
            logo_url: values.logo_url,
          }
        : kind === 'category'
          ? {
              name: values.name,
              description: values.description,
              display_order: values.display_order,
            }
          : { name: values.name, description: values.description }
    const parsed = v.safeParse(referenceSchema(kind), input)
    if (!parsed.success) {
      setErrors(issuesByField(parsed.issues))
      return
    }
    setErrors({})
    if (!supabase) return
    setBusy(true)
    const payload = withoutEmpty(parsed.output as Record<string, unknown>)
    try {
      if (initial) {
        // An edit may clear an optional value.
        const cleared = Object.fromEntries(Object.keys(input).map((k) => [k, null]))
        await updateReference(supabase, kind, initial.id, { ...cleared, ...payload })
        toaster.create({ type: 'success', title: `${kindTitle(kind)} updated successfully!` })
        onSaved({ id: initial.id, name: String(payload.name) })
      } else {
        const row = await createReference(supabase, kind, payload)
        toaster.create({ type: 'success', title: `${kindTitle(kind)} created successfully!` })
        onSaved(row)
      }
      onClose()
    } catch (e) {
      toaster.create({
        type: 'error',
        title: initial ? `Error updating ${kind}` : `Error creating ${kind}`,
        description: isConnectionError(e)
          ? OFFLINE_SAVE_MESSAGE
          : e instanceof Error
            ? e.message
            : String(e),
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        e.stopPropagation()
        void submit()
      }}
      className={css({ display: 'grid', gap: '3' })}
    >
      <TextField
        label="Name"
        value={values.name}
        onValueChange={set('name')}
        error={errors.name}
        required
        autoFocus
      />
      <TextField
        label="Description"
        value={values.description}
        onValueChange={set('description')}
        error={errors.description}
        multiline
      />
      {kind === 'brand' && (
        <>
          <TextField
            label="Founded year"
            type="number"
            step="1"
            value={values.founded_year}
            onValueChange={set('founded_year')}
            error={errors.founded_year}
          />
          <TextField
            label="Logo URL"
            type="url"
            value={values.logo_url}
            onValueChange={set('logo_url')}
            error={errors.logo_url}
            placeholder="https://"
          />
        </>
      )}
      {kind === 'category' && (
        <TextField
          label="Display order"
          type="number"
          step="1"
          value={values.display_order}
          onValueChange={set('display_order')}
          error={errors.display_order}
        />
      )}
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end', mt: '2' })}>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {initial ? 'Save' : 'Create'}
        </Button>
      </div>
    </form>
  )
}
