import { describe, expect, it } from 'vitest'
import { reviewCountText } from './product-tabs'

describe('reviewCountText', () => {
  it('words the count', () => {
    expect(reviewCountText(1)).toBe('1 review')
    expect(reviewCountText(12)).toBe('12 reviews')
  })
})
