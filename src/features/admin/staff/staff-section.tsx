import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import { addAdmin, fetchStaff, type StaffProfile } from '../admin-api'
import type { AdminUser } from '../admin-auth'
import { muted, sectionTitle } from '../components/admin-styles'
import { TextField } from '../components/text-field'
import {
  createInvitation,
  fetchInvitations,
  invitationLink,
  revokeInvitation,
  type NewInvitation,
  type StaffInvitation,
} from './staff-api'

type Props = { open: boolean; supabase: SupabaseClient | null; user: AdminUser }

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

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
 * Admin Settings' staff: the admins, adding one by a confirmed email (or account id), and
 * invitations (docs/decisions/025) — create one, hand over its code or link, see the pending
 * ones and revoke them.
 */
export function StaffSection({ open, supabase, user }: Props) {
  const [staff, setStaff] = useState<StaffProfile[] | null>(null)
  const [invitations, setInvitations] = useState<StaffInvitation[] | null>(null)
  const [who, setWho] = useState('')
  const [note, setNote] = useState('')
  const [created, setCreated] = useState<NewInvitation | null>(null)
  const [addError, setAddError] = useState<string | undefined>()
  const [inviteError, setInviteError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  const load = useCallback(() => {
    if (!supabase) return
    fetchStaff(supabase)
      .then(setStaff)
      .catch((e: unknown) => setAddError(errorText(e)))
    fetchInvitations(supabase)
      .then(setInvitations)
      .catch((e: unknown) => setInviteError(errorText(e)))
  }, [supabase])
  useEffect(() => {
    if (open) load()
  }, [open, load])

  const add = async () => {
    if (!supabase || !who.trim())
      return setAddError('Enter the email (or account id) of an existing account')
    setBusy(true)
    setAddError(undefined)
    try {
      await addAdmin(supabase, who)
      toaster.create({ type: 'success', title: 'Admin added', description: who.trim() })
      setWho('')
      load()
    } catch (e) {
      setAddError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  const invite = async () => {
    if (!supabase) return setInviteError('Creating an invitation needs a connection.')
    setBusy(true)
    setInviteError(undefined)
    try {
      setCreated(await createInvitation(supabase, note))
      setNote('')
      load()
    } catch (e) {
      setInviteError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  const revoke = async (invitation: StaffInvitation) => {
    if (!supabase) return
    setBusy(true)
    setInviteError(undefined)
    try {
      await revokeInvitation(supabase, invitation.id)
      if (created?.id === invitation.id) setCreated(null)
      toaster.create({ type: 'success', title: 'Invitation revoked', description: invitation.note })
      load()
    } catch (e) {
      setInviteError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  const copyLink = (link: string) => {
    navigator.clipboard.writeText(link).then(
      () => toaster.create({ type: 'success', title: 'Invitation link copied' }),
      () => toaster.create({ type: 'error', title: 'Could not copy; select the link instead' }),
    )
  }

  return (
    <section>
      <h3 className={sectionTitle}>Staff</h3>
      <p className={muted}>You are signed in as {user.email}.</p>
      <ul
        className={css({ display: 'grid', fontFamily: 'mono', fontSize: 'xs', gap: '1', my: '2' })}
        aria-label="Admins"
      >
        {staff?.map((s) => (
          <li key={s.user_id}>
            {s.user_id}
            {s.user_id === user.id ? ' (you)' : ''}
          </li>
        ))}
      </ul>

      <section aria-labelledby="staff-invitations" className={css({ mt: '4' })}>
        <h4 id="staff-invitations" className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
          Invitations
        </h4>
        <p className={muted}>
          Someone new joins the staff with an invitation: a one-time code, valid 7 days. Hand it
          over in person or by a channel you trust; whoever has it can become an admin.
        </p>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            void invite()
          }}
          className={css({ alignItems: 'end', display: 'flex', gap: '2', mt: '2' })}
        >
          <TextField
            className={css({ flex: '1' })}
            label="Who is it for? (a note for you, optional)"
            value={note}
            maxLength={200}
            onValueChange={setNote}
            error={inviteError}
          />
          <Button type="submit" disabled={busy}>
            Create invitation
          </Button>
        </form>
        {created && (
          <div role="status" className={codeBox}>
            <strong>
              Invitation created{created.note ? ` for ${created.note}` : ''}. It is shown only now;
              it expires {dateTime(created.expiresAt)}.
            </strong>
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
                  {invitation.note || 'Invitation'} · expires {dateTime(invitation.expiresAt)}
                  {invitation.createdBy ? ` · by ${invitation.createdBy}` : ''}
                </span>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  aria-label={`Revoke invitation ${invitation.note || dateTime(invitation.createdAt)}`}
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

      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void add()
        }}
        className={css({ alignItems: 'end', display: 'flex', gap: '2', mt: '4' })}
      >
        <TextField
          className={css({ flex: '1' })}
          label="Add an admin: email (confirmed) or account id of an existing account"
          value={who}
          onValueChange={setWho}
          error={addError}
        />
        <Button type="submit" disabled={busy}>
          Add admin
        </Button>
      </form>
    </section>
  )
}
