import { describe, expect, it } from 'vitest'
import { parseReviews, reviewerName, reviewErrorText } from './reviews'

describe('reviews', () => {
  it('keeps only well-formed reviews from an answer', () => {
    const good = {
      id: 'r1',
      productId: 'p1',
      rating: 4,
      body: 'Nice',
      displayName: null,
      createdAt: '2026-11-30T10:00:00Z',
    }
    expect(
      parseReviews([
        good,
        { ...good, rating: 0 },
        { ...good, id: 3 },
        null,
        'x',
        { ...good, hidden: true },
      ]),
    ).toEqual([good, { ...good, hidden: true }])
    expect(parseReviews({ rows: [] })).toEqual([])
  })

  it('words the reviewer', () => {
    expect(reviewerName({ displayName: null })).toBe('Verified buyer')
    expect(reviewerName({ displayName: 'Rosa' })).toBe('Rosa')
  })

  it("shows the server's refusal, and says a failed fetch needs a connection", () => {
    expect(reviewErrorText({ message: 'That product is not in this order', code: '22023' })).toBe(
      'That product is not in this order',
    )
    expect(reviewErrorText({ message: 'TypeError: Failed to fetch' })).toMatch(/need a connection/)
  })
})
