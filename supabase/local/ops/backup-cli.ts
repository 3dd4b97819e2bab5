// `npm run backup` and `npm run restore <file>` (README.md, "Backups"). A backup asks the server
// running on the data folder when there is one (it holds the database open), else opens the
// folder itself. A restore refuses while a server runs on the folder, and checks the file whole
// before it moves the current folder aside.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  BackupTooNewError,
  backupSettings,
  createBackup,
  NotABackupError,
  pruneBackups,
  restoreBackup,
  runningServer,
  type BackupManifest,
} from './backup.ts'
import { openDurablePGlite } from '../db/database.ts'
import { createJwtKeys } from '../auth/jwt-keys.ts'
import { keepNewFilesPrivate } from '../db/private-files.ts'

const repo = fileURLToPath(new URL('../../..', import.meta.url))
const dataDir = process.env.HUMO_DATA_DIR || `${repo}.humo-data`

const describe = (manifest: BackupManifest) =>
  `${manifest.counts.orders} orders, ${manifest.counts.products} products, ` +
  `${manifest.counts.mediaFiles} media files, taken ${manifest.createdAt}`

async function backup(): Promise<void> {
  const settings = backupSettings(process.env, dataDir)
  const server = await runningServer(dataDir)
  if (server) {
    const secret =
      process.env.HUMO_JWT_SECRET || (await readFile(join(dataDir, 'jwt-secret'), 'utf8')).trim()
    const { serviceRoleKey } = await createJwtKeys(secret)
    const response = await fetch(`${server.url}/_humo/backup`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${serviceRoleKey}` },
    })
    const body = (await response.json().catch(() => ({}))) as {
      file?: string
      manifest?: BackupManifest
      error?: string
    }
    if (!response.ok || !body.file || !body.manifest)
      throw new Error(
        `The running server (${server.url}) did not make a backup: ${body.error ?? response.status}`,
      )
    console.log(`Backup made by the running server: ${body.file} (${describe(body.manifest)})`)
    return
  }
  if (!existsSync(join(dataDir, 'db')))
    throw new Error(`There is no shop in ${dataDir} (set HUMO_DATA_DIR to the shop's data folder)`)
  // Durable like the server's: closing writes a checkpoint, which must not be lost to a power cut.
  const db = await openDurablePGlite(join(dataDir, 'db'))
  try {
    const { file, manifest } = await createBackup(db, dataDir, settings.dir)
    await pruneBackups(settings.dir, settings.keep)
    console.log(`Backup made: ${file} (${describe(manifest)})`)
  } finally {
    await db.close()
  }
}

async function restore(file: string | undefined): Promise<void> {
  if (!file) throw new Error('Usage: npm run restore <backup file>')
  const server = await runningServer(dataDir)
  if (server)
    throw new Error(
      `A Humo server (process ${server.pid}, ${server.url}) is running on ${dataDir}: stop it first, then restore.`,
    )
  const { manifest, movedAside } = await restoreBackup(file, dataDir)
  if (movedAside) console.log(`The data folder that was there is kept, moved to ${movedAside}`)
  console.log(`Restored ${dataDir} from ${file} (${describe(manifest)})`)
}

// Backups and restored folders are their user's only, whatever the shell's umask (docs/decisions/052-private-data-folder.md).
keepNewFilesPrivate()
const [command, arg] = process.argv.slice(2)
const run = command === 'backup' ? backup() : command === 'restore' ? restore(arg) : null
if (!run) {
  console.error('Usage: backup-cli.ts backup | restore <file>')
  process.exit(2)
}
run.catch((error: unknown) => {
  console.error(
    error instanceof NotABackupError || error instanceof BackupTooNewError
      ? `Refused: ${error.message}`
      : `Failed: ${(error as Error).message}`,
  )
  process.exit(1)
})
