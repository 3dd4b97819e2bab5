import { describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS, MAX_COUNTERS, parseRateLimits, RateLimiter } from './rate-limits'

describe('RateLimiter', () => {
  it('refuses once the window is spent, with the seconds left, and forgives after it', () => {
    let now = 1_000_000
    const limiter = new RateLimiter(
      { ...DEFAULT_RATE_LIMITS, sign_in_account: { max: 3, windowSeconds: 60 } },
      () => now,
    )
    for (let i = 0; i < 3; i++)
      expect(limiter.hit('sign_in_account', 'a@b.c')).toEqual({ ok: true })
    now += 15_000
    expect(limiter.hit('sign_in_account', 'a@b.c')).toEqual({ ok: false, retryAfterSeconds: 45 })
    expect(limiter.peek('sign_in_account', 'a@b.c').ok).toBe(false)
    // Another key and another limit are counted apart.
    expect(limiter.hit('sign_in_account', 'x@b.c').ok).toBe(true)
    expect(limiter.hit('sign_in_ip', 'a@b.c').ok).toBe(true)
    now += 45_000
    expect(limiter.hit('sign_in_account', 'a@b.c').ok).toBe(true)
  })

  it('peek counts nothing and reset forgets a key', () => {
    const limiter = new RateLimiter({
      ...DEFAULT_RATE_LIMITS,
      recover_account: { max: 1, windowSeconds: 60 },
    })
    for (let i = 0; i < 5; i++) expect(limiter.peek('recover_account', 'k').ok).toBe(true)
    expect(limiter.hit('recover_account', 'k').ok).toBe(true)
    expect(limiter.hit('recover_account', 'k').ok).toBe(false)
    limiter.reset('recover_account', 'k')
    expect(limiter.hit('recover_account', 'k').ok).toBe(true)
  })

  it('holds a bounded number of counters under a flood of distinct keys', () => {
    let now = 0
    const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS }, () => now)
    for (let i = 0; i < MAX_COUNTERS * 2; i++) {
      now += 1
      limiter.hit('contact_device', `email:${i}@example.com`)
    }
    expect(limiter.size).toBeLessThanOrEqual(MAX_COUNTERS)
    // The newest keys are still counted.
    const last = `email:${MAX_COUNTERS * 2 - 1}@example.com`
    for (let i = 1; i < DEFAULT_RATE_LIMITS.contact_device.max; i++)
      expect(limiter.hit('contact_device', last).ok).toBe(true)
    expect(limiter.hit('contact_device', last).ok).toBe(false)
  })

  it('lets everything through when the limits are off', () => {
    const limiter = new RateLimiter(null)
    for (let i = 0; i < 1000; i++) expect(limiter.hit('place_order_ip', '1.2.3.4').ok).toBe(true)
  })
})

describe('parseRateLimits (HUMO_RATE_LIMITS)', () => {
  it('keeps the defaults when unset, turns off with "off", and overrides by name', () => {
    expect(parseRateLimits(undefined)).toEqual(DEFAULT_RATE_LIMITS)
    expect(parseRateLimits(' OFF ')).toBeNull()
    const rules = parseRateLimits('sign_in_ip=100/60, place_order_ip=500/3600')!
    expect(rules.sign_in_ip).toEqual({ max: 100, windowSeconds: 60 })
    expect(rules.place_order_ip).toEqual({ max: 500, windowSeconds: 3600 })
    expect(rules.contact_ip).toEqual(DEFAULT_RATE_LIMITS.contact_ip)
  })

  it('refuses unknown names and malformed values instead of silently using defaults', () => {
    expect(() => parseRateLimits('sign_in=5/60')).toThrow(/HUMO_RATE_LIMITS/)
    expect(() => parseRateLimits('sign_in_ip=5')).toThrow(/name=max\/seconds/)
    expect(() => parseRateLimits('sign_in_ip=0/60')).toThrow(/at least 1/)
  })
})
