// The sync property (issue 26) over many schedules: shoppers and staff against the embedded
// server with the network as the adversary (tests/integration/sync-property). Prints
// `sync property: N schedules, M divergences`, each divergent schedule with the command that
// replays it (and shrinks it) in the test, and writes its figures (bench-figures.ts).
//
// The schedules are shared out between worker processes (docs/decisions/044-sync-property-bench-in-workers.md), each with its own world:
// its own embedded server on its own temp folder and its own devices. One fast-check seed for the
// whole run: schedule i is the i-th value of that seed wherever it runs (a worker asks fast-check
// for it with `path: "i"`), so `HUMO_SYNC_SEED=<seed> HUMO_SYNC_PATH=<i>` replays it in the test.
//
// Run: npm run bench -- sync [--schedules 10000] [--seed 42] [--workers 3]
//      (or npx tsx tests/bench/sync-property-bench.ts --schedules 200)
import { fork, type ChildProcess } from 'node:child_process'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { writeBenchFigures } from './bench-figures'
import { SyncWorld, type Action } from '../integration/sync-property/sync-world'
import { runSchedule, scheduleArb } from '../integration/sync-property/sync-schedule'

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  const value = at >= 0 ? Number(process.argv[at + 1]) : NaN
  return Number.isFinite(value) ? value : fallback
}

const TEST = 'tests/integration/sync-property/sync-property.test.ts'

/** Parent to worker: run schedules [from, from + count), or stop. */
type Order = { type: 'run'; from: number; count: number } | { type: 'stop' }
/** Worker to parent. */
type Report =
  | { type: 'ready' }
  | {
      type: 'schedule'
      index: number
      problems: string[]
      schedule: Action[] | null
      /** The run's log (actions, staff moves and pulls) when it diverged. */
      log: string[] | null
      orders: number
      moves: number
      cpuMs: number
    }
  | { type: 'done' }

// ---------------------------------------------------------------------------------------------
// A worker: one world, the slices of schedules the parent hands it.

async function worker(seed: number) {
  const send = (report: Report) => process.send!(report)
  const world = new SyncWorld()
  // Ctrl-C reaches the workers too: their server's folder may be in RAM (/dev/shm).
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      world.removeData()
      process.exit(130)
    })
  await world.start()
  let queue = Promise.resolve()
  process.on('message', (order: Order) => {
    queue = queue.then(async () => {
      if (order.type === 'stop') {
        await world.close()
        process.exit(0)
      }
      let index = order.from
      await fc.check(
        fc.asyncProperty(scheduleArb, async (schedule) => {
          const at = index++
          const cpu = process.cpuUsage()
          let problems: string[]
          try {
            problems = await runSchedule(world, schedule)
          } catch (error) {
            problems = [`the run failed: ${error instanceof Error ? error.message : String(error)}`]
          }
          const used = process.cpuUsage(cpu)
          send({
            type: 'schedule',
            index: at,
            problems,
            schedule: problems.length > 0 ? schedule : null,
            log: problems.length > 0 ? world.log : null,
            orders: world.lastStats.orders,
            moves: world.lastStats.moves,
            cpuMs: (used.user + used.system) / 1000,
          })
          return true
        }),
        // Schedule `from` of this seed, then the ones after it: the same values as one run.
        { numRuns: order.count, seed, path: String(order.from) },
      )
      send({ type: 'done' })
    })
  })
  send({ type: 'ready' })
}

// ---------------------------------------------------------------------------------------------
// The parent: hands out slices, gathers the results, prints and writes the figures.

async function main() {
  const schedules = option('schedules', 10_000)
  const seed = option('seed', Date.now() % 2_147_483_647)
  // Each worker's time is part waiting (the network's delays, timers, the server's fsyncs), so a
  // worker more than the cores keeps them busy (docs/decisions/044-sync-property-bench-in-workers.md).
  const workers = Math.max(1, Math.min(option('workers', availableParallelism() + 1), schedules))
  const loadAtStart = loadavg()[0]!
  const started = performance.now()
  const divergent: { index: number; schedule: Action[]; problems: string[] }[] = []
  let finished = 0
  let orders = 0
  let moves = 0
  let cpuMs = 0
  let next = 0
  // Slices handed back by a worker that died, run before new ones.
  const spare: { from: number; count: number }[] = []
  const slice = () => {
    // Slices shrink towards the end, so the workers finish together.
    const left = schedules - next
    const count = Math.max(1, Math.min(20, Math.ceil(left / (workers * 3))))
    const from = next
    next += Math.min(count, left)
    return { from, count: Math.min(count, left) }
  }

  const onReport = (report: Report) => {
    if (report.type !== 'schedule') return
    finished++
    orders += report.orders
    moves += report.moves
    cpuMs += report.cpuMs
    if (report.problems.length > 0) {
      const { index, problems, schedule } = report
      divergent.push({ index, schedule: schedule ?? [], problems })
      console.log(`divergence in schedule ${index}: ${problems.join('; ')}`)
      console.log(`  schedule: ${JSON.stringify(schedule)}`)
      if (report.log) console.log(`  log: ${report.log.join(' ')}`)
      console.log(`  replay: HUMO_SYNC_SEED=${seed} HUMO_SYNC_PATH=${index} npx vitest run ${TEST}`)
    }
    if (finished % 100 === 0) {
      const s = (performance.now() - started) / 1000
      console.log(
        `  ${finished} schedules in ${s.toFixed(0)} s, ${divergent.length} divergences (load ${loadavg()[0]!.toFixed(1)})`,
      )
    }
  }

  /** One worker process, kept busy until no slice is left; a crash is a divergence. */
  const runWorker = () =>
    new Promise<void>((resolve) => {
      let current: { from: number; count: number; seen: Set<number> } | null = null
      const child: ChildProcess = fork(fileURLToPath(import.meta.url), process.argv.slice(2), {
        execArgv: process.execArgv,
        env: { ...process.env, HUMO_SYNC_BENCH_WORKER: String(seed) },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
      const give = () => {
        if (next >= schedules && spare.length === 0) {
          current = null
          child.send({ type: 'stop' } satisfies Order)
          return
        }
        const { from, count } = spare.shift() ?? slice()
        current = { from, count, seen: new Set() }
        child.send({ type: 'run', from, count } satisfies Order)
      }
      child.on('message', (report: Report) => {
        if (report.type === 'schedule') current?.seen.add(report.index)
        onReport(report)
        if (report.type === 'ready' || report.type === 'done') give()
      })
      child.on('exit', (code, signal) => {
        if (current) {
          // Died mid-slice (an unhandled error): the schedule under way is a divergence, the
          // rest of its slice goes to a new worker.
          const { from, count, seen } = current
          const under = Array.from({ length: count }, (_, i) => from + i).find((i) => !seen.has(i))
          if (under !== undefined) {
            onReport({
              type: 'schedule',
              index: under,
              problems: [`the worker process died (${signal ?? `exit ${code}`}) during it`],
              schedule: null,
              log: null,
              orders: 0,
              moves: 0,
              cpuMs: 0,
            })
            const rest = from + count - (under + 1)
            if (rest > 0) spare.push({ from: under + 1, count: rest })
          }
          current = null
          resolve(runWorker())
          return
        }
        resolve()
      })
    })
  await Promise.all(Array.from({ length: workers }, () => runWorker()))

  const seconds = (performance.now() - started) / 1000
  const loadAtEnd = loadavg()[0]!
  const perSchedule = (seconds * 1000) / Math.max(1, finished)
  console.log(`sync property: ${finished} schedules, ${divergent.length} divergences`)
  console.log(
    `  seed ${seed}; ${workers} workers; ${seconds.toFixed(0)} s (${perSchedule.toFixed(0)} ms a schedule, ` +
      `${(cpuMs / Math.max(1, finished)).toFixed(0)} ms of CPU each); ${orders} orders placed, ` +
      `${moves} orders moved by staff; load ${loadAtStart.toFixed(1)} -> ${loadAtEnd.toFixed(1)} on ${cpus().length} cores`,
  )
  writeBenchFigures('sync-property-bench', {
    title: 'Sync property: random multi-device schedules against the embedded server',
    figures: [
      {
        label: 'schedules run',
        value: finished,
        unit: 'schedules',
        goal: { op: '>=', value: schedules },
      },
      {
        label: 'divergences',
        value: divergent.length,
        unit: 'schedules',
        goal: { op: '<=', value: 0 },
      },
      { label: 'wall time', value: Math.round(seconds), unit: 's' },
      { label: 'wall time per schedule (all workers)', value: Math.round(perSchedule), unit: 'ms' },
      {
        label: 'CPU time per schedule (one worker)',
        value: Math.round(cpuMs / Math.max(1, finished)),
        unit: 'ms',
      },
      { label: 'worker processes', value: workers, unit: '' },
      { label: 'orders placed', value: orders, unit: 'orders' },
      { label: 'orders moved by staff', value: moves, unit: 'orders' },
    ],
    notes: [
      `3 shoppers and 2 staff devices (RxDB on fake-indexeddb) against the embedded server on a temp data folder, per worker process; fast-check seed ${seed}.`,
      `Load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end, on ${cpus().length} cores.`,
    ],
    details: { seed, workers, divergent: divergent.slice(0, 20) },
  })
  // A divergence is a figure (its goal unmet in the report), not a crash of the bench run.
  process.exit(0)
}

const workerSeed = process.env.HUMO_SYNC_BENCH_WORKER
;(workerSeed ? worker(Number(workerSeed)) : main()).catch((error: unknown) => {
  console.error(error)
  process.exit(2)
})
