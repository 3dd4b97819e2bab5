// Opens the stand-in's Postgres (PGlite) and brings its schema up to date: on a fresh database
// the bootstrap (what hosted Supabase provides) runs first (its later part, bootstrap-realtime.sql,
// at every start), then every migration in
// supabase/migrations not yet recorded, in file-name order. Applied migrations are recorded in
// supabase_migrations.schema_migrations, the table the Supabase CLI uses for the same purpose.
//
// A database in a folder is durable (docs/decisions/034-durable-commits.md): PGlite's default start turns fsync off
// (-F) and its Emscripten Node filesystem drops fsync and fdatasync, so a commit lived only in the
// OS's page cache until the kernel wrote it back. Here Postgres starts with fsync on and
// wal_sync_method=fsync, and the filesystem's fsync is wired to the disk: every commit's WAL is on
// the disk before the statement returns, so before any answer that reports it. The WAL's fsync at
// a commit runs on libuv's thread pool, after the statement, shared by every commit made meanwhile
// (group commit, docs/decisions/041-group-commit.md): a synchronous one blocked the event loop 2.5–25 ms an order.
import { AsyncLocalStorage } from 'node:async_hooks'
import { closeSync, fsync, fsyncSync, openSync } from 'node:fs'
import { open, readFile, readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import type { NodeFS } from '@electric-sql/pglite/nodefs'
import { makePrivateDir, PrivateNodeFS } from './private-files.ts'

const here = fileURLToPath(new URL('.', import.meta.url))
export const BOOTSTRAP_FILE = join(here, 'bootstrap.sql')
/** The part of the bootstrap that came later: also run at every start of an existing database. */
export const BOOTSTRAP_REALTIME_FILE = join(here, 'bootstrap-realtime.sql')
export const MIGRATIONS_DIR = join(here, '..', '..', 'migrations')

const MIGRATION_FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/

export interface OpenedDatabase {
  db: PGlite
  /** True when this start created the database (bootstrap ran), so it still needs its seed. */
  fresh: boolean
  applied: string[]
}

/** One fsync of a file (or folder) of the database, as the durable filesystem saw it. */
export type FsyncListener = (path: string) => void

/** A WAL segment whose fsync Postgres asked for and the group commit has yet to make. */
interface DeferredWal {
  /** Our own descriptor, so the file is the same one even if Postgres closes or renames it. */
  fd: number
  /** The path as Postgres (Emscripten) names it, for listeners. */
  path: string
}

interface DurableState {
  fsyncs: number
  /** WAL syncs made on the event loop because another file was about to be written or synced. */
  eventLoopSyncs: number
  listeners: Set<FsyncListener>
  /** Real path → segment with a deferred fsync not yet started. */
  pending: Map<string, DeferredWal>
  /** Segments whose deferred fsync runs now on the thread pool; true once synced here too. */
  inFlight: DeferredWal[]
  inFlightSynced: boolean
  /** Counts deferred WAL fsyncs; `synced` is the count up to which they are on the disk. */
  deferred: number
  synced: number
  flushing: Promise<void> | null
  /** An fsync that failed: Postgres would stop (PANIC), so nothing is acknowledged after it. */
  failed: Error | null
}

/** A WAL segment file (pg_wal/ + 24 hex digits): its fsync at a commit can be deferred. */
const WAL_SEGMENT = /\/pg_wal\/[0-9A-F]{24}$/

function noteFsync(state: DurableState, path: string): void {
  state.fsyncs++
  for (const listener of state.listeners) listener(path)
}

/**
 * Makes every deferred WAL fsync now, on this thread: before any other file is written or synced,
 * so the WAL always reaches the disk before the data pages and control file that depend on it.
 */
function syncWalNow(state: DurableState): void {
  if (state.pending.size === 0 && (state.inFlight.length === 0 || state.inFlightSynced)) return
  const target = state.deferred
  state.eventLoopSyncs++
  if (!state.inFlightSynced) for (const wal of state.inFlight) fsyncSync(wal.fd)
  state.inFlightSynced = true
  for (const wal of state.pending.values()) fsyncSync(wal.fd)
  for (const wal of state.pending.values()) {
    closeSync(wal.fd)
    noteFsync(state, wal.path)
  }
  state.pending.clear()
  state.synced = Math.max(state.synced, target)
}

/** One fsync on the thread pool of every deferred segment: the commits made so far share it. */
async function flushDeferredWal(state: DurableState): Promise<void> {
  const target = state.deferred
  const files = [...state.pending.values()]
  state.pending.clear()
  state.inFlight = files
  state.inFlightSynced = false
  try {
    await Promise.all(
      files.map(
        (wal) =>
          new Promise<void>((done, fail) =>
            fsync(wal.fd, (error) => (error ? fail(error) : done())),
          ),
      ),
    )
  } catch (error) {
    state.failed = error as Error
    throw error
  } finally {
    state.inFlight = []
    for (const wal of files) closeSync(wal.fd)
  }
  for (const wal of files) noteFsync(state, wal.path)
  state.synced = Math.max(state.synced, target)
}

/**
 * Where a caller waits for its commit to reach the disk, when it has a say: the REST handler waits
 * outside its client's slot (rest-handler.ts), as that wait holds nothing of the database.
 */
export const durableWaitPlace = new AsyncLocalStorage<
  (wait: () => Promise<void>) => Promise<void>
>()

/** waitForWal where the caller asked (durableWaitPlace), skipped when nothing waits for the disk. */
function settle(state: DurableState): Promise<void> {
  if (state.synced >= state.deferred && !state.failed) return Promise.resolve()
  const place = durableWaitPlace.getStore()
  return place ? place(() => waitForWal(state)) : waitForWal(state)
}

/** Resolves once every commit made before the call is on the disk. */
async function waitForWal(state: DurableState): Promise<void> {
  const target = state.deferred
  while (state.synced < target) {
    if (state.failed) throw state.failed
    state.flushing ??= flushDeferredWal(state).finally(() => {
      state.flushing = null
    })
    await state.flushing
  }
  if (state.failed) throw state.failed
}

const durableStates = new WeakMap<PGlite, DurableState>()

/** Emscripten's NODEFS as far as it is used here: an open file's stream and its operations. */
interface NodeFsStream {
  nfd: number
  path: string
  node: unknown
}
interface EmscriptenNodeFs {
  stream_ops: {
    fsync?: (stream: NodeFsStream) => number
    write: (stream: NodeFsStream, ...rest: unknown[]) => number
  }
  realPath: (node: unknown) => string
}

const ZEROS = new Uint8Array(64 * 1024)

/**
 * Whether a NODEFS write (buffer, offset, length, position) writes nothing but zero bytes. A page
 * with content differs in its first bytes (the page header), so this is cheap for those.
 */
function writesOnlyZeros(args: unknown[]): boolean {
  const [buffer, offset, length] = args
  if (!ArrayBuffer.isView(buffer) || typeof offset !== 'number' || typeof length !== 'number')
    return false
  for (let at = 0; at < length; at += ZEROS.length) {
    const size = Math.min(ZEROS.length, length - at)
    const chunk = new Uint8Array(buffer.buffer, buffer.byteOffset + offset + at, size)
    if (Buffer.compare(chunk, ZEROS.subarray(0, size)) !== 0) return false
  }
  return true
}

/** Counts the WAL syncs made on the event loop because another file was written (tests). */
export function onEventLoopWalSyncs(db: PGlite): number | null {
  return durableStates.get(db)?.eventLoopSyncs ?? null
}

/**
 * PGlite's Node filesystem with fsync wired to the disk. Emscripten calls stream_ops.fsync for
 * fsync() when the filesystem has one; NODEFS has none, so without this every fsync Postgres makes
 * (WAL at commit, data files at a checkpoint, folders after a rename) was a no-op. Its files are
 * private (PrivateNodeFS, docs/decisions/052-private-data-folder.md).
 */
class DurableNodeFS extends PrivateNodeFS {
  constructor(
    dataDir: string,
    private readonly state: DurableState,
  ) {
    super(dataDir)
  }

  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args)
    const state = this.state
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [
          ...(emscriptenOpts.preRun ?? []),
          (mod) => {
            const nodefs = (mod as unknown as { NODEFS?: EmscriptenNodeFs }).NODEFS
            // A PGlite that moved its filesystem elsewhere must not start silently undurable.
            if (!nodefs?.stream_ops) throw new Error('PGlite has no NODEFS to make durable')
            nodefs.stream_ops.fsync = (stream) => {
              if (WAL_SEGMENT.test(stream.path)) {
                // A commit's WAL: synced after the statement, before it resolves (waitForWal).
                const realPath = nodefs.realPath(stream.node)
                if (!state.pending.has(realPath))
                  state.pending.set(realPath, { fd: openSync(realPath, 'r'), path: stream.path })
                state.deferred++
                return 0
              }
              syncWalNow(state)
              fsyncSync(stream.nfd)
              noteFsync(state, stream.path)
              return 0
            }
            // Write-ahead: no data page, clog page or control file reaches the OS before the WAL
            // that describes it is on the disk (Postgres wrote that WAL first, deferred its sync).
            // Zeros describe nothing: a table or index growing by a page, a new WAL segment being
            // filled. Postgres never flushes WAL for those; syncing here blocked the event loop
            // for an fsync (2.5-25 ms) about every other order under load.
            const write = nodefs.stream_ops.write
            nodefs.stream_ops.write = function (stream, ...rest) {
              if (
                (state.pending.size > 0 || (state.inFlight.length > 0 && !state.inFlightSynced)) &&
                !WAL_SEGMENT.test(stream.path) &&
                !writesOnlyZeros(rest)
              )
                syncWalNow(state)
              return write.call(this, stream, ...rest)
            }
          },
        ],
      },
    }
  }
}

/**
 * Opens the PGlite database in folder `dbDir` durably: fsync on, and the WAL synced at commit with
 * fsync() (Emscripten's fdatasync is a no-op that cannot be wired; its O_DSYNC maps to O_SYNC, but
 * open_datasync would make every WAL write of a long import synchronous, not only the commit).
 */
export async function openDurablePGlite(
  dbDir: string,
  options: Omit<PGliteOptions, 'fs' | 'dataDir' | 'startParams'> = {},
): Promise<PGlite> {
  const state: DurableState = {
    fsyncs: 0,
    eventLoopSyncs: 0,
    listeners: new Set(),
    pending: new Map(),
    inFlight: [],
    inFlightSynced: false,
    deferred: 0,
    synced: 0,
    flushing: null,
    failed: null,
  }
  const db = await PGlite.create({
    ...options,
    fs: new DurableNodeFS(dbDir, state),
    startParams: [
      ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
      ...['-c', 'fsync=on', '-c', 'wal_sync_method=fsync', '-c', 'synchronous_commit=on'],
    ],
  })
  durableStates.set(db, state)
  // Nothing leaves the database before it is durable: each call resolves (with its rows, its
  // error, or a transaction's result) only once every commit made so far is on the disk. Other
  // transactions run meanwhile, and their commits join the next fsync. Realtime's queue and the
  // caches read through these calls too, so they never report an order a power cut could lose.
  const durable = db as unknown as Record<
    'query' | 'exec' | 'transaction',
    (...args: unknown[]) => Promise<unknown>
  >
  for (const name of ['query', 'exec', 'transaction'] as const) {
    const run = durable[name].bind(db)
    durable[name] = async (...args) => {
      let result: unknown
      try {
        result = await run(...args)
      } catch (error) {
        await settle(state).catch(() => undefined)
        throw error
      }
      await settle(state)
      return result
    }
  }
  // Postgres calls a listener from inside the statement whose commit notified, so in that caller's
  // async context: what a listener starts (the realtime drain) waits for the disk where it is.
  const listen = db.listen.bind(db)
  db.listen = (channel, callback, tx) =>
    listen(channel, (payload) => durableWaitPlace.exit(() => callback(payload)), tx)
  const close = db.close.bind(db)
  db.close = async () => {
    await waitForWal(state).catch(() => undefined)
    await close()
    syncWalNow(state)
  }
  return db
}

/**
 * Calls `listener` with the path of every fsync the database `db` makes from now on (tests, the
 * durability bench); returns the function that stops it. Null for a database that is not durable.
 */
export function watchFsyncs(db: PGlite, listener: FsyncListener): (() => void) | null {
  const state = durableStates.get(db)
  if (!state) return null
  state.listeners.add(listener)
  return () => state.listeners.delete(listener)
}

/** How many fsyncs the durable database `db` has made (null when it is not durable). */
export function fsyncCount(db: PGlite): number | null {
  return durableStates.get(db)?.fsyncs ?? null
}

/**
 * fsyncs every file and folder under `root`, and `root`'s own folder entry: for files written
 * without Postgres registering them for a sync (PGlite copies a new database in after initdb
 * without any fsync; a restore unpacks a dump the same way). Sixteen at a time: a fresh database's
 * ~1,200 files took 2.2–3.1 s one by one, 0.2–0.4 s so.
 */
export async function fsyncTree(root: string): Promise<number> {
  const paths: string[] = []
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) paths.push(path)
    }
    // A folder after its files: its entries name them.
    paths.push(dir)
  }
  await walk(root)
  const sync = async (path: string) => {
    const handle = await open(path, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }
  let next = 0
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < paths.length) await sync(paths[next++]!)
    }),
  )
  await sync(dirname(root))
  return paths.length
}

/**
 * HUMO_DURABLE=off opens a database folder as PGlite does by default (fsync off): only to measure
 * what durability costs (tests/bench/durability-bench.ts). A shop must not run with it.
 */
export function durableSetting(env: NodeJS.ProcessEnv): boolean {
  const value = (env.HUMO_DURABLE ?? '').trim().toLowerCase()
  if (value === '' || value === 'on') return true
  if (value === 'off') return false
  throw new Error(`HUMO_DURABLE must be on or off, got ${env.HUMO_DURABLE}`)
}

/** dbDir null: in-memory database (nothing to make durable). */
export async function openDatabase(
  dbDir: string | null,
  { durable = durableSetting(process.env) }: { durable?: boolean } = {},
): Promise<OpenedDatabase> {
  // Private whatever the umask (docs/decisions/052-private-data-folder.md): the folder, and every file PGlite makes in it.
  if (dbDir) makePrivateDir(dbDir)
  const db = !dbDir
    ? await PGlite.create()
    : durable
      ? await openDurablePGlite(dbDir)
      : await PGlite.create({ fs: new PrivateNodeFS(dbDir) })
  try {
    // The schema's commits (a new database's bootstrap, migrations) need not wait for the disk one
    // by one: the synced commit of checkDurable below flushes all of them at once, before anything
    // is served. A crash before it loses only whole migrations, which the next start applies.
    await db.exec('set synchronous_commit = off')
    const fresh = !(await hasMigrationTable(db))
    if (fresh) {
      const bootstrap = await readFile(BOOTSTRAP_FILE, 'utf8')
      await db.transaction(async (tx) => {
        await tx.exec(bootstrap)
        await tx.exec(`
          create schema supabase_migrations;
          create table supabase_migrations.schema_migrations (
            version text primary key,
            statements text[],
            name text,
            applied_at timestamptz not null default now()
          );
        `)
      })
    }
    // Written to run again: a data folder made before it existed gets it before the migrations.
    await db.exec(await readFile(BOOTSTRAP_REALTIME_FILE, 'utf8'))
    const applied = await applyMigrations(db)
    await db.exec('set synchronous_commit = on')
    if (dbDir && durable) {
      // PGlite wrote the new database's files without one fsync: sync them all once.
      if (fresh) await fsyncTree(dbDir)
      await checkDurable(db)
    }
    return { db, fresh, applied }
  } catch (error) {
    await db.close()
    throw error
  }
}

/**
 * A commit must reach the disk through the wired fsync: one that does not (a PGlite whose
 * filesystem changed under us) stops the start rather than confirming orders a power cut loses.
 */
async function checkDurable(db: PGlite): Promise<void> {
  const { rows } = await db.query<{ fsync: string }>('show fsync')
  const before = fsyncCount(db) ?? 0
  // A transactional WAL message: a commit that wrote WAL, so it must flush it (a transaction that
  // only took an id commits asynchronously, and proves nothing).
  await db.query(`select pg_logical_emit_message(true, 'humo', 'durability check')`)
  if (rows[0]?.fsync !== 'on' || (fsyncCount(db) ?? 0) === before)
    throw new Error(
      'The database does not sync its commits to the disk (fsync is ' +
        `${rows[0]?.fsync ?? 'unknown'}): see docs/decisions/034-durable-commits.md`,
    )
}

async function hasMigrationTable(db: PGlite): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    `select to_regclass('supabase_migrations.schema_migrations') is not null as present`,
  )
  return rows[0]?.present ?? false
}

export async function listMigrations(): Promise<{ version: string; name: string; file: string }[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort()
  return files.map((file) => {
    const match = MIGRATION_FILE.exec(file)
    if (!match)
      throw new Error(
        `Migration file name must be <14-digit timestamp>_<verb>_<object>.sql: ${file}`,
      )
    return { version: match[1]!, name: match[2]!, file: join(MIGRATIONS_DIR, file) }
  })
}

async function applyMigrations(db: PGlite): Promise<string[]> {
  const { rows } = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations',
  )
  const done = new Set(rows.map((r) => r.version))
  const applied: string[] = []
  for (const migration of await listMigrations()) {
    if (done.has(migration.version)) continue
    const sql = await readFile(migration.file, 'utf8')
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql)
        await tx.query(
          'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
          [migration.version, migration.name, [sql]],
        )
      })
    } catch (error) {
      throw new Error(
        `Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`,
        { cause: error },
      )
    }
    applied.push(`${migration.version}_${migration.name}`)
  }
  return applied
}
