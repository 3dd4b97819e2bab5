// The shrunk schedules the sync property test (sync-property.test.ts) failed on, kept as plain
// tests: each failed before its fix, named in its title.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SyncWorld, type Action } from './sync-world'
import { runSchedule } from './sync-schedule'

let world: SyncWorld

beforeAll(async () => {
  world = new SyncWorld()
  await world.start()
})
afterAll(async () => {
  await world?.close()
})

const regressions: { title: string; schedule: Action[] }[] = [
  {
    // Fixed by supabase/migrations/20261126134200_reopened_orders_take_stock.sql (decision 042):
    // the reopened order's units were on the shelf and sold at once.
    title: 'an order cancelled and reopened by staff holds its stock again',
    schedule: [
      { k: 'move', st: 0, o: 0, to: 'cancelled' },
      { k: 'move', st: 0, o: 0, to: 'pending' },
    ],
  },
]

describe('sync regressions', () => {
  for (const { title, schedule } of regressions) {
    it(
      title,
      async () => {
        expect(await runSchedule(world, schedule)).toEqual([])
      },
      120_000,
    )
  }
})
