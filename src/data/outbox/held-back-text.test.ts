import { describe, expect, it } from 'vitest'
import { heldBackText } from './held-back-text'
import { rateLimitedError } from './order-outbox'

describe('heldBackText', () => {
  const now = new Date('2026-11-26T20:00:00Z')
  const lastError = rateLimitedError({
    code: 'PT429',
    message: 'Too many orders from this connection. Please wait 12 minutes and try again.',
  })

  it('says why the order waits and that the device sends it by itself, with the time', () => {
    const text = heldBackText(
      'order',
      { sync: 'queued', lastError, nextAttemptAt: Date.parse('2026-11-26T20:12:00Z') },
      now,
    )
    expect(text).toBe(
      'Too many orders from this connection. Your order is saved on this device and will be sent again automatically at 12:12 PM; there is no need to place it again.',
    )
  })

  it('says nothing for an order that is not held back by a limit', () => {
    expect(
      heldBackText('order', { sync: 'queued', lastError: 'fetch failed', nextAttemptAt: 0 }, now),
    ).toBeNull()
    expect(heldBackText('order', { sync: 'accepted', lastError, nextAttemptAt: 0 }, now)).toBeNull()
    expect(heldBackText('order', { sync: 'refused', lastError, nextAttemptAt: 0 }, now)).toBeNull()
  })
})

describe('heldBackText of a contact message', () => {
  it('says the message is sent by itself', () => {
    const lastError = rateLimitedError({
      code: 'PT429',
      message: 'Too many messages from this connection. Please wait 40 minutes and try again.',
    })
    expect(
      heldBackText(
        'message',
        { sync: 'queued', lastError, nextAttemptAt: Date.parse('2026-11-26T20:40:00Z') },
        new Date('2026-11-26T20:00:00Z'),
      ),
    ).toBe(
      'Too many messages from this connection. Your message is saved on this device and will be sent automatically at 12:40 PM; there is no need to send it again.',
    )
  })
})
