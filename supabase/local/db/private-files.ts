// The shop's data stays readable by the server's user only (docs/decisions/052-private-data-folder.md): the data folder,
// its backups, the folders a restore moves aside and the TLS keys hold every customer's orders and
// the JWT secret that signs every key. Layers, because each one alone leaves a gap:
// - explicit modes (PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, makePrivateDir) where we create things;
// - keepNewFilesPrivate(): the process umask, for files something creates without a mode of ours;
// - PrivateNodeFS: PGlite's Emscripten filesystem chmods each file it creates to the mode Postgres
//   asked for (0666 for the files of a new database and those opened with fopen), which no umask
//   masks, so its chmods lose the group and other bits here;
// - makeTreePrivate(): a walk that takes those bits off what is already there (an install made
//   before this, a file copied in by hand), run at every start and before a restore moves a folder.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { isMainThread } from 'node:worker_threads'
import { NodeFS } from '@electric-sql/pglite/nodefs'

/** What a folder or file of ours may be at most: its owner's bits (0700 folders, 0600 files). */
export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600
/** The bits nobody but the owner gets. */
const OTHERS = 0o077

/**
 * Adds group and other to the process umask, whatever the shell's was (0022, 0000): whatever this
 * process creates from now on without a mode of its own is private. For the server and the CLIs
 * (a process of their own); a worker thread cannot change the umask, and leaves it.
 */
export function keepNewFilesPrivate(): void {
  if (!isMainThread) return
  const previous = process.umask(OTHERS)
  process.umask(previous | OTHERS)
}

/** Makes folder `dir` (and its parents) as the server's user only, if it is not there yet. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
}

/** Takes group and other bits (and setuid, setgid, sticky) off one entry if it has any. */
function privatize(path: string, mode: number): boolean {
  const kept = mode & 0o700
  if ((mode & 0o7777) === kept) return false
  chmodSync(path, kept)
  return true
}

/**
 * Takes every group and other bit off `root` and everything under it; returns how many entries it
 * changed. Symbolic links under it are neither changed nor followed (a chmod would change their
 * target, which may be anything on the machine); `root` itself may be one, to the folder meant.
 * Owner bits are left as they are, so a folder stays 0700 and a file 0600 (or 0400). Synchronous:
 * it runs before the server takes requests or a restore moves a folder; a fresh shop's ~1,300
 * entries took 5–40 ms (2 cores, load 16).
 */
export function makeTreePrivate(root: string): number {
  if (!existsSync(root)) return 0
  let changed = 0
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue
      const path = join(dir, entry.name)
      if (privatize(path, lstatSync(path).mode)) changed++
      if (entry.isDirectory()) walk(path)
    }
  }
  // The folder first: nobody else can enter it while its entries are being changed.
  if (privatize(root, statSync(root).mode)) changed++
  walk(root)
  return changed
}

/** A backup file's name in the backups folder (backup.ts), and one being written. */
export const BACKUP_FILE_NAME = /^humo-backup-\d{8}-\d{6}(?:-\d+)?\.tar\.gz$/
const BACKUP_FILE_OR_PARTIAL = /^humo-backup-\d{8}-\d{6}(?:-\d+)?\.tar\.gz(?:\.partial-[0-9a-f]+)?$/
/** What a restore puts after the data folder's name: the folder it moved aside, its staging one. */
export const MOVED_ASIDE_SUFFIX = '.before-restore-'
export const RESTORING_SUFFIX = '.restoring-'

/** Folders a restore leaves beside `dataDir`: those it moved aside, and a cut-off staging one. */
export function restoreLeftovers(dataDir: string): string[] {
  const parent = dirname(dataDir)
  const prefixes = [MOVED_ASIDE_SUFFIX, RESTORING_SUFFIX].map((s) => basename(dataDir) + s)
  if (!existsSync(parent)) return []
  return readdirSync(parent, { withFileTypes: true })
    .filter((e) => e.isDirectory() && prefixes.some((prefix) => e.name.startsWith(prefix)))
    .map((e) => join(parent, e.name))
}

/**
 * The backups folder and the backups in it. Only files named like backups: HUMO_BACKUP_DIR may
 * name a folder that holds other things, which are not this server's to change.
 */
function makeBackupsPrivate(dir: string): number {
  if (!existsSync(dir)) return 0
  let changed = privatize(dir, statSync(dir).mode) ? 1 : 0
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isFile() && BACKUP_FILE_OR_PARTIAL.test(entry.name))
      if (privatize(join(dir, entry.name), lstatSync(join(dir, entry.name)).mode)) changed++
  return changed
}

/**
 * At a server's start, before the database opens: the data folder (made if missing) and all in
 * it, the folders restores left beside it, and the backups. A data folder that cannot be made
 * private stops the start (it is another user's, or on a filesystem without modes); a backup or
 * a moved-aside folder that cannot is reported. An install made before this says what changed.
 */
export function makeShopPrivate(
  dataDir: string,
  backupDir: string | null,
  warn: (message: string) => void,
): void {
  let changed: number
  try {
    makePrivateDir(dataDir)
    changed = makeTreePrivate(dataDir)
  } catch (error) {
    throw new Error(
      `Cannot make the data folder ${dataDir} readable by this user only ` +
        `(${(error as Error).message}): it must belong to the user the server runs as`,
      { cause: error },
    )
  }
  const copies = [...restoreLeftovers(dataDir), ...(backupDir ? [backupDir] : [])]
  for (const copy of copies) {
    try {
      changed += copy === backupDir ? makeBackupsPrivate(copy) : makeTreePrivate(copy)
    } catch (error) {
      warn(`cannot make ${copy} readable by this user only: ${(error as Error).message}`)
    }
  }
  if (changed)
    warn(
      `${changed} files and folders of the shop's data were readable by other accounts of this ` +
        'computer; they are now readable by this user only (docs/decisions/052-private-data-folder.md)',
    )
}

/** Emscripten's NODEFS as far as it is used here: where it creates files and chmods them. */
interface EmscriptenNodeFs {
  node_ops: { mknod: (parent: unknown, name: string, mode: number, dev: number) => unknown }
  doSetAttr: (
    target: unknown,
    node: unknown,
    attr: { mode?: number },
    chmod: (target: unknown, mode: number) => void,
    ...rest: unknown[]
  ) => void
}

/**
 * PGlite's Node filesystem whose files are private whatever the umask: a file or folder Postgres
 * creates is made with the owner's bits only, and Emscripten's chmod of a new file to the mode
 * asked for (0666 for fopen's files, and for those of a new database or an unpacked dump), which
 * no umask masks, keeps the owner's bits only too. Its own folder is made 0700.
 */
export class PrivateNodeFS extends NodeFS {
  constructor(dataDir: string) {
    makePrivateDir(dataDir)
    super(dataDir)
  }

  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args)
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [
          ...(emscriptenOpts.preRun ?? []),
          (mod) => {
            const nodefs = (mod as unknown as { NODEFS?: EmscriptenNodeFs }).NODEFS
            // A PGlite whose filesystem works otherwise must not start leaving 0666 files.
            if (
              typeof nodefs?.doSetAttr !== 'function' ||
              typeof nodefs.node_ops?.mknod !== 'function'
            )
              throw new Error('PGlite has no NODEFS whose modes can be kept private')
            const mknod = nodefs.node_ops.mknod
            nodefs.node_ops.mknod = function (parent, name, mode, dev) {
              return mknod.call(this, parent, name, mode & ~OTHERS, dev)
            }
            const doSetAttr = nodefs.doSetAttr
            nodefs.doSetAttr = function (target, node, attr, chmod, ...rest) {
              const privateChmod = (on: unknown, mode: number) => chmod(on, mode & ~OTHERS)
              return doSetAttr.call(this, target, node, attr, privateChmod, ...rest)
            }
          },
        ],
      },
    }
  }
}
