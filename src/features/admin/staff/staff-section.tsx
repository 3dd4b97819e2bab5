import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import { addStaff } from '../admin-api'
import type { AdminUser } from '../admin-auth'
import { fieldError, muted, sectionTitle } from '../components/admin-styles'
import { TextField } from '../components/text-field'
import { RoleSelect } from './role-select'
import { fetchStaffMembers, LAST_OWNER_MESSAGE, setStaffRole, type StaffMember } from './staff-api'
import { StaffInvitations } from './staff-invitations'
import { DEFAULT_INVITE_ROLE, ROLE_LABELS, type StaffRole } from './staff-roles'

type Props = { open: boolean; supabase: SupabaseClient | null; user: AdminUser }

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

const row = css({
  alignItems: 'center',
  display: 'grid',
  gap: '2',
  gridTemplateColumns: { base: '1fr', sm: 'minmax(0, 1fr) 10rem' },
})

/**
 * Admin Settings' staff, for owners (issue 32): everyone on the staff with their role, which an
 * owner changes (never the last owner's: the server keeps one, and the select says so first),
 * invitations for a role, and adding an existing confirmed account.
 */
export function StaffSection({ open, supabase, user }: Props) {
  const [staff, setStaff] = useState<StaffMember[] | null>(null)
  const [listError, setListError] = useState<string | undefined>()
  const [who, setWho] = useState('')
  const [addRole, setAddRole] = useState<StaffRole>(DEFAULT_INVITE_ROLE)
  const [addError, setAddError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  const load = useCallback(() => {
    if (!supabase) return
    fetchStaffMembers(supabase)
      .then((members) => {
        setStaff(members)
        setListError(undefined)
      })
      .catch((e: unknown) => setListError(errorText(e)))
  }, [supabase])
  useEffect(() => {
    if (open) load()
  }, [open, load])

  const owners = staff?.filter((s) => s.role === 'owner').length ?? 0

  const change = async (member: StaffMember, role: StaffRole) => {
    if (!supabase || role === member.role) return
    setBusy(true)
    setListError(undefined)
    try {
      await setStaffRole(supabase, member.userId, role)
      toaster.create({
        type: 'success',
        title: 'Role changed',
        description: `${member.email ?? member.userId} is now ${ROLE_LABELS[role].toLowerCase()}.`,
      })
    } catch (e) {
      setListError(errorText(e))
    } finally {
      setBusy(false)
      load()
    }
  }

  const add = async () => {
    if (!supabase || !who.trim())
      return setAddError('Enter the email (or account id) of an existing account')
    setBusy(true)
    setAddError(undefined)
    try {
      await addStaff(supabase, who, addRole)
      toaster.create({ type: 'success', title: 'Staff member added', description: who.trim() })
      setWho('')
      load()
    } catch (e) {
      setAddError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section>
      <h3 className={sectionTitle}>Staff</h3>
      <p className={muted}>
        You are signed in as {user.email} ({ROLE_LABELS[user.role]}). Owners do everything; managers
        everything but staff and tax settings; budtenders the order board, handoffs and ID checks;
        drivers only the deliveries assigned to them.
      </p>
      <ul className={css({ display: 'grid', gap: '2', my: '3' })} aria-label="Staff">
        {staff?.map((member) => {
          const lastOwner = member.role === 'owner' && owners <= 1
          const name = member.email ?? member.userId
          return (
            <li key={member.userId} className={row}>
              <span className={css({ fontSize: 'sm', overflowWrap: 'anywhere' })}>
                {name}
                {member.userId === user.id ? ' (you)' : ''}
              </span>
              <RoleSelect
                id={`role-${member.userId}`}
                label={`Role of ${name}`}
                hideLabel
                value={member.role}
                disabled={busy || lastOwner}
                describedBy={lastOwner ? `last-owner-${member.userId}` : undefined}
                onChange={(role) => void change(member, role)}
              />
              {lastOwner && (
                <p id={`last-owner-${member.userId}`} className={muted}>
                  {LAST_OWNER_MESSAGE} Make someone else an owner first.
                </p>
              )}
            </li>
          )
        })}
      </ul>
      {listError && (
        <p role="alert" className={fieldError}>
          {listError}
        </p>
      )}

      <StaffInvitations open={open} supabase={supabase} onChanged={load} />

      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void add()
        }}
        className={css({ alignItems: 'end', display: 'flex', flexWrap: 'wrap', gap: '2', mt: '4' })}
      >
        <TextField
          className={css({ flex: '1', minW: '12rem' })}
          label="Add staff: email (confirmed) or account id of an existing account"
          value={who}
          onValueChange={setWho}
          error={addError}
        />
        <RoleSelect id="add-staff-role" label="Their role" value={addRole} onChange={setAddRole} />
        <Button type="submit" disabled={busy}>
          Add to staff
        </Button>
      </form>
    </section>
  )
}
