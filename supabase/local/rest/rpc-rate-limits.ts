// Rate limits on the shopper's public functions (issue 23, finding 4): place_order,
// submit_contact_message, track_order and join_membership_waitlist (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md), per
// connection (the socket's address) and per account or device. Anonymous shoppers have no
// session and the app sends no device id, so a device is named by what the order or message
// itself carries: its email and its phone (digits only), plus the user's id when signed in. Checked in Node before the call reaches the single-connection
// database, so a flood costs no SQL. Hosted Supabase has no such layer: see
// docs/decisions/026-rate-limits-and-unaccepted-orders.md for what stands in for it there.
import type { RpcCall } from './rest-handler.ts'
import { clientAddress } from '../http/client-address.ts'
import { PostgrestError } from '../request/postgrest-errors.ts'
import type { RateLimiter, RateLimitName } from '../http/rate-limits.ts'

/** "12 minutes", "1 minute", "40 seconds": how long the message asks the person to wait. */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`
  const minutes = Math.ceil(seconds / 60)
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

/**
 * A 429 the way PostgREST shapes errors (code PT429, as a SQL `raise ... using errcode =
 * 'PT429'` answers), with Retry-After on the response and the seconds in `details` too: supabase-js
 * hands callers the error body but not the headers.
 */
export function tooManyRequests(
  call: Pick<RpcCall, 'res'>,
  what: string,
  retryAfterSeconds: number,
): PostgrestError {
  call.res.setHeader('Retry-After', String(retryAfterSeconds))
  return new PostgrestError(
    429,
    'PT429',
    `${what} Please wait ${waitText(retryAfterSeconds)} and try again.`,
    `Retry after ${retryAfterSeconds} seconds`,
    null,
  )
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

/** The keys that name the account or device behind a call: user id, email, phone digits. */
export function deviceKeys(call: Pick<RpcCall, 'auth'>, contact: unknown): string[] {
  const keys: string[] = []
  const sub = call.auth.role === 'authenticated' ? text(call.auth.claims.sub) : ''
  if (sub) keys.push(`user:${sub}`)
  const c = contact && typeof contact === 'object' ? (contact as Record<string, unknown>) : {}
  const email = text(c.email).toLowerCase()
  if (email) keys.push(`email:${email.slice(0, 254)}`)
  let digits = text(c.phone).replace(/\D/g, '')
  // As SQL's phone_digits: "+1 415 555 0134" and "415-555-0134" are one phone.
  if (/^1\d{10}$/.test(digits)) digits = digits.slice(1)
  if (digits.length >= 7) keys.push(`phone:${digits.slice(0, 20)}`)
  return keys
}

/**
 * Counts one event for each key when none of them is spent; otherwise counts nothing and says how
 * long until the longest-waiting key is free, so a refused retry never extends a window.
 */
function hitAll(
  limiter: RateLimiter,
  name: RateLimitName,
  keys: string[],
): { ok: true } | { ok: false; retryAfterSeconds: number } {
  let wait = 0
  for (const key of keys) {
    const verdict = limiter.peek(name, key)
    if (!verdict.ok) wait = Math.max(wait, verdict.retryAfterSeconds)
  }
  if (wait > 0) return { ok: false, retryAfterSeconds: wait }
  for (const key of keys) limiter.hit(name, key)
  return { ok: true }
}

interface RpcRule {
  ip: RateLimitName
  device?: RateLimitName
  /** Where the call's arguments carry the person's email and phone. */
  contact?: (args: Record<string, unknown>) => unknown
  /**
   * The client-made id that makes a call idempotent: a retry of the same order or message (its
   * answer was lost) is counted once against the person, though always against the connection.
   */
  id?: (args: Record<string, unknown>) => unknown
  /** The first half of the refusal's message. */
  ipMessage: string
  deviceMessage: string
}

const objectArg = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}

const RULES: Record<string, RpcRule> = {
  place_order: {
    ip: 'place_order_ip',
    device: 'place_order_device',
    contact: (args) => objectArg(objectArg(args.p_order).customer),
    id: (args) => objectArg(args.p_order).id,
    ipMessage: 'Too many orders from this connection.',
    deviceMessage: 'Too many orders with these contact details.',
  },
  submit_contact_message: {
    ip: 'contact_ip',
    device: 'contact_device',
    contact: (args) => objectArg(args.p),
    id: (args) => objectArg(args.p).id,
    ipMessage: 'Too many messages from this connection.',
    deviceMessage: 'Too many messages with these contact details.',
  },
  join_membership_waitlist: {
    ip: 'waitlist_ip',
    device: 'waitlist_device',
    contact: (args) => objectArg(args.p),
    ipMessage: 'Too many waitlist requests from this connection.',
    deviceMessage: 'Too many waitlist requests for this email.',
  },
  track_order: {
    ip: 'track_order_ip',
    ipMessage: 'Too many order lookups from this connection.',
    deviceMessage: '',
  },
}

/**
 * The rest handler's beforeRpc hook: refuses a call to a limited function with 429 once its
 * connection's or its person's allowance is spent. The service role (the shop's own scripts) is
 * never limited.
 */
export function createRpcRateLimits(limiter: RateLimiter): (call: RpcCall) => void {
  // Ids already counted against their person, oldest first; bounded like the limiter's counters.
  const counted = new Set<string>()
  return (call) => {
    const rule = RULES[call.name]
    if (!rule || !limiter.rules || call.auth.role === 'service_role') return
    const ip = hitAll(limiter, rule.ip, [clientAddress(call.req)])
    if (!ip.ok) throw tooManyRequests(call, rule.ipMessage, ip.retryAfterSeconds)
    if (!rule.device || !rule.contact) return
    const rawId = rule.id?.(call.args)
    const id = typeof rawId === 'string' && rawId.length <= 64 ? `${call.name}:${rawId}` : null
    if (id && counted.has(id)) return
    const device = hitAll(limiter, rule.device, deviceKeys(call, rule.contact(call.args)))
    if (!device.ok) throw tooManyRequests(call, rule.deviceMessage, device.retryAfterSeconds)
    if (id) {
      counted.add(id)
      if (counted.size > 10_000) counted.delete(counted.values().next().value!)
    }
  }
}
