// The schedules the sync property draws (fast-check arbitraries), and the property itself, shared
// by the test (sync-property.test.ts) and the bench (tests/bench/sync-property-bench.ts). Every
// kind of fault is an action here: requests dropped, answers lost, requests delayed (and so
// reordered) and sent twice; devices offline and online; reloads; realtime events that arrive
// (the default is that they are lost); the server stopped and started on the same data. And every
// kind of change: carts, orders placed online and offline (some refused: stock, the purchase
// limit), status moves by one staff device or by both at once, catalogue edits.
import fc from 'fast-check'
import {
  DEVICES,
  PRODUCT_COUNT,
  SHOPPERS,
  STAFF,
  type Action,
  type Fault,
  type SyncWorld,
} from './sync-world'

const shopper = fc.nat({ max: SHOPPERS - 1 })
const device = fc.nat({ max: DEVICES - 1 })
const product = fc.nat({ max: PRODUCT_COUNT - 1 })
const status = fc.constantFrom(
  'pending' as const,
  'processing' as const,
  'shipped' as const,
  'delivered' as const,
  'cancelled' as const,
)
const fault: fc.Arbitrary<Fault> = fc.constantFrom(
  'ok',
  'drop-request',
  'drop-answer',
  'duplicate',
  'delay',
  'delay-answer',
)

export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('add' as const),
      s: shopper,
      p: product,
      q: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('set-qty' as const),
      s: shopper,
      p: product,
      q: fc.integer({ min: 0, max: 3 }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('order' as const),
      s: shopper,
      lines: fc.array(fc.record({ p: product, q: fc.integer({ min: 1, max: 3 }) }), {
        maxLength: 2,
      }),
      via: fc.oneof(fc.constant('offline' as const), fault),
    }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('offline' as const), d: device }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('online' as const), d: device }) },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('faults' as const),
      d: device,
      faults: fc.array(fault, { minLength: 1, maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('reload' as const), d: device }) },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('move' as const),
      st: fc.nat({ max: STAFF - 1 }),
      o: fc.nat({ max: 7 }),
      to: status,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('both-move' as const),
      o: fc.nat({ max: 7 }),
      to: fc.tuple(status, status),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('edit' as const),
      p: product,
      edit: fc.oneof(
        fc.record({ kind: fc.constant('price' as const), price: fc.integer({ min: 1, max: 90 }) }),
        fc.record({ kind: fc.constant('restock' as const), units: fc.integer({ min: 1, max: 4 }) }),
        fc.record({ kind: fc.constant('active' as const), active: fc.boolean() }),
        fc.record({ kind: fc.constant('delete' as const) }),
      ),
    }),
  },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('event' as const), d: device }) },
  { weight: 1, arbitrary: fc.constant({ k: 'server-down' as const }) },
  { weight: 1, arbitrary: fc.constant({ k: 'server-up' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 60 }) }),
  },
)

export const scheduleArb = fc.array(actionArb, { minLength: 1, maxLength: 16 })

/** Runs one schedule in a fresh run of the world; the divergences found (none when all is well). */
export async function runSchedule(world: SyncWorld, actions: Action[]): Promise<string[]> {
  const t0 = performance.now()
  const cpu = cpuMarks()
  await world.beginRun()
  try {
    const t1 = performance.now()
    cpu('begin')
    for (const action of actions) await world.apply(action)
    const t2 = performance.now()
    cpu('actions')
    await world.heal()
    const t3 = performance.now()
    cpu('heal')
    const problems = await world.check()
    cpu('check')
    if (process.env.HUMO_SYNC_DEBUG)
      console.error(
        `run ${world.run}: begin ${(t1 - t0).toFixed(0)} ms, actions ${(t2 - t1).toFixed(0)}, heal ${(t3 - t2).toFixed(0)}, check ${(performance.now() - t3).toFixed(0)}; cpu ${JSON.stringify(cpu.times)}; ${JSON.stringify(world.stats())} ${JSON.stringify(world.healTimes)} ${world.log.join(' ')}`,
      )
    return problems
  } catch (error) {
    if (process.env.HUMO_SYNC_DEBUG) console.error('run failed', error)
    throw error
  } finally {
    const t4 = performance.now()
    const endCpu = cpuMarks()
    await world.endRun()
    endCpu('end')
    if (process.env.HUMO_SYNC_DEBUG)
      console.error(
        `run ${world.run}: end ${(performance.now() - t4).toFixed(0)} ms, cpu ${endCpu.times.end} ms`,
      )
  }
}

/** CPU time (this process, ms) spent in each step since the last mark, for the debug output. */
function cpuMarks() {
  let last = process.cpuUsage()
  const times: Record<string, number> = {}
  return Object.assign(
    (step: string) => {
      const used = process.cpuUsage(last)
      times[step] = Math.round((used.user + used.system) / 1000)
      last = process.cpuUsage()
    },
    { times },
  )
}

/** The property: after any schedule and the network healed, nothing diverges. */
export function syncProperty(world: SyncWorld) {
  return fc.asyncProperty(scheduleArb, async (actions) => {
    const problems = await runSchedule(world, actions)
    if (problems.length > 0) throw new Error(`divergences:\n  ${problems.join('\n  ')}`)
  })
}

/** fast-check's settings from the environment: HUMO_SYNC_SEED, HUMO_SYNC_PATH, HUMO_SYNC_RUNS. */
export function replaySettings(defaultRuns: number): fc.Parameters<[Action[]]> {
  const seed = process.env.HUMO_SYNC_SEED
  const path = process.env.HUMO_SYNC_PATH
  // A path of one schedule (the bench's `HUMO_SYNC_PATH=<index>`) replays that schedule alone.
  const runs = process.env.HUMO_SYNC_RUNS ?? (path && !path.includes(':') ? 1 : defaultRuns)
  return {
    numRuns: Number(runs),
    ...(seed ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
    endOnFailure: false,
  }
}
