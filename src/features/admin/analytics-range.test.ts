import { describe, expect, it } from 'vitest'
import { parseAdminSearch } from './admin-search'
import { ordersInRange, resolveRange, revenueByShopDay } from './analytics-range'

const TODAY = '2026-11-28'
const order = (id: string, createdAt: string, total: number, status = 'delivered') => ({
  id,
  status,
  total,
  createdAt,
  items: [],
})

describe('analytics date range', () => {
  it('reads the address: known ranges and real days only', () => {
    expect(parseAdminSearch({ days: 7 })).toEqual({ days: 7 })
    expect(parseAdminSearch({ days: '90' })).toEqual({ days: 90 })
    expect(parseAdminSearch({ from: '2026-11-01', to: '2026-11-28' })).toEqual({
      from: '2026-11-01',
      to: '2026-11-28',
    })
    expect(parseAdminSearch({ days: 365, from: '2026-02-30', to: '<script>' })).toEqual({})
  })

  it('counts the last N shop days, today included, 30 by default', () => {
    expect(resolveRange({}, TODAY)).toMatchObject({ from: '2026-10-30', to: TODAY, days: 30 })
    expect(resolveRange({ days: 7 }, TODAY)).toMatchObject({
      from: '2026-11-22',
      days: 7,
      label: 'Last 7 days',
    })
    expect(resolveRange({ days: 90 }, TODAY).days).toBe(90)
  })

  it('takes custom dates, and says why it cannot', () => {
    expect(resolveRange({ from: '2026-11-01', to: '2026-11-10' }, TODAY)).toMatchObject({
      days: 10,
      label: 'Nov 1, 2026 – Nov 10, 2026',
      choice: 'custom',
    })
    const backwards = resolveRange({ from: '2026-11-10', to: '2026-11-01' }, TODAY)
    expect(backwards.days).toBe(30)
    expect(backwards.problem).toMatch(/on or before/)
    expect(resolveRange({ from: '2024-01-01', to: TODAY }, TODAY).problem).toMatch(
      /at most 366 days/,
    )
    expect(resolveRange({ to: TODAY }, TODAY).problem).toMatch(/both a From and a To/)
  })

  it('keeps the orders of the range by shop day, and sums revenue per day without cancelled', () => {
    const orders = [
      // 7:30 PM in Los Angeles on Nov 9 is already Nov 10 in UTC.
      order('a', '2026-11-10T03:30:00Z', 100),
      order('b', '2026-11-10T18:00:00Z', 1820.32),
      order('c', '2026-11-10T19:00:00Z', 999, 'cancelled'),
      order('d', '2026-11-12T18:00:00Z', 5),
    ]
    const range = resolveRange({ from: '2026-11-10', to: '2026-11-11' }, TODAY)
    const kept = ordersInRange(orders, range)
    expect(kept.map((o) => o.id)).toEqual(['b', 'c'])
    expect(revenueByShopDay(kept, range)).toEqual([
      { day: '2026-11-10', revenue: 1820.32, orders: 1 },
      { day: '2026-11-11', revenue: 0, orders: 0 },
    ])
  })
})
