import { describe, expect, it } from 'vitest'
import { MENU } from './menu-categories'

describe('the menu categories’ promotion lines', () => {
  it('carry no price, discount or other number that no product backs', () => {
    for (const entry of MENU) expect(entry.promotion, entry.slug).not.toMatch(/\d|%|\$/)
  })
})
