import { describe, expect, it } from 'vitest'
import { checkPurchaseLimits } from './purchase-limits'

describe('purchase limits', () => {
  it('allows exactly 28.5 g of flower and 8 g of concentrate', () => {
    const usage = checkPurchaseLimits([
      { categorySlug: 'flower', weightGrams: 3.5, quantity: 7 },
      { categorySlug: 'flower', weightGrams: 1, quantity: 4 },
      { categorySlug: 'concentrates', weightGrams: 1, quantity: 8 },
    ])
    expect(usage).toEqual({ flowerGrams: 28.5, concentrateGrams: 8, problems: [] })
  })

  it('names each limit that is exceeded', () => {
    const usage = checkPurchaseLimits([
      { categorySlug: 'flower', weightGrams: 28, quantity: 2 },
      { categorySlug: 'concentrates', weightGrams: 1, quantity: 9 },
    ])
    expect(usage.problems).toEqual([
      'California allows at most 28.5 g of flower per order; this order has 56 g.',
      'California allows at most 8 g of concentrate per order; this order has 9 g.',
    ])
  })

  it('does not count edibles, bags or wholesale, nor items without a weight', () => {
    const usage = checkPurchaseLimits([
      { categorySlug: 'edibles', weightGrams: 100, quantity: 5 },
      { categorySlug: 'wholesale', weightGrams: 448, quantity: 1 },
      { categorySlug: 'branded-bags', weightGrams: null, quantity: 3 },
      { categorySlug: 'flower', weightGrams: null, quantity: 3 },
    ])
    expect(usage).toEqual({ flowerGrams: 0, concentrateGrams: 0, problems: [] })
  })
})
