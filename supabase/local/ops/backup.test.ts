// @vitest-environment node
// Backups (docs/decisions/030-backups.md): a round trip (orders and a media object, backup, the data folder
// removed, restore, everything back), a restore over an existing folder that moves it aside, and
// the refusal of files that are not whole Humo backups: a random tarball, a tampered backup, a
// truncated one, and one whose manifest names another format; the refusal of a backup made by a
// newer Humo (migrations this code does not know); and a large media folder backed up without
// being read into memory.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { createGunzip, createGzip, gzipSync } from 'node:zlib'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import tar from 'tar-stream'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import type { Database } from '../rest/api-types.ts'
import {
  BackupTooNewError,
  createBackup,
  NotABackupError,
  pruneBackups,
  restoreBackup,
  runningServer,
  startDailyBackups,
} from './backup.ts'
import { openDatabase } from '../db/database.ts'
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
let dataDir: string
let backupDir: string
let backupFile: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'humo-backup-'))
  dataDir = join(root, 'shop')
  backupDir = join(root, 'backups')
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

const start = () =>
  startHumoBackend({
    dataDir,
    quiet: true,
    rateLimits: null,
    backups: { dir: backupDir, keep: 7, daily: false },
  })

async function placeOrder(anon: SupabaseClient<Database>, productId: string, n: number) {
  const id = randomUUID()
  const placed = await anon.rpc('place_order', {
    p_order: {
      id,
      secret: `backup-secret-${n}-backup-secret-backup`,
      customer: {
        email: `backup${n}@example.com`,
        firstName: 'Ana',
        lastName: `Backup ${n}`,
        phone: '(707) 555-0173',
      },
      fulfilment: 'delivery',
      deliveryMethod: 'standard',
      shippingAddress: {
        address1: '500 Valencia St',
        city: 'San Francisco',
        state: 'CA',
        zipCode: '94110',
      },
      billingAddress: null,
      paymentMethod: 'card',
      cardLast4: '4242',
      items: [{ productId, quantity: 1 }],
    },
  })
  if (placed.error) throw new Error(placed.error.message)
  return id
}

it('brings back every order and media object after the data folder is removed', async () => {
  const orderIds: string[] = []
  let orderCount = 0
  const mediaPath = `backup-test/${randomUUID()}.png`
  const first = await start()
  try {
    const anon = createClient<Database>(first.url, first.anonKey, clientOptions)
    const service = createClient<Database>(first.url, first.serviceRoleKey, clientOptions)
    const { rows } = await first.db.query<{ id: string }>(
      'select id from public.products where is_active and quantity_available > 10 limit 1',
    )
    for (let n = 0; n < 5; n++) orderIds.push(await placeOrder(anon, rows[0]!.id, n))
    orderCount = (
      await first.db.query<{ n: number }>('select count(*)::int as n from public.orders')
    ).rows[0]!.n
    const upload = await service.storage
      .from('product_media')
      .upload(mediaPath, png, { contentType: 'image/png' })
    expect(upload.error).toBeNull()
    // As `npm run backup` asks a running server: loopback, with the service role key.
    const refused = await fetch(`${first.url}/_humo/backup`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${first.anonKey}` },
    })
    expect(refused.status).toBe(401)
    const answer = await fetch(`${first.url}/_humo/backup`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${first.serviceRoleKey}` },
    })
    expect(answer.status).toBe(200)
    const made = (await answer.json()) as { file: string; manifest: { counts: { orders: number } } }
    backupFile = made.file
    expect(made.manifest.counts.orders).toBe(orderCount)
    // What `npm run restore` checks before it refuses to restore under a running server.
    expect(await runningServer(dataDir)).toEqual({ pid: process.pid, url: first.url })
  } finally {
    await first.close()
  }
  expect(existsSync(join(dataDir, 'server.json'))).toBe(false)
  expect(await runningServer(dataDir)).toBeNull()

  await rm(dataDir, { recursive: true, force: true })
  const restored = await restoreBackup(backupFile, dataDir)
  expect(restored.movedAside).toBeNull()

  const second = await start()
  try {
    const service = createClient<Database>(second.url, second.serviceRoleKey, clientOptions)
    const orders = await service.from('orders').select('id').in('id', orderIds)
    expect(orders.error).toBeNull()
    expect(orders.data!.map((o) => o.id).sort()).toEqual([...orderIds].sort())
    const all = await service.from('orders').select('id', { count: 'exact', head: true })
    expect(all.count).toBe(orderCount)
    const image = await fetch(
      service.storage.from('product_media').getPublicUrl(mediaPath).data.publicUrl,
    )
    expect(image.status).toBe(200)
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png)
  } finally {
    await second.close()
  }
}, 120_000)

it('moves a data folder that is in the way aside instead of overwriting it', async () => {
  await writeFile(join(dataDir, 'marker'), 'here before the restore')
  const { movedAside } = await restoreBackup(backupFile, dataDir)
  expect(movedAside).toMatch(/\.before-restore-\d{8}-\d{6}$/)
  expect(await readFile(join(movedAside!, 'marker'), 'utf8')).toBe('here before the restore')
  expect(existsSync(join(dataDir, 'marker'))).toBe(false)
}, 60_000)

/** The entries of a backup, to build damaged copies of it. */
async function entries(file: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>()
  const extract = tar.extract()
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer))
    stream.on('end', () => {
      found.set(header.name, Buffer.concat(chunks))
      next()
    })
  })
  await pipeline(Readable.from([await readFile(file)]), createGunzip(), extract)
  return found
}

async function writeTarball(file: string, parts: Map<string, Buffer>): Promise<void> {
  const pack = tar.pack()
  const { createWriteStream } = await import('node:fs')
  const written = pipeline(pack, createGzip(), createWriteStream(file))
  for (const [name, data] of parts) pack.entry({ name }, data)
  pack.finalize()
  await written
}

it('refuses a file that is not a whole, untouched Humo backup, and leaves the folder alone', async () => {
  const before = (await readdir(dataDir)).sort()
  const refuse = async (file: string, reason: RegExp) => {
    const error = await restoreBackup(file, dataDir).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(NotABackupError)
    expect((error as Error).message).toMatch(reason)
    expect((await readdir(dataDir)).sort()).toEqual(before)
  }

  const plain = join(root, 'not-a-backup.txt')
  await writeFile(plain, 'hello, this is a shopping list')
  await refuse(plain, /not a complete gzipped tar/)

  const randomTarball = join(root, 'random.tar.gz')
  await writeTarball(randomTarball, new Map([['notes.txt', Buffer.from('just notes')]]))
  await refuse(randomTarball, /no humo-backup\.json/)

  const parts = await entries(backupFile)
  const otherFormat = new Map(parts)
  const manifest = JSON.parse(parts.get('humo-backup.json')!.toString()) as Record<string, unknown>
  otherFormat.set('humo-backup.json', Buffer.from(JSON.stringify({ ...manifest, format: 'x' })))
  const wrongFormat = join(root, 'wrong-format.tar.gz')
  await writeTarball(wrongFormat, otherFormat)
  await refuse(wrongFormat, /wrong format name/)

  const tampered = new Map(parts)
  tampered.set(
    'data/jwt-secret',
    Buffer.from('an attacker chose this secret, 48 characters long!\n'),
  )
  const tamperedFile = join(root, 'tampered.tar.gz')
  await writeTarball(tamperedFile, tampered)
  await refuse(tamperedFile, /data\/jwt-secret does not match its checksum/)

  const extra = new Map(parts)
  extra.set('data/storage/product_media/planted.png', png)
  const extraFile = join(root, 'extra.tar.gz')
  await writeTarball(extraFile, extra)
  await refuse(extraFile, /planted\.png is not in its manifest/)

  const whole = await readFile(backupFile)
  const truncated = join(root, 'truncated.tar.gz')
  await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)))
  await refuse(truncated, /truncated/)
  // A gzip stream that ends cleanly but holds half a tar is refused too.
  const halfTar = join(root, 'half-tar.tar.gz')
  const tarBytes = await new Promise<Buffer>((done, fail) => {
    const chunks: Buffer[] = []
    Readable.from([whole])
      .pipe(createGunzip())
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => done(Buffer.concat(chunks)))
      .on('error', fail)
  })
  await writeFile(halfTar, gzipSync(tarBytes.subarray(0, Math.floor(tarBytes.length / 2))))
  await refuse(halfTar, /not a complete gzipped tar|is missing/)
}, 60_000)

/** Runs a command of this repo with tsx; its exit code and output. */
async function run(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.on('exit', done))
  return { code, stdout, stderr }
}

it('refuses a backup made by a newer Humo, whose migrations this one does not know', async () => {
  // A shop whose database a later Humo migrated: one more migration than this code has.
  const newer = join(root, 'newer-shop')
  await restoreBackup(backupFile, newer)
  const { db } = await openDatabase(join(newer, 'db'))
  let newerFile: string
  try {
    await db.query(
      `insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)`,
      ['29991231235959', 'add_flying_cars'],
    )
    ;({ file: newerFile } = await createBackup(db, newer, join(root, 'newer-backups')))
  } finally {
    await db.close()
  }
  const before = (await readdir(dataDir)).sort()
  const error = await restoreBackup(newerFile, dataDir).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(BackupTooNewError)
  expect((error as Error).message).toContain('was made by a newer Humo')
  expect((error as Error).message).toContain('29991231235959_add_flying_cars')
  expect((await readdir(dataDir)).sort()).toEqual(before)
  expect((await readdir(root)).filter((n) => n.includes('.restoring-'))).toEqual([])

  // As the shop owner sees it: `npm run restore <file>` says why and changes nothing.
  const cli = await run(['supabase/local/ops/backup-cli.ts', 'restore', newerFile], {
    HUMO_DATA_DIR: dataDir,
  })
  expect(cli.code).toBe(1)
  expect(cli.stderr).toMatch(/^Refused: .* was made by a newer Humo/m)
  expect(cli.stderr).toContain('Update Humo to the version that made the backup')
  expect((await readdir(dataDir)).sort()).toEqual(before)
}, 120_000)

it('backs up a large media folder without reading it into memory', async () => {
  // 384 MiB of media (sparse files: nothing to read from the disk) in a shop folder.
  const shop = join(root, 'big-media-shop')
  await mkdir(join(shop, 'storage', 'product_media'), { recursive: true })
  await writeFile(join(shop, 'jwt-secret'), 'a-secret-for-the-big-media-shop-a-secret-for-it\n')
  const mediaBytes = 6 * 64 * 1024 ** 2
  for (let n = 1; n <= 6; n++) {
    const path = join(shop, 'storage', 'product_media', `video-${n}.mp4`)
    await writeFile(path, '')
    await truncate(path, mediaBytes / 6)
  }
  // In a process of its own, so its peak memory is the backup's alone.
  const { code, stdout, stderr } = await run(
    ['supabase/local/ops/backup-memory-check.ts', 'backup', shop, join(root, 'big-media-backups')],
    {},
  )
  expect(stderr).toBe('')
  expect(code).toBe(0)
  const { file, before, after } = JSON.parse(stdout) as {
    file: string
    before: number
    after: number
  }
  // maxRSS is in KiB. Holding the media would add at least their 384 MiB (it added 489 MiB).
  expect((after - before) * 1024).toBeLessThan(mediaBytes / 4)
  // And the file holds all of it (counted as it streams by, not held).
  const sizes = new Map<string, number>()
  const extract = tar.extract()
  extract.on('entry', (header, stream, next) => {
    let size = 0
    stream.on('data', (chunk: unknown) => (size += (chunk as Buffer).length))
    stream.on('end', () => {
      sizes.set(header.name, size)
      next()
    })
  })
  await pipeline(createReadStream(file), createGunzip(), extract)
  for (let n = 1; n <= 6; n++)
    expect(sizes.get(`data/storage/product_media/video-${n}.mp4`)).toBe(mediaBytes / 6)
  expect(sizes.has('humo-backup.json')).toBe(true)
}, 180_000)

it('keeps only the newest backups', async () => {
  const dir = join(root, 'prune')
  await mkdir(dir)
  for (let day = 1; day <= 9; day++)
    await writeFile(join(dir, `humo-backup-2026010${day}-120000.tar.gz`), '')
  await writeFile(join(dir, 'unrelated.txt'), '')
  await pruneBackups(dir, 7)
  expect((await readdir(dir)).sort()).toEqual([
    ...[3, 4, 5, 6, 7, 8, 9].map((d) => `humo-backup-2026010${d}-120000.tar.gz`),
    'unrelated.txt',
  ])
})

it('makes a daily backup when the newest is a day old, and not again while it is fresh', async () => {
  const dir = join(root, 'daily')
  const backend = await startHumoBackend({
    dataDir: join(root, 'daily-shop'),
    quiet: true,
    backups: { dir, keep: 2, daily: false },
  })
  try {
    let runs = 0
    const warnings: string[] = []
    const daily = startDailyBackups(
      async () => {
        runs++
        return backend.backup()
      },
      { dir, keep: 2 },
      (message) => warnings.push(message),
      100,
    )
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 30_000 })
    // Several more checks find a backup less than a day old.
    await new Promise((done) => setTimeout(done, 500))
    await daily.close()
    expect(runs).toBe(1)
    expect(warnings).toEqual([])
    expect((await readdir(dir)).filter((n) => n.endsWith('.tar.gz'))).toHaveLength(1)
  } finally {
    await backend.close()
  }
}, 60_000)
