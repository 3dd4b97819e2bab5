import { useState, type FormEvent } from 'react'
import { css } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { muted } from '../components/admin-styles'
import { TextField } from '../components/text-field'

/**
 * A driver's receipts name them (4 CCR §15420): before their first delivery, they say their
 * first name (set_my_first_name).
 */
export function FirstNameForm({ onSave }: { onSave: (firstName: string) => Promise<void> }) {
  const [name, setName] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [saving, setSaving] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const trimmed = name.trim()
    if (!trimmed || trimmed.length > 40)
      return setError('Enter your first name (at most 40 characters)')
    setSaving(true)
    onSave(trimmed).then(
      () => setSaving(false),
      (failure: unknown) => {
        setSaving(false)
        setError(failure instanceof Error ? failure.message : 'Could not save your name')
      },
    )
  }
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Your first name"
      className={css({ alignItems: 'end', display: 'flex', flexWrap: 'wrap', gap: '2' })}
    >
      <div className={css({ display: 'grid', gap: '1', flex: '1', minW: '48' })}>
        <p className={muted}>Your delivery receipts show your first name and employee number.</p>
        <TextField
          label="Your first name"
          autoComplete="given-name"
          value={name}
          onValueChange={setName}
          error={error}
        />
      </div>
      <Button type="submit" disabled={saving}>
        Save
      </Button>
    </form>
  )
}
