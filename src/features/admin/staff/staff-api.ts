/**
 * Staff invitations (docs/decisions/025): an admin creates a one-time code valid 7 days and hands
 * it over, as the code or the link /admin?invite=CODE; the invited person signs in or signs up on
 * the login page and joins the staff with it. The server keeps only the code's hash, so the code
 * is shown once, when it is created.
 */
import type { SupabaseClient } from '@supabase/supabase-js'

export type StaffInvitation = {
  id: string
  note: string
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
): Promise<NewInvitation> {
  const response = await supabase.rpc('admin_create_staff_invitation', { p_note: note.trim() })
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

export type JoinAnswer = { ok: true } | { ok: false; error: string }

/** The signed-in user joins the staff with an invitation code. */
export async function acceptInvitation(
  supabase: SupabaseClient,
  code: string,
): Promise<JoinAnswer> {
  const response = await supabase.rpc('accept_staff_invitation', { p_code: code.trim() })
  if (response.error) return { ok: false, error: response.error.message }
  const answer = response.data as { joined: boolean; message?: string }
  return answer.joined
    ? { ok: true }
    : { ok: false, error: answer.message ?? 'That invitation code is not right.' }
}
