import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import type { ActivityEntry } from './activity-api'
import { activityToCsv, actorLabel, changeText } from './activity-text'

const entry = (over: Partial<ActivityEntry> = {}): ActivityEntry => ({
  id: 1,
  at: '2026-11-30T02:30:00.123456Z',
  actorId: 'u1',
  actorEmail: 'bea@humo.test',
  actorRole: 'budtender',
  action: 'order.status',
  entity: 'order',
  entityId: 'o1',
  before: { status: 'pending' },
  after: { status: 'processing' },
  ...over,
})

describe('activity in words', () => {
  it('says who and what changed, field by field', () => {
    expect(actorLabel(entry())).toBe('bea@humo.test (budtender)')
    expect(actorLabel(entry({ actorId: null }))).toBe('The shop (automatic)')
    expect(changeText(entry())).toBe('status: pending → processing')
    expect(changeText(entry({ before: null, after: { role: 'driver', note: 'Night' } }))).toBe(
      'role: driver; note: Night',
    )
    expect(changeText(entry({ before: { role: 'owner' }, after: null }))).toBe(
      'role: owner → removed',
    )
  })

  it('exports a CSV whose cells are never formulas, with the shop time', () => {
    const csv = activityToCsv([entry({ actorEmail: '=HYPERLINK("x")' })])
    const [header, row] = Papa.parse<string[]>(csv.trim()).data
    expect(header).toContain('at_shop_time')
    expect(row![1]).toBe('Nov 29, 2026, 6:30 PM PST')
    expect(row![2]).toBe('\'=HYPERLINK("x")')
    expect(JSON.parse(row![10]!)).toEqual({ status: 'processing' })
  })
})
