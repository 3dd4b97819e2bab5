/**
 * Staff invitations (docs/decisions/025-setup-code-and-invitations.md): an admin creates a one-time code valid 7 days and hands
 * it over, as the code or the link /admin?invite=CODE; the invited person signs in or signs up on
 * the login page and joins the staff with it. The server keeps only the code's hash, so the code
 * is shown once, when it is created.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { isStaffRole, type StaffRole } from './staff-roles'

export type StaffInvitation = {
  id: string
  note: string
  role: StaffRole
  createdAt: string
  expiresAt: string
  createdBy: string | null
}

export type NewInvitation = StaffInvitation & { code: string }

/** The login page's query parameter that carries an invitation code. */
export const INVITE_PARAM = 'invite'

export function invitationLink(code: string, origin = window.location.origin): string {
  return `${origin}/admin?${INVITE_PARAM}=${encodeURIComponent(code)}`
}

/** The invitation code in this page's address, if it was opened from an invitation link. */
export function invitationInAddress(): string {
  return new URLSearchParams(window.location.search).get(INVITE_PARAM)?.trim() ?? ''
}

/** Takes the code out of the address bar and history once it has been used. */
export function forgetInvitationInAddress() {
  const url = new URL(window.location.href)
  if (!url.searchParams.has(INVITE_PARAM)) return
  url.searchParams.delete(INVITE_PARAM)
  window.history.replaceState(window.history.state, '', url)
}

export async function createInvitation(
  supabase: SupabaseClient,
  note: string,
  role: StaffRole,
): Promise<NewInvitation> {
  const response = await supabase.rpc('admin_create_staff_invitation', {
    p_note: note.trim(),
    p_role: role,
  })
  if (response.error) throw new Error(response.error.message)
  return response.data as NewInvitation
}

export async function fetchInvitations(supabase: SupabaseClient): Promise<StaffInvitation[]> {
  const response = await supabase.rpc('admin_staff_invitations')
  if (response.error) throw new Error(response.error.message)
  return response.data as StaffInvitation[]
}

export async function revokeInvitation(supabase: SupabaseClient, id: string): Promise<void> {
  const { error } = await supabase.rpc('admin_revoke_staff_invitation', { p_id: id })
  if (error) throw new Error(error.message)
}

export type JoinAnswer = { ok: true; role: StaffRole } | { ok: false; error: string }

/** The signed-in user joins the staff with an invitation code. */
export async function acceptInvitation(
  supabase: SupabaseClient,
  code: string,
): Promise<JoinAnswer> {
  const response = await supabase.rpc('accept_staff_invitation', { p_code: code.trim() })
  if (response.error) return { ok: false, error: response.error.message }
  const answer = response.data as { joined: boolean; role?: string; message?: string }
  if (!answer.joined)
    return { ok: false, error: answer.message ?? 'That invitation code is not right.' }
  // An older server answers without the role: its only staff role was the owner's.
  return { ok: true, role: isStaffRole(answer.role) ? answer.role : 'owner' }
}

/** A member of staff as an owner sees them in Admin Settings, Staff. */
export type StaffMember = {
  userId: string
  email: string | null
  role: StaffRole
  createdAt: string
}

export async function fetchStaffMembers(supabase: SupabaseClient): Promise<StaffMember[]> {
  const response = await supabase.rpc('admin_staff')
  if (response.error) throw new Error(response.error.message)
  return response.data as StaffMember[]
}

/** An owner changes someone's role; the server keeps the shop's last owner (and says so). */
export async function setStaffRole(
  supabase: SupabaseClient,
  userId: string,
  role: StaffRole,
): Promise<void> {
  const { error } = await supabase.rpc('admin_set_staff_role', { p_user: userId, p_role: role })
  if (error) throw new Error(error.message)
}

/** The message the server gives for the last owner, shown before it is even asked. */
export const LAST_OWNER_MESSAGE = 'The shop must keep at least one owner.'
