// Sync never loses or doubles anything (issue 26): random schedules of shoppers (3) and staff (2)
// against the embedded server, with the network as the adversary (sync-world.ts, sync-schedule.ts).
// After each schedule the network heals and every contract of DESIGN.md's data and sync and of
// docs/decisions/004-order-status-conflicts.md is checked (SyncWorld.check).
//
// A failure prints fast-check's seed, path and the shrunk schedule. Replay it with:
//   HUMO_SYNC_SEED=<seed> HUMO_SYNC_PATH=<path> npx vitest run tests/integration/sync-property/sync-property.test.ts
// (HUMO_SYNC_RUNS=<n> changes the number of schedules; default 200, or 1 for a path without ':',
// the bench's schedule index.) Timings are real, so a replay re-runs the same actions and faults,
// though not always the same interleaving.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { SyncWorld } from './sync-world'
import { replaySettings, syncProperty } from './sync-schedule'

let world: SyncWorld

beforeAll(async () => {
  world = new SyncWorld()
  await world.start()
})
afterAll(async () => {
  await world?.close()
})

describe('sync property', () => {
  it('loses and doubles nothing, and converges, over random schedules and faults', async () => {
    await fc.assert(syncProperty(world), replaySettings(200))
  }, 600_000)
})
