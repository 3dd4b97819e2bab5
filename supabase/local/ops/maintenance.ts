// The embedded server's stand-in for autovacuum (docs/decisions/048-maintenance-instead-of-autovacuum.md). PGlite runs Postgres in
// single-user mode: no autovacuum launcher, so no table was ever vacuumed or analyzed. The tables
// a shop churns (the realtime change queue, realtime.messages, catalogue_changes, products and
// orders updated by every order, sessions, import staging) kept their dead rows for good, their
// files grew, and the planner kept the statistics of the demo catalogue. Every minute this job
// reads the statistics Postgres still keeps (pg_stat_all_tables) and, with autovacuum's formula,
// vacuums or analyzes the tables that passed its thresholds in short statements (a VACUUM, then an
// ANALYZE on a small sample), the shop's requests let in between (PGlite has one connection:
// everything waits while a statement runs), a few tables per round, and a round put off while
// requests are under way.
import type { PGlite } from '@electric-sql/pglite'

/** autovacuum's defaults (postgresql.conf): a table is due past base + scale × its rows. */
export interface MaintenanceThresholds {
  vacuumBase: number
  vacuumScale: number
  /** Rows inserted since the last vacuum (autovacuum_vacuum_insert_*): visibility map, freezing. */
  insertBase: number
  insertScale: number
  analyzeBase: number
  analyzeScale: number
}

export const DEFAULT_THRESHOLDS: MaintenanceThresholds = {
  vacuumBase: 50,
  vacuumScale: 0.2,
  insertBase: 1000,
  insertScale: 0.2,
  analyzeBase: 50,
  analyzeScale: 0.1,
}

/** What a round did to one table, and how long its statements took (queueing included). */
export interface MaintenanceStep {
  table: string
  vacuum: boolean
  analyze: boolean
  ms: number
}

export interface MaintenanceRound {
  steps: MaintenanceStep[]
  /** Tables due that this round left for the next (maxStepsPerRound). */
  left: number
  /** True when the round did not run because requests were under way. */
  skipped: boolean
}

export interface Maintenance {
  /** Runs one round now (tests, benches); resolves to what it did. */
  runOnce(options?: { force?: boolean }): Promise<MaintenanceRound>
  close(): Promise<void>
}

export interface MaintenanceOptions {
  /** How often a round runs (ms); 0 never (a round only through runOnce). Default 60 000. */
  intervalMs?: number
  thresholds?: MaintenanceThresholds
  /** At most this many tables per round; the rest wait for the next. Default 4. */
  maxStepsPerRound?: number
  /**
   * ANALYZE's statistics target (rows sampled: 300 × it). Default 30: a 100,000-row table took
   * 180–260 ms to analyze at Postgres' default of 100, 36 ms at 30 (docs/decisions/048-maintenance-instead-of-autovacuum.md).
   */
  statisticsTarget?: number
  /** Whether the shop is serving requests now: a round is then put off, at most maxSkips times. */
  busy?: () => boolean
  maxSkips?: number
  warn?: (message: string) => void
}

interface DueTable {
  table: string
  vacuum: boolean
  analyze: boolean
}

/**
 * Tables past autovacuum's thresholds, the most overdue first. Catalogue tables are included (a
 * migration or a temporary table churns pg_class, pg_attribute); toast tables are vacuumed with
 * their table, and temporary ones belong to the session that made them. Unlogged ones are
 * included: the import staging tables (private schema) churn most of all.
 */
async function dueTables(db: PGlite, t: MaintenanceThresholds): Promise<DueTable[]> {
  // Statistics reach the shared view at most once a second: flush this session's now.
  await db.query('select pg_stat_force_next_flush()')
  const { rows } = await db.query<DueTable>(
    `with t as (select $1::float8 as vb, $2::float8 as vs, $3::float8 as ib, $4::float8 as "is",
                       $5::float8 as ab, $6::float8 as "as"),
     s as (
       select format('%I.%I', s.schemaname, s.relname) as "table",
              s.n_dead_tup / (vb + vs * greatest(c.reltuples, 0)) as dead,
              s.n_ins_since_vacuum / (ib + "is" * greatest(c.reltuples, 0)) as inserted,
              s.n_mod_since_analyze / (ab + "as" * greatest(c.reltuples, 0)) as modified
         from pg_stat_all_tables s join pg_class c on c.oid = s.relid, t
        where c.relkind in ('r', 'm') and c.relpersistence <> 't'
          and s.schemaname not in ('pg_toast', 'information_schema'))
     select "table", dead > 1 or inserted > 1 as vacuum, modified > 1 as analyze
       from s
      where greatest(dead, inserted, modified) > 1
      order by greatest(dead, inserted, modified) desc`,
    [t.vacuumBase, t.vacuumScale, t.insertBase, t.insertScale, t.analyzeBase, t.analyzeScale],
  )
  return rows.map(({ table, vacuum, analyze }) => ({ table, vacuum, analyze }))
}

/**
 * VACUUM does not truncate a file's empty tail: that truncation is not a write the durable
 * filesystem sees, so it could reach the disk before the WAL that records it (group commit defers
 * that fsync, docs/decisions/041-group-commit.md), and a crash then would leave WAL pointing past the end of the file.
 * Freed space is reused instead: a churned table stops growing, it does not shrink.
 */
const vacuumStatement = (table: string) => `vacuum (truncate false) ${table}`

/** A macrotask: the requests that queued behind a step get the database before the next one. */
const yieldToRequests = () => new Promise<void>((done) => setImmediate(done))

export function startMaintenance(db: PGlite, options: MaintenanceOptions = {}): Maintenance {
  const {
    intervalMs = 60_000,
    thresholds = DEFAULT_THRESHOLDS,
    maxStepsPerRound = 4,
    statisticsTarget = 30,
    busy = () => false,
    maxSkips = 4,
    warn = (message: string) => console.warn(`[humo-backend] ${message}`),
  } = options
  // Written into the statement below: a number a caller chose, never input from a request.
  if (!Number.isInteger(statisticsTarget) || statisticsTarget < 1 || statisticsTarget > 10_000)
    throw new Error(`statisticsTarget must be an integer from 1 to 10000, got ${statisticsTarget}`)
  let running: Promise<MaintenanceRound> | null = null
  let closed = false
  let skips = 0

  const round = async (force: boolean): Promise<MaintenanceRound> => {
    // Under load a round waits for a quieter minute, but never forever: dead rows slow the load.
    if (!force && busy() && skips < maxSkips) {
      skips++
      return { steps: [], left: 0, skipped: true }
    }
    skips = 0
    const due = await dueTables(db, thresholds)
    const steps: MaintenanceStep[] = []
    for (const table of due.slice(0, maxStepsPerRound)) {
      if (closed) break
      let ms = 0
      // VACUUM and ANALYZE as two statements, the shop's requests let in before each.
      if (table.vacuum) {
        await yieldToRequests()
        const started = performance.now()
        await db.exec(vacuumStatement(table.table))
        ms += performance.now() - started
      }
      if (table.analyze && !closed) {
        await yieldToRequests()
        const started = performance.now()
        // ANALYZE (unlike VACUUM) runs in a transaction, so the target is set for it alone.
        await db.transaction(async (tx) => {
          await tx.exec(`set local default_statistics_target = ${statisticsTarget}`)
          await tx.exec(`analyze ${table.table}`)
        })
        ms += performance.now() - started
      }
      steps.push({ ...table, ms })
    }
    return { steps, left: due.length - steps.length, skipped: false }
  }

  const runOnce = ({ force = true } = {}): Promise<MaintenanceRound> => {
    running ??= round(force).finally(() => {
      running = null
    })
    return running
  }

  const timer =
    intervalMs > 0
      ? setInterval(() => {
          if (closed || running) return
          runOnce({ force: false }).catch((error: unknown) => {
            // Retried at the next round; the tables only stay as they are a minute longer.
            if (!closed) warn(`database maintenance failed: ${String(error)}`)
          })
        }, intervalMs)
      : null
  // Never keeps the process alive on its own.
  timer?.unref()

  return {
    runOnce,
    async close() {
      closed = true
      if (timer) clearInterval(timer)
      await running?.catch(() => undefined)
    },
  }
}
