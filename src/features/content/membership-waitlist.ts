/**
 * The membership waitlist (issue 33, docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): the membership does not exist yet, so
 * the home page's promo offers a place on a waitlist. The server (join_membership_waitlist)
 * accepts only this consent text, so what it stores is what the shopper ticked.
 */
import type { RpcClient } from '../../data/backend-client'

/** Must equal private.waitlist_consent_text() (20261130120000_membership_waitlist.sql). */
export const WAITLIST_CONSENT_TEXT =
  'I agree that the shop may keep my email address to tell me when the membership starts, ' +
  'and to send me one confirmation now. I can ask to be removed at any time.'

export type WaitlistAnswer =
  | { kind: 'joined'; already: boolean; confirmationEmail: boolean }
  | { kind: 'error'; message: string }

export const WAITLIST_OFFLINE_MESSAGE =
  'Joining the waitlist needs a connection. Connect to the internet and try again.'

export async function joinWaitlist(rpc: RpcClient, email: string): Promise<WaitlistAnswer> {
  let answer
  try {
    answer = await rpc.rpc('join_membership_waitlist', {
      p: { email, consent: true, consentText: WAITLIST_CONSENT_TEXT },
    })
  } catch {
    return { kind: 'error', message: WAITLIST_OFFLINE_MESSAGE }
  }
  if (answer.error) {
    const message = answer.error.message
    if (!answer.error.code && /fetch|network/i.test(message))
      return { kind: 'error', message: WAITLIST_OFFLINE_MESSAGE }
    return { kind: 'error', message: message || 'Something went wrong. Please try again.' }
  }
  const data = (answer.data ?? {}) as { joined?: unknown; confirmationEmail?: unknown }
  return {
    kind: 'joined',
    already: data.joined === false,
    confirmationEmail: data.confirmationEmail === true,
  }
}
