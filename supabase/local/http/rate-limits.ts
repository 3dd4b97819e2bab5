// Rate limits of the embedded server (issue 23, finding 4), modelled on GoTrue's: a fixed number
// of events per rolling window, counted per key (an IP address, an account's email, a device's
// session), answered with 429 and Retry-After once spent. Counters live in memory: a restart
// forgives everyone, which is what GoTrue does too, and keeps every hot path off the
// single-connection database. The limits are settings (HUMO_RATE_LIMITS) with safe defaults;
// "off" turns them all off for load tests and the server warns when it is.
export type RateLimitName =
  | 'sign_in_ip'
  | 'sign_in_account'
  | 'sign_up_ip'
  | 'recover_ip'
  | 'recover_account'
  | 'verify_ip'
  | 'token_refresh_ip'
  | 'place_order_ip'
  | 'place_order_device'
  | 'contact_ip'
  | 'contact_device'
  | 'track_order_ip'
  | 'waitlist_ip'
  | 'waitlist_device'

export interface RateLimitRule {
  /** Events allowed in one window. */
  max: number
  windowSeconds: number
}

export type RateLimitRules = Record<RateLimitName, RateLimitRule>

/**
 * Defaults: generous for a real person (a shopper retyping a password, a family ordering from
 * one Wi-Fi), far below what a script needs to guess passwords or drain stock.
 */
export const DEFAULT_RATE_LIMITS: RateLimitRules = {
  // GoTrue: 30 sign-ins / 5 min per IP; a wrong password 5 times in 15 min locks that account.
  sign_in_ip: { max: 30, windowSeconds: 300 },
  sign_in_account: { max: 5, windowSeconds: 900 },
  sign_up_ip: { max: 10, windowSeconds: 3600 },
  recover_ip: { max: 10, windowSeconds: 3600 },
  recover_account: { max: 3, windowSeconds: 3600 },
  verify_ip: { max: 30, windowSeconds: 300 },
  token_refresh_ip: { max: 300, windowSeconds: 300 },
  place_order_ip: { max: 20, windowSeconds: 3600 },
  place_order_device: { max: 5, windowSeconds: 3600 },
  contact_ip: { max: 10, windowSeconds: 3600 },
  contact_device: { max: 3, windowSeconds: 3600 },
  track_order_ip: { max: 60, windowSeconds: 900 },
  // The membership waitlist (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): as the contact form.
  waitlist_ip: { max: 10, windowSeconds: 3600 },
  waitlist_device: { max: 3, windowSeconds: 3600 },
}

/** At most this many counters (about 100 bytes each) are held at once. */
export const MAX_COUNTERS = 100_000

export type RateLimitVerdict = { ok: true } | { ok: false; retryAfterSeconds: number }

/**
 * HUMO_RATE_LIMITS: unset or "" keeps the defaults; "off" turns every limit off (null);
 * otherwise comma-separated overrides "name=max/seconds", e.g. "sign_in_ip=100/60,
 * place_order_ip=500/3600". An unknown name or a malformed value is an error at start, not a
 * silent default.
 */
export function parseRateLimits(value: string | undefined | null): RateLimitRules | null {
  const text = (value ?? '').trim()
  if (text === '') return { ...DEFAULT_RATE_LIMITS }
  if (text.toLowerCase() === 'off') return null
  const rules: RateLimitRules = { ...DEFAULT_RATE_LIMITS }
  for (const part of text.split(',')) {
    const match = /^\s*([a-z_]+)\s*=\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(part)
    if (!match || !(match[1]! in DEFAULT_RATE_LIMITS)) {
      throw new Error(
        `HUMO_RATE_LIMITS: "${part.trim()}" is not name=max/seconds with a name among ${Object.keys(
          DEFAULT_RATE_LIMITS,
        ).join(', ')} (or "off")`,
      )
    }
    const max = Number(match[2])
    const windowSeconds = Number(match[3])
    if (max < 1 || windowSeconds < 1)
      throw new Error(`HUMO_RATE_LIMITS: "${part.trim()}" needs a max and a window of at least 1`)
    rules[match[1] as RateLimitName] = { max, windowSeconds }
  }
  return rules
}

/** Counts events per (limit, key) in fixed windows; `null` rules let everything through. */
export class RateLimiter {
  readonly rules: RateLimitRules | null
  private readonly counters = new Map<string, { windowStart: number; count: number }>()
  private readonly now: () => number
  private sweeps = 0

  constructor(rules: RateLimitRules | null, now: () => number = Date.now) {
    this.rules = rules
    this.now = now
  }

  /** Counts one event for `key` under `name`; refused once the window's allowance is spent. */
  hit(name: RateLimitName, key: string): RateLimitVerdict {
    return this.check(name, key, true)
  }

  /** Whether `key` is already refused under `name`, without counting an event. */
  peek(name: RateLimitName, key: string): RateLimitVerdict {
    return this.check(name, key, false)
  }

  /** Forgets `key` under `name` (e.g. a successful sign-in clears that account's failures). */
  reset(name: RateLimitName, key: string): void {
    this.counters.delete(`${name}\u0000${key}`)
  }

  private check(name: RateLimitName, key: string, count: boolean): RateLimitVerdict {
    const rule = this.rules?.[name]
    if (!rule) return { ok: true }
    const now = this.now()
    const windowMs = rule.windowSeconds * 1000
    const id = `${name}\u0000${key}`
    let counter = this.counters.get(id)
    if (!counter || now - counter.windowStart >= windowMs) {
      counter = { windowStart: now, count: 0 }
      if (count) {
        // Re-inserted so the map stays in order of window start (the oldest go first when full).
        this.counters.delete(id)
        this.counters.set(id, counter)
        if (this.counters.size > MAX_COUNTERS) this.shed(now)
      }
    }
    if (counter.count >= rule.max) {
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil((counter.windowStart + windowMs - now) / 1000)),
      }
    }
    if (count) {
      counter.count++
      if (++this.sweeps % 1000 === 0) this.sweep(now)
    }
    return { ok: true }
  }

  /**
   * Over MAX_COUNTERS keys (a flood of distinct emails or addresses): drops spent windows, then
   * if still full the oldest tenth, so memory stays bounded; forgiving the oldest is the lesser
   * harm than a server that runs out of memory.
   */
  private shed(now: number): void {
    this.sweep(now)
    if (this.counters.size <= MAX_COUNTERS) return
    let drop = Math.ceil(MAX_COUNTERS / 10)
    for (const id of this.counters.keys()) {
      if (drop-- <= 0) break
      this.counters.delete(id)
    }
  }

  /** How many (limit, key) counters are held (tests of the memory bound). */
  get size(): number {
    return this.counters.size
  }

  /** Drops spent windows so a flood of distinct keys cannot grow memory without end. */
  private sweep(now: number): void {
    const longest = Math.max(...Object.values(this.rules ?? {}).map((r) => r.windowSeconds)) * 1000
    for (const [id, counter] of this.counters) {
      if (now - counter.windowStart >= longest) this.counters.delete(id)
    }
  }
}
