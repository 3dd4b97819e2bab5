/**
 * The membership waitlist as the office reads it (issue 33, docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md):
 * `admin_membership_waitlist`, oldest first, and its CSV. Online only: the list is not copied to
 * devices.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { toCsv } from '../admin-csv'

export type WaitlistEntry = {
  email: string
  consentText: string
  consentedAt: string
  /** The confirmation email: 'not sent' (no mail server then), 'queued', 'sent' or 'failed'. */
  confirmationEmail: string
}

export async function fetchWaitlist(supabase: SupabaseClient): Promise<WaitlistEntry[]> {
  const response = await supabase.rpc('admin_membership_waitlist')
  if (response.error) throw new Error(response.error.message)
  return Array.isArray(response.data) ? (response.data as WaitlistEntry[]) : []
}

export const WAITLIST_CSV_COLUMNS = [
  'email',
  'consented_at',
  'consent_text',
  'confirmation_email',
] as const

export function waitlistToCsv(entries: readonly WaitlistEntry[]): string {
  return toCsv(
    WAITLIST_CSV_COLUMNS,
    entries.map((e) => [e.email, e.consentedAt, e.consentText, e.confirmationEmail]),
  )
}
