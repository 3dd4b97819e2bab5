// Backups of a shop's data folder (docs/decisions/030-backups.md): one gzipped tar holding a manifest
// (humo-backup.json: format, version, time, app version, migrations, counts and the sha256 of
// every other entry), PGlite's own dump of the database (taken by the running instance under its
// query lock, so it is consistent), the media in storage/, the JWT secret and the setup code.
// Restoring checks all of it before touching anything, and never overwrites a data folder in place.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  mkdir,
  open,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  writeFile,
  type FileHandle,
} from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import tar from 'tar-stream'
import { fsyncTree, listMigrations } from '../db/database.ts'
import {
  BACKUP_FILE_NAME as BACKUP_NAME,
  makeTreePrivate,
  MOVED_ASIDE_SUFFIX,
  PRIVATE_DIR_MODE,
  PrivateNodeFS,
  RESTORING_SUFFIX,
} from '../db/private-files.ts'

export const BACKUP_FORMAT = 'humo-backup'
export const BACKUP_VERSION = 1
const MANIFEST = 'humo-backup.json'
const DATABASE = 'database.tar.gz'
/** Files of the data folder kept beside the database (the storage folder comes on top). */
const DATA_FILES = ['jwt-secret', 'setup-code']
/** What an entry of a backup may hold at most once unpacked; more is not a file this code wrote. */
const MAX_ENTRY_BYTES = 4 * 1024 ** 3
const MAX_MANIFEST_BYTES = 64 * 1024 ** 2

export interface BackupManifest {
  format: typeof BACKUP_FORMAT
  version: typeof BACKUP_VERSION
  createdAt: string
  appVersion: string
  migrations: string[]
  counts: { orders: number; products: number; mediaFiles: number }
  files: Record<string, { size: number; sha256: string }>
}

export interface BackupSettings {
  dir: string
  keep: number
}

/** A backup file that is not a whole, untouched Humo backup. */
export class NotABackupError extends Error {
  constructor(file: string, reason: string) {
    super(`${file} is not a Humo backup: ${reason}`)
    this.name = 'NotABackupError'
  }
}

/**
 * HUMO_BACKUPS=off turns daily backups off; HUMO_BACKUP_DIR (default: the data folder's sibling
 * <data folder>-backups, so removing the data folder keeps them) and HUMO_BACKUP_KEEP (default 7).
 */
export function backupSettings(
  env: NodeJS.ProcessEnv,
  dataDir: string,
): BackupSettings & { daily: boolean } {
  const keepText = env.HUMO_BACKUP_KEEP ?? '7'
  const keep = Number(keepText)
  if (!/^\d+$/.test(keepText) || keep < 1 || keep > 10_000)
    throw new Error(`HUMO_BACKUP_KEEP must be a whole number from 1, got ${keepText}`)
  const off = (env.HUMO_BACKUPS ?? '').trim().toLowerCase()
  if (off !== '' && off !== 'off' && off !== 'on')
    throw new Error(`HUMO_BACKUPS must be on or off, got ${env.HUMO_BACKUPS}`)
  const dir = env.HUMO_BACKUP_DIR || `${resolve(dataDir)}-backups`
  return { dir: resolve(dir), keep, daily: off !== 'off' }
}

async function listFiles(root: string, under = ''): Promise<string[]> {
  const here = join(root, under)
  if (!existsSync(here)) return []
  const found: string[] = []
  for (const entry of await readdir(here, { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name
    if (entry.isDirectory()) found.push(...(await listFiles(root, path)))
    else if (entry.isFile()) found.push(path)
  }
  return found.sort()
}

async function appVersion(): Promise<string> {
  const pkg = JSON.parse(
    await readFile(new URL('../../../package.json', import.meta.url), 'utf8'),
  ) as { version?: string }
  return pkg.version ?? 'unknown'
}

type TarEntry = ReturnType<ReturnType<typeof tar.pack>['entry']>

const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace('T', '-')
    .replace(/\.\d+Z$/, '')

/** fsyncs one file or folder, so a rename or a new file survives a power cut. */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Writes one backup of the shop whose database `db` is (open on `dataDir`) into `dir`; returns its
 * path and manifest. Every part is streamed into the file while its checksum is taken, so a large
 * media folder never sits in memory; the manifest, which needs those checksums, is the last entry.
 * Only the database dump holds the database's query lock (PGlite hands it over in memory).
 */
export async function createBackup(
  db: PGlite,
  dataDir: string,
  dir: string,
): Promise<{ file: string; manifest: BackupManifest }> {
  const dump = await db.dumpDataDir('gzip')
  const { rows: migrations } = await db.query<{ version: string; name: string | null }>(
    'select version, name from supabase_migrations.schema_migrations order by version',
  )
  const count = async (table: string) =>
    Number(
      (await db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]?.n ?? 0,
    )
  const media = await listFiles(join(dataDir, 'storage'))
  const created = new Date()
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: created.toISOString(),
    appVersion: await appVersion(),
    migrations: migrations.map((m) => `${m.version}_${m.name ?? ''}`),
    counts: {
      orders: await count('public.orders'),
      products: await count('public.products'),
      mediaFiles: media.length,
    },
    files: {},
  }

  await mkdir(dir, { recursive: true, mode: 0o700 })
  let file = join(dir, `humo-backup-${stamp(created)}.tar.gz`)
  for (let n = 2; existsSync(file); n++)
    file = join(dir, `humo-backup-${stamp(created)}-${n}.tar.gz`)
  // Written beside its final name and renamed, so a half-written file never looks like a backup.
  const partial = `${file}.partial-${randomBytes(4).toString('hex')}`
  const pack = tar.pack()
  // Level 1: the dump is gzipped already and media are compressed formats; more only costs time.
  const written = pipeline(
    pack,
    createGzip({ level: 1 }),
    createWriteStream(partial, { mode: 0o600 }),
  )
  // Settles only if the file fails (a full disk) before the last entry: stops a write that waits.
  const failed = written.then(() => {
    throw new Error('the backup file was closed before its last entry')
  })
  failed.catch(() => undefined)

  const add = async (name: string, size: number, source: AsyncIterable<Uint8Array>) => {
    const hash = createHash('sha256')
    let length = 0
    let entry: TarEntry | null = null
    const entryDone = new Promise<void>((done, fail) => {
      entry = pack.entry({ name, size, mode: 0o600 }, (error) => (error ? fail(error) : done()))
    })
    entryDone.catch(() => undefined)
    const sink: TarEntry = entry!
    for await (const chunk of source) {
      length += chunk.byteLength
      // A file that grows while it is read would overflow its tar header's size.
      if (length > size) throw new Error(`${name} changed while it was backed up`)
      hash.update(chunk)
      if (!sink.write(chunk))
        await Promise.race([new Promise<void>((drained) => sink.once('drain', drained)), failed])
    }
    if (length !== size) throw new Error(`${name} changed while it was backed up`)
    sink.end(null)
    await Promise.race([entryDone, failed])
    manifest.files[name] = { size, sha256: hash.digest('hex') }
  }
  const fromFile = async (name: string, path: string) => {
    const { size } = await stat(path)
    const source = size ? createReadStream(path, { start: 0, end: size - 1 }) : []
    await add(name, size, source as AsyncIterable<Uint8Array>)
  }

  try {
    await add(DATABASE, dump.size, dump.stream() as unknown as AsyncIterable<Uint8Array>)
    for (const name of DATA_FILES) {
      const path = join(dataDir, name)
      if (existsSync(path)) await fromFile(`data/${name}`, path)
    }
    for (const path of media) await fromFile(`data/storage/${path}`, join(dataDir, 'storage', path))
    pack.entry({ name: MANIFEST, mode: 0o600 }, JSON.stringify(manifest, null, 2))
    pack.finalize()
    await written
    await syncPath(partial)
    await rename(partial, file)
    await syncPath(dir)
  } catch (error) {
    pack.destroy(error as Error)
    await written.catch(() => undefined)
    await rm(partial, { force: true })
    throw error
  }
  return { file, manifest }
}

/** A backup made by a Humo whose database has migrations this one does not have. */
export class BackupTooNewError extends Error {
  constructor(file: string, unknown: string[], appVersion: unknown) {
    super(
      `${file} was made by a newer Humo (${String(appVersion)}): its database has ` +
        `${unknown.length} migration(s) this Humo does not know (${unknown.join(', ')}). ` +
        'Update Humo to the version that made the backup, then restore it.',
    )
    this.name = 'BackupTooNewError'
  }
}

/** The data folder's files a backup may bring back: nothing else (never db/ or server.json). */
const isDataName = (name: string) =>
  (DATA_FILES.some((file) => name === `data/${file}`) ||
    /^data\/storage\/(?:[^/]+\/)*[^/]+$/.test(name)) &&
  !name.split('/').some((p) => p === '..' || p === '.' || p === '')

/** Refuses a backup whose database has migrations this code does not know (a newer Humo's). */
async function refuseNewer(file: string, versions: string[], appVersion: unknown): Promise<void> {
  const known = new Set((await listMigrations()).map((m) => m.version))
  const unknown = versions.filter((v) => !known.has(v.slice(0, 14)))
  if (unknown.length) throw new BackupTooNewError(file, unknown, appVersion)
}

/**
 * Reads the backup `file` as a stream into the folder `staging`: media and data files are written
 * there as they arrive, each with its checksum taken; the manifest and the database dump are kept.
 * Then every entry is checked against the manifest. Anything wrong is a NotABackupError; the
 * caller removes `staging`.
 */
async function extractBackup(
  file: string,
  staging: string,
): Promise<{ manifest: BackupManifest; database: Blob }> {
  const found = new Map<string, { size: number; sha256: string }>()
  let manifestData: Buffer | null = null
  let database: Blob | null = null
  // An error of this machine (a full disk) is not the file's fault: it is reported as it is.
  const local: { error: Error | null } = { error: null }

  const take = async (name: string, stream: AsyncIterable<Buffer>) => {
    const hash = createHash('sha256')
    const kept: Buffer[] = []
    const keep = name === MANIFEST || name === DATABASE
    const limit = name === MANIFEST ? MAX_MANIFEST_BYTES : MAX_ENTRY_BYTES
    let out: FileHandle | null = null
    if (isDataName(name)) {
      const path = join(staging, ...name.slice('data/'.length).split('/'))
      if (!resolve(path).startsWith(staging + sep)) throw new NotABackupError(file, 'unsafe path')
      try {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 })
        out = await open(path, 'wx', 0o600)
      } catch (error) {
        local.error = error as Error
        throw error
      }
    }
    let size = 0
    try {
      for await (const chunk of stream) {
        size += chunk.length
        if (size > limit) throw new NotABackupError(file, `${name} is too large`)
        hash.update(chunk)
        if (keep) kept.push(chunk)
        if (out)
          await out.write(chunk).catch((error: Error) => {
            local.error = error
            throw error
          })
      }
    } finally {
      await out?.close()
    }
    found.set(name, { size, sha256: hash.digest('hex') })
    if (name === MANIFEST) manifestData = Buffer.concat(kept)
    if (name === DATABASE) database = new Blob(kept.map((chunk) => new Uint8Array(chunk)))
  }

  const extract = tar.extract()
  extract.on('entry', (header, stream, next) => {
    const name = header.name
    const work =
      header.type !== 'file'
        ? (async () => {
            for await (const chunk of stream) void chunk
          })()
        : found.has(name)
          ? Promise.reject(new NotABackupError(file, `it holds ${name} twice`))
          : take(name, stream as AsyncIterable<Buffer>)
    work.then(
      () => next(),
      (error: unknown) => extract.destroy(error as Error),
    )
  })
  try {
    await pipeline(createReadStream(file), createGunzip(), extract)
  } catch (error) {
    if (error instanceof NotABackupError) throw error
    if (local.error) throw local.error
    if ((error as NodeJS.ErrnoException).syscall)
      throw new Error(`Cannot read ${file}: ${(error as Error).message}`, { cause: error })
    throw new NotABackupError(
      file,
      `it is not a complete gzipped tar file (${(error as Error).message}); it may be truncated`,
    )
  }

  if (!manifestData) throw new NotABackupError(file, `it has no ${MANIFEST}`)
  let manifest: BackupManifest
  try {
    manifest = JSON.parse((manifestData as Buffer).toString('utf8')) as BackupManifest
  } catch {
    throw new NotABackupError(file, `its ${MANIFEST} is not JSON`)
  }
  if (manifest?.format !== BACKUP_FORMAT) throw new NotABackupError(file, 'wrong format name')
  const version: unknown = manifest.version
  if (version !== BACKUP_VERSION)
    throw new NotABackupError(
      file,
      `format version ${String(version)}; this Humo reads version ${String(BACKUP_VERSION)}`,
    )
  if (!manifest.files || typeof manifest.files !== 'object' || !manifest.files[DATABASE])
    throw new NotABackupError(file, 'its manifest lists no database')
  if (!Array.isArray(manifest.migrations) || manifest.migrations.some((m) => typeof m !== 'string'))
    throw new NotABackupError(file, 'its manifest lists no migrations')
  for (const [name, expected] of Object.entries(manifest.files)) {
    if (name !== DATABASE && !isDataName(name))
      throw new NotABackupError(file, `unsafe entry name ${JSON.stringify(name)}`)
    const part = found.get(name)
    if (!part) throw new NotABackupError(file, `${name} is missing`)
    if (part.size !== expected?.size || part.sha256 !== expected.sha256)
      throw new NotABackupError(file, `${name} does not match its checksum (changed or damaged)`)
  }
  for (const name of found.keys())
    if (name !== MANIFEST && !manifest.files[name])
      throw new NotABackupError(file, `${name} is not in its manifest`)
  return { manifest, database: database! }
}

/**
 * Brings the shop in `file` back into `dataDir`. The file is streamed into a new folder beside it
 * and checked whole first; a backup from a newer Humo (migrations this code does not know) is
 * refused. A data folder already there is moved aside to <dataDir>.before-restore-<time>
 * (returned as movedAside), never overwritten. The caller makes sure no server has `dataDir` open.
 */
export async function restoreBackup(
  file: string,
  dataDir: string,
): Promise<{ manifest: BackupManifest; movedAside: string | null }> {
  const target = resolve(dataDir)
  const when = stamp(new Date())
  const staging = `${target}${RESTORING_SUFFIX}${when}-${randomBytes(3).toString('hex')}`
  await mkdir(staging, { recursive: true, mode: 0o700 })
  let manifest: BackupManifest
  try {
    const extracted = await extractBackup(file, staging)
    manifest = extracted.manifest
    await refuseNewer(file, manifest.migrations, manifest.appVersion)
    await mkdir(join(staging, 'storage'), { recursive: true, mode: PRIVATE_DIR_MODE })
    // PGlite unpacks its own dump into the new folder; opening it also proves the dump is sound,
    // and its migrations are the truth about the schema (the manifest only repeats them). Its
    // files are private (docs/decisions/052-private-data-folder.md), whatever modes the dump gives them.
    const db = await PGlite.create({
      fs: new PrivateNodeFS(join(staging, 'db')),
      loadDataDir: extracted.database,
    })
    try {
      const { rows } = await db.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations',
      )
      await refuseNewer(
        file,
        rows.map((r) => r.version),
        manifest.appVersion,
      )
    } finally {
      await db.close()
    }
    // The folder moved aside keeps its modes: an older install's 0666 files are made private
    // first (docs/decisions/052-private-data-folder.md); the new one is checked too. Before the fsync, which takes the modes.
    makeTreePrivate(staging)
    makeTreePrivate(target)
    // PGlite unpacked the dump without a single fsync: the restored shop must survive a power cut.
    await fsyncTree(staging)
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }
  let movedAside: string | null = null
  if (existsSync(target)) {
    movedAside = `${target}${MOVED_ASIDE_SUFFIX}${when}`
    await rename(target, movedAside)
  }
  await rename(staging, target)
  await syncPath(dirname(target))
  return { manifest, movedAside }
}

/** Deletes all but the newest `keep` backups in `dir` (only files named like backups). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  if (!existsSync(dir)) return []
  const names = (await readdir(dir)).filter((n) => BACKUP_NAME.test(n)).sort()
  const gone = names.slice(0, Math.max(0, names.length - keep))
  for (const name of gone) await rm(join(dir, name), { force: true })
  return gone.map((n) => join(dir, n))
}

async function newestBackupAge(dir: string): Promise<number> {
  if (!existsSync(dir)) return Infinity
  let newest = 0
  for (const name of await readdir(dir))
    if (BACKUP_NAME.test(name)) newest = Math.max(newest, (await stat(join(dir, name))).mtimeMs)
  return newest ? Date.now() - newest : Infinity
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The running server's daily backups: checked soon after the start and then every hour, a backup
 * is made when the newest one in the folder is a day old (so restarts neither skip nor repeat a
 * day), then old ones are pruned. Failures are reported, never thrown into the server.
 */
export function startDailyBackups(
  run: () => Promise<{ file: string }>,
  settings: BackupSettings,
  warn: (message: string) => void,
  checkEveryMs = 60 * 60 * 1000,
): { close(): Promise<void> } {
  let running: Promise<void> | null = null
  const check = () => {
    // A backup can take longer than the interval: a check while one runs would start another.
    if (running) return
    running = (async () => {
      if ((await newestBackupAge(settings.dir)) < DAY_MS - checkEveryMs / 2) return
      await run()
      await pruneBackups(settings.dir, settings.keep)
    })()
      .catch((error: unknown) => warn(`daily backup failed: ${(error as Error).message}`))
      .finally(() => {
        running = null
      })
  }
  const first = setTimeout(check, Math.min(checkEveryMs, 30_000))
  const timer = setInterval(check, checkEveryMs)
  first.unref()
  timer.unref()
  return {
    async close() {
      clearTimeout(first)
      clearInterval(timer)
      await running
    },
  }
}

/** The file a running server leaves in its data folder so the backup and restore commands find it. */
export const SERVER_FILE = 'server.json'

const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

export interface BackupService {
  /** Makes a backup now (one at a time), then prunes old ones. */
  backup(): Promise<{ file: string; manifest: BackupManifest }>
  /** POST /_humo/backup: `npm run backup` asking the running server (loopback + service key). */
  handle(req: IncomingMessage, res: ServerResponse, serviceRoleKey: string): Promise<void>
  /** Once listening: leaves server.json for the commands, and starts the daily backups. */
  started(url: string, warn: (message: string) => void): Promise<void>
  close(): Promise<void>
}

/** The backups of a server running on `dataDir`; settings.daily starts the daily timer. */
export function createBackupService(
  db: PGlite,
  dataDir: string,
  settings: BackupSettings & { daily: boolean },
): BackupService {
  let chain: Promise<unknown> = Promise.resolve()
  let daily: { close(): Promise<void> } | null = null
  let serverFile: string | null = null
  const backup = () => {
    const next = chain.then(async () => {
      const made = await createBackup(db, dataDir, settings.dir)
      await pruneBackups(settings.dir, settings.keep)
      return made
    })
    chain = next.catch(() => undefined)
    return next
  }
  const answer = (res: ServerResponse, status: number, body: object) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
    res.end(JSON.stringify(body))
  }
  return {
    backup,
    async handle(req, res, serviceRoleKey) {
      req.resume()
      // Behind a reverse proxy on this machine every caller is loopback: the key is what counts.
      if (!LOOPBACK.test(req.socket.remoteAddress ?? ''))
        return answer(res, 403, { error: 'Backups are only made for callers on this machine' })
      const given = Buffer.from(String(req.headers.authorization ?? ''))
      const wanted = Buffer.from(`Bearer ${serviceRoleKey}`)
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
        return answer(res, 401, { error: 'The service role key is required' })
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST')
        return answer(res, 405, { error: 'Use POST to make a backup' })
      }
      const { file, manifest } = await backup()
      answer(res, 200, { file, manifest })
    },
    async started(url, warn) {
      serverFile = join(dataDir, SERVER_FILE)
      await writeFile(serverFile, JSON.stringify({ pid: process.pid, url }) + '\n', {
        mode: 0o600,
      })
      if (settings.daily) daily = startDailyBackups(backup, settings, warn)
    },
    async close() {
      await daily?.close()
      daily = null
      await chain
      if (serverFile) await rm(serverFile, { force: true })
      serverFile = null
    },
  }
}

/** The server running on `dataDir`, if its server.json names a live process. */
export async function runningServer(dataDir: string): Promise<{ pid: number; url: string } | null> {
  let info: { pid?: unknown; url?: unknown }
  try {
    info = JSON.parse(await readFile(join(dataDir, SERVER_FILE), 'utf8')) as typeof info
  } catch {
    return null
  }
  if (typeof info.pid !== 'number' || typeof info.url !== 'string') return null
  try {
    process.kill(info.pid, 0)
  } catch (error) {
    // EPERM: alive, but someone else's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null
  }
  return { pid: info.pid, url: info.url }
}
