import { describe, expect, it } from 'vitest'
import {
  cleanHistory,
  isFatalError,
  isRateLimited,
  RATE_LIMIT_DEFAULT_WAIT_MS,
  rateLimitedError,
  rateLimitWaitMs,
} from './order-outbox'
import { rateLimitNotice } from './held-back-text'

const limited = {
  code: 'PT429',
  message: 'Too many orders from this connection. Please wait 12 minutes and try again.',
  details: 'Retry after 700 seconds',
}

describe('the outbox and rate limits (docs/decisions/026-rate-limits-and-unaccepted-orders.md)', () => {
  it('treats a 429 as come back later, never as a refusal', () => {
    expect(isRateLimited(limited)).toBe(true)
    expect(isRateLimited({ code: '', message: 'Too Many Requests' }, 429)).toBe(true)
    expect(isRateLimited({ code: '22023', message: 'bad' }, 400)).toBe(false)
    expect(isFatalError(limited)).toBe(false)
  })

  it("waits the server's Retry-After, a default when it names none, at most a day", () => {
    expect(rateLimitWaitMs(limited)).toBe(700_000)
    expect(rateLimitWaitMs({ ...limited, details: null })).toBe(RATE_LIMIT_DEFAULT_WAIT_MS)
    expect(rateLimitWaitMs({ ...limited, details: 'Retry after 9999999 seconds' })).toBe(86_400_000)
  })

  it("keeps the server's words for the screens, marked as a rate limit", () => {
    const stored = rateLimitedError(limited)
    expect(rateLimitNotice(stored)).toBe(limited.message)
    expect(rateLimitNotice('fetch failed')).toBeNull()
    expect(rateLimitNotice(null)).toBeNull()
  })

  it("keeps a status change's reason in the shopper's history", () => {
    expect(
      cleanHistory([
        { status: 'pending', at: 'a', by: 'staff@humo.shop' },
        { status: 'cancelled', at: 'b', reason: ' The shop did not confirm this order. ' },
        { status: 'cancelled', at: 'c', reason: 42 },
      ]),
    ).toEqual([
      { status: 'pending', at: 'a' },
      { status: 'cancelled', at: 'b', reason: 'The shop did not confirm this order.' },
      { status: 'cancelled', at: 'c' },
    ])
  })
})
