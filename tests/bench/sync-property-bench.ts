// The sync property (issue 26) over many schedules: shoppers and staff against the embedded
// server with the network as the adversary (tests/integration/sync-property). Prints
// `sync property: N schedules, M divergences`, each divergent schedule with the command that
// replays it (and shrinks it) in the test, and writes its figures (bench-figures.ts).
//
// Run: npm run bench -- sync [--schedules 10000] [--seed 42]
//      (or npx tsx tests/bench/sync-property-bench.ts --schedules 200)
import { cpus, loadavg } from 'node:os'
import fc from 'fast-check'
import { writeBenchFigures } from './bench-figures'
import { SyncWorld, type Action } from '../integration/sync-property/sync-world'
import { runSchedule, scheduleArb } from '../integration/sync-property/sync-schedule'

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  const value = at >= 0 ? Number(process.argv[at + 1]) : NaN
  return Number.isFinite(value) ? value : fallback
}

const schedules = option('schedules', 10_000)
const seed = option('seed', Date.now() % 2_147_483_647)
const TEST = 'tests/integration/sync-property/sync-property.test.ts'

async function main() {
  const load = loadavg()[0]!
  const world = new SyncWorld()
  await world.start()
  const divergent: { index: number; schedule: Action[]; problems: string[] }[] = []
  let index = 0
  let orders = 0
  let moves = 0
  const started = performance.now()
  await fc.check(
    fc.asyncProperty(scheduleArb, async (schedule) => {
      const at = index++
      let problems: string[]
      try {
        problems = await runSchedule(world, schedule)
      } catch (error) {
        problems = [`the run failed: ${error instanceof Error ? error.message : String(error)}`]
      }
      const stats = world.lastStats
      orders += stats.orders
      moves += stats.moves
      if (problems.length > 0) {
        divergent.push({ index: at, schedule, problems })
        console.log(`divergence in schedule ${at}: ${problems.join('; ')}`)
        console.log(`  schedule: ${JSON.stringify(schedule)}`)
        console.log(`  replay: HUMO_SYNC_SEED=${seed} HUMO_SYNC_PATH=${at} npx vitest run ${TEST}`)
      }
      if (index % 100 === 0) {
        const s = (performance.now() - started) / 1000
        console.log(`  ${index} schedules in ${s.toFixed(0)} s, ${divergent.length} divergences`)
      }
      return true
    }),
    { numRuns: schedules, seed },
  )
  const seconds = (performance.now() - started) / 1000
  await world.close()
  console.log(`sync property: ${index} schedules, ${divergent.length} divergences`)
  console.log(
    `  seed ${seed}; ${seconds.toFixed(0)} s (${((seconds * 1000) / Math.max(1, index)).toFixed(0)} ms a schedule); ` +
      `${orders} orders placed, ${moves} orders moved by staff; load ${load.toFixed(1)} on ${cpus().length} cores`,
  )
  writeBenchFigures('sync-property-bench', {
    title: 'Sync property: random multi-device schedules against the embedded server',
    figures: [
      {
        label: 'schedules run',
        value: index,
        unit: 'schedules',
        goal: { op: '>=', value: schedules },
      },
      {
        label: 'divergences',
        value: divergent.length,
        unit: 'schedules',
        goal: { op: '<=', value: 0 },
      },
      {
        label: 'time per schedule',
        value: Math.round((seconds * 1000) / Math.max(1, index)),
        unit: 'ms',
      },
      { label: 'orders placed', value: orders, unit: 'orders' },
      { label: 'orders moved by staff', value: moves, unit: 'orders' },
    ],
    notes: [
      `3 shoppers and 2 staff devices (RxDB on fake-indexeddb) against the embedded server on a temp data folder; fast-check seed ${seed}.`,
      `Load average ${load.toFixed(1)} on ${cpus().length} cores at the start.`,
    ],
    details: { seed, divergent: divergent.slice(0, 20) },
  })
  // A divergence is a figure (its goal unmet in the report), not a crash of the bench run.
  process.exit(0)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(2)
})
