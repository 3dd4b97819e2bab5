// @vitest-environment node
// The shop's data stays private on its own computer (issue 32, docs/decisions/052-private-data-folder.md): the real
// `npm start` server and `npm run backup`/`restore` under umask 0000 leave no entry of the data
// folder, its backups or the folder a restore moved aside readable or writable by other accounts
// (TLS keys, JWT secret, an order, an uploaded picture included); PGlite's own files are private
// whatever the umask; an older install's 0666/0777 tree is made private at the next start (and a
// symbolic link's target, and what is not a backup in the backups folder, are left alone); and git
// ignores every folder name the code makes.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, lstatSync, readdirSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import { orderInput } from '../../../tests/integration/server-rules/rules-backend.ts'
import type { Database } from '../rest/api-types.ts'
import { backupSettings } from '../ops/backup.ts'
import { openDatabase } from './database.ts'
import { createJwtKeys } from '../auth/jwt-keys.ts'
import {
  makeShopPrivate,
  makeTreePrivate,
  MOVED_ASIDE_SUFFIX,
  RESTORING_SUFFIX,
} from './private-files.ts'
import { startHumoBackend } from '../server.ts'

const repo = fileURLToPath(new URL('../../..', import.meta.url))
const clientOptions = {
  auth: { persistSession: false },
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
}
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAANHQEDx0d0WQAAAABJRU5ErkJggg==',
  'base64',
)

let root: string
const running = new Set<ChildProcess>()

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'humo-private-'))
})
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

/** Every entry under `dir` (itself included, symbolic links not followed) others may use. */
function openToOthers(dir: string): string[] {
  const found: string[] = []
  const look = (path: string) => {
    const stat = lstatSync(path)
    if (stat.isSymbolicLink()) return
    if (stat.mode & 0o077)
      found.push(`${relative(root, path) || '.'} ${(stat.mode & 0o777).toString(8)}`)
    if (stat.isDirectory()) for (const name of readdirSync(path)) look(join(path, name))
  }
  look(dir)
  return found
}

/** How many files are under `dir`: a walk that found nothing to check proves nothing. */
const fileCount = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).length

/** A command of this repo under tsx, started by a shell whose umask is 0000. */
function spawnOpenUmask(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(
    'sh',
    ['-c', 'umask 0000 && exec "$@"', 'sh', process.execPath, '--import', 'tsx', ...args],
    {
      cwd: repo,
      env: {
        ...process.env,
        HUMO_JWT_SECRET: '',
        HUMO_SETUP_CODE: '',
        HUMO_BACKUP_DIR: '',
        HUMO_BACKUPS: 'off',
        HUMO_RATE_LIMITS: 'off',
        HUMO_LOG_LEVEL: 'warn',
        HUMO_WARM_PULLS: 'off',
        HUMO_TLS: '',
        HUMO_TLS_CERT: '',
        HUMO_TLS_KEY: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

/** Runs a command to its end under umask 0000; its output, or a failure with it. */
async function runOpenUmask(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawnOpenUmask(args, env)
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${output}`)
  return output
}

/** Starts main.ts (as `npm start` does) under umask 0000; its port, and a stop that waits. */
async function startMain(env: Record<string, string>) {
  const child = spawnOpenUmask([join(repo, 'supabase/local/main.ts')], { PORT: '0', ...env })
  let output = ''
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => done(`${code ?? signal}`)),
  )
  const port = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const found = /Humo is running at https?:\/\/localhost:(\d+)\s/.exec(output)?.[1]
      if (found) done(found)
    })
    void exited.then(() => fail(new Error(`main.ts stopped before it ran:\n${output}`)))
  })
  // main.ts installs its SIGTERM handler just after the line above: an answer comes after that.
  await fetch(`http://127.0.0.1:${port}/healthz`, { redirect: 'manual' })
  const stop = async () => {
    child.kill('SIGTERM')
    const how = await exited
    if (how !== '0') throw new Error(`main.ts stopped with ${how}:\n${output}`)
  }
  return { url: `http://127.0.0.1:${port}`, stop }
}

it('leaves nothing of the data folder, its backups or a moved-aside folder open to others under umask 0000', async () => {
  const dataDir = join(root, 'shop')
  const env = { HUMO_DATA_DIR: dataDir }
  // A first start with the shop's own certificate authority: the TLS keys go in the data folder.
  const withTls = await startMain({ ...env, HUMO_TLS: 'local' })
  await withTls.stop()
  expect(existsSync(join(dataDir, 'tls'))).toBe(true)

  const server = await startMain(env)
  const secret = (await readFile(join(dataDir, 'jwt-secret'), 'utf8')).trim()
  const { anonKey, serviceRoleKey } = await createJwtKeys(secret)
  const anon = createClient<Database>(server.url, anonKey, clientOptions)
  const service = createClient<Database>(server.url, serviceRoleKey, clientOptions)
  const products = await anon
    .from('products')
    .select('id')
    .order('is_unlimited_quantity', { ascending: false })
    .order('quantity_available', { ascending: false })
    .limit(1)
  const placed = await anon.rpc('place_order', {
    p_order: orderInput([{ productId: products.data![0]!.id, quantity: 1 }]),
  })
  expect(placed.error).toBeNull()
  const upload = await service.storage
    .from('product_media')
    .upload(`private/${randomUUID()}.png`, png, { contentType: 'image/png' })
  expect(upload.error).toBeNull()
  // `npm run backup` while the server runs: the server (umask 0000 too) writes the backup.
  const made = await runOpenUmask(['supabase/local/ops/backup-cli.ts', 'backup'], env)
  const backupFile = /Backup made by the running server: (\S+)/.exec(made)![1]!
  const backupDir = `${dataDir}-backups`
  // While it runs, before any later walk could make up for it: the order, the upload, the backup.
  expect([dataDir, backupDir].flatMap(openToOthers)).toEqual([])
  await server.stop()

  // `npm run restore`: the folder that was there is moved aside, the backup takes its place.
  const restored = await runOpenUmask(
    ['supabase/local/ops/backup-cli.ts', 'restore', backupFile],
    env,
  )
  const movedAside = /moved to (\S+)/.exec(restored)![1]!
  expect(movedAside.startsWith(`${dataDir}${MOVED_ASIDE_SUFFIX}`)).toBe(true)
  for (const dir of [dataDir, movedAside]) expect(fileCount(join(dir, 'db'))).toBeGreaterThan(900)
  expect(fileCount(join(movedAside, 'tls'))).toBe(4)
  expect(fileCount(join(dataDir, 'storage'))).toBeGreaterThan(10)
  expect(await readdir(backupDir)).toHaveLength(1)
  expect([dataDir, backupDir, movedAside].flatMap(openToOthers)).toEqual([])
}, 300_000)

it("keeps PGlite's own files private whatever the process umask", async () => {
  const dbDir = join(root, 'open-umask', 'db')
  const previous = process.umask(0)
  try {
    const { db } = await openDatabase(dbDir)
    // Files Postgres makes later: a new table and index, a checkpoint, a rewrite.
    await db.exec('create table t (a int); insert into t select generate_series(1, 20000)')
    await db.exec('create index on t (a); checkpoint')
    await db.exec('vacuum full t')
    await db.close()
  } finally {
    process.umask(previous)
  }
  expect(fileCount(dbDir)).toBeGreaterThan(900)
  expect(openToOthers(join(root, 'open-umask'))).toEqual([])
}, 120_000)

/** Makes every folder under `dir` 0777 and every file 0666, as an install before docs/decisions/052-private-data-folder.md. */
async function openUp(dir: string): Promise<void> {
  await chmod(dir, 0o777)
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) await openUp(path)
    else if (entry.isFile()) await chmod(path, 0o666)
  }
}

it("makes an older install's open data folder, moved-aside folder and backups private at the next start", async () => {
  const dataDir = join(root, 'old-shop')
  const backupDir = join(root, 'old-backups')
  const first = await startHumoBackend({ dataDir, quiet: true, seed: false })
  await first.close()
  const aside = `${dataDir}${MOVED_ASIDE_SUFFIX}20260101-120000`
  const cutOff = `${dataDir}${RESTORING_SUFFIX}20260101-120000-a1b2c3`
  for (const dir of [aside, cutOff]) {
    await mkdir(join(dir, 'storage'), { recursive: true })
    await writeFile(join(dir, 'jwt-secret'), 'an old secret\n')
  }
  await mkdir(backupDir)
  await writeFile(join(backupDir, 'humo-backup-20260101-120000.tar.gz'), 'a backup')
  await writeFile(join(backupDir, 'notes.txt'), 'not a backup: not the server to change')
  // A link in the data folder to a file elsewhere: the walk must not change its target.
  const outside = join(root, 'outside.txt')
  await writeFile(outside, 'someone else’s file')
  await symlink(outside, join(dataDir, 'a-link'))
  for (const dir of [dataDir, aside, cutOff, backupDir]) await openUp(dir)
  await chmod(outside, 0o644)
  expect(openToOthers(dataDir).length).toBeGreaterThan(900)

  const second = await startHumoBackend({
    dataDir,
    quiet: true,
    seed: false,
    backups: { dir: backupDir, keep: 7, daily: false },
  })
  try {
    const { rows } = await second.db.query<{ n: number }>('select count(*)::int as n from orders')
    expect(rows[0]!.n).toBe(0)
  } finally {
    await second.close()
  }
  expect([dataDir, aside, cutOff].flatMap(openToOthers)).toEqual([])
  expect(openToOthers(backupDir)).toEqual([`${relative(root, backupDir)}/notes.txt 666`])
  expect(lstatSync(outside).mode & 0o777).toBe(0o644)
}, 180_000)

it('reports what it made private, and stops a start whose data folder it cannot make private', async () => {
  const dataDir = join(root, 'reported')
  await mkdir(join(dataDir, 'storage'), { recursive: true })
  await writeFile(join(dataDir, 'jwt-secret'), 'secret\n')
  await chmod(dataDir, 0o755)
  await chmod(join(dataDir, 'storage'), 0o750)
  await chmod(join(dataDir, 'jwt-secret'), 0o644)
  const warnings: string[] = []
  makeShopPrivate(dataDir, null, (message) => warnings.push(message))
  expect(warnings).toEqual([expect.stringMatching(/^3 files and folders .* readable by this user/)])
  makeShopPrivate(dataDir, null, (message) => warnings.push(message))
  expect(warnings).toHaveLength(1)
  expect(makeTreePrivate(join(root, 'not-there'))).toBe(0)
  // A data folder where a file is: cannot be made (as a folder of another user's cannot).
  const notAFolder = join(root, 'a-file')
  await writeFile(notAFolder, '')
  expect(() => makeShopPrivate(join(notAFolder, 'data'), null, () => undefined)).toThrow(
    /Cannot make the data folder .* readable by this user only/,
  )
})

it('has git ignore every folder the code makes for a data folder in the checkout', () => {
  const dataDir = join(repo, '.humo-data')
  const names = [
    '.humo-data',
    relative(repo, backupSettings({}, dataDir).dir),
    `.humo-data${MOVED_ASIDE_SUFFIX}20260101-120000`,
    `.humo-data${RESTORING_SUFFIX}20260101-120000-a1b2c3`,
    '.humo-test-data',
    '.humo-bench-data',
    relative(repo, backupSettings({}, join(repo, '.humo-bench-data')).dir),
    `.humo-bench-data${MOVED_ASIDE_SUFFIX}20260101-120000`,
  ].map((name) => `${name}/jwt-secret`)
  const ignored = execFileSync('git', ['check-ignore', '--', ...names], {
    cwd: repo,
    encoding: 'utf8',
  })
  expect(ignored.trim().split('\n')).toEqual(names)
  // And nothing of the app's own: a source file named like the data folder stays tracked.
  expect(() =>
    execFileSync('git', ['check-ignore', '--', 'src/data/humo-data.ts'], { cwd: repo }),
  ).toThrow()
})
