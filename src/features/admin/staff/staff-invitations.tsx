import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import { shopDateTime } from '../admin-time'
import { muted } from '../components/admin-styles'
import { TextField } from '../components/text-field'
import { RoleSelect } from './role-select'
import {
  createInvitation,
  fetchInvitations,
  invitationLink,
  revokeInvitation,
  type NewInvitation,
  type StaffInvitation,
} from './staff-api'
import { DEFAULT_INVITE_ROLE, ROLE_LABELS, type StaffRole } from './staff-roles'

type Props = { open: boolean; supabase: SupabaseClient | null; onChanged: () => void }

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

const list = css({ display: 'grid', fontSize: 'sm', gap: '1.5', my: '2' })
const codeBox = css({
  bg: 'bg.muted',
  borderRadius: 'md',
  display: 'grid',
  fontSize: 'sm',
  gap: '1',
  my: '2',
  p: '3',
})

/**
 * Staff invitations (docs/decisions/025-setup-code-and-invitations.md): an owner creates a one-time code for a role, valid 7
 * days, hands over its code or link, sees the pending ones and revokes them.
 */
export function StaffInvitations({ open, supabase, onChanged }: Props) {
  const [invitations, setInvitations] = useState<StaffInvitation[] | null>(null)
  const [note, setNote] = useState('')
  const [role, setRole] = useState<StaffRole>(DEFAULT_INVITE_ROLE)
  const [created, setCreated] = useState<NewInvitation | null>(null)
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  const load = useCallback(() => {
    if (!supabase) return
    fetchInvitations(supabase)
      .then(setInvitations)
      .catch((e: unknown) => setError(errorText(e)))
  }, [supabase])
  useEffect(() => {
    if (open) load()
  }, [open, load])

  const run = async (work: () => Promise<void>) => {
    if (!supabase) return setError('Invitations need a connection.')
    setBusy(true)
    setError(undefined)
    try {
      await work()
      load()
      onChanged()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  const invite = () =>
    run(async () => {
      setCreated(await createInvitation(supabase!, note, role))
      setNote('')
    })

  const revoke = (invitation: StaffInvitation) =>
    run(async () => {
      await revokeInvitation(supabase!, invitation.id)
      if (created?.id === invitation.id) setCreated(null)
      toaster.create({ type: 'success', title: 'Invitation revoked', description: invitation.note })
    })

  const copyLink = (link: string) => {
    navigator.clipboard.writeText(link).then(
      () => toaster.create({ type: 'success', title: 'Invitation link copied' }),
      () => toaster.create({ type: 'error', title: 'Could not copy; select the link instead' }),
    )
  }

  return (
    <section aria-labelledby="staff-invitations" className={css({ mt: '4' })}>
      <h4 id="staff-invitations" className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
        Invitations
      </h4>
      <p className={muted}>
        Someone new joins the staff with an invitation: a one-time code, valid 7 days, for the role
        you choose. Hand it over in person or by a channel you trust; whoever has it joins with that
        role.
      </p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void invite()
        }}
        className={css({ alignItems: 'end', display: 'flex', flexWrap: 'wrap', gap: '2', mt: '2' })}
      >
        <TextField
          className={css({ flex: '1', minW: '12rem' })}
          label="Who is it for? (a note for you, optional)"
          value={note}
          maxLength={200}
          onValueChange={setNote}
          error={error}
        />
        <RoleSelect id="invitation-role" label="Role" value={role} onChange={setRole} />
        <Button type="submit" disabled={busy}>
          Create invitation
        </Button>
      </form>
      {created && (
        <div role="status" className={codeBox}>
          <strong>
            Invitation created{created.note ? ` for ${created.note}` : ''}. It is shown only now; it
            expires {shopDateTime(created.expiresAt)}.
          </strong>
          <span>Role: {ROLE_LABELS[created.role]}</span>
          <span>
            Invitation code: <code aria-label="Invitation code">{created.code}</code>
          </span>
          <span className={css({ wordBreak: 'break-all' })}>
            Link: <code aria-label="Invitation link">{invitationLink(created.code)}</code>
          </span>
          <div className={css({ display: 'flex', gap: '2' })}>
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => copyLink(invitationLink(created.code))}
            >
              Copy link
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      {invitations && invitations.length > 0 && (
        <ul className={list} aria-label="Pending invitations">
          {invitations.map((invitation) => (
            <li
              key={invitation.id}
              className={css({ alignItems: 'center', display: 'flex', gap: '2' })}
            >
              <span className={css({ flex: '1' })}>
                {invitation.note || 'Invitation'} · {ROLE_LABELS[invitation.role]} · expires{' '}
                {shopDateTime(invitation.expiresAt)}
                {invitation.createdBy ? ` · by ${invitation.createdBy}` : ''}
              </span>
              <Button
                type="button"
                size="sm"
                variant="outline"
                disabled={busy}
                aria-label={`Revoke invitation ${invitation.note || shopDateTime(invitation.createdAt)}`}
                onClick={() => void revoke(invitation)}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      {invitations?.length === 0 && <p className={muted}>No pending invitations.</p>}
    </section>
  )
}
