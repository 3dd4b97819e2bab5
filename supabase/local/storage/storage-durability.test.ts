// @vitest-environment node
// An uploaded file is on the disk before the upload is answered (docs/decisions/034-durable-commits.md): its bytes are
// synced before the row's commit, and the folder it is renamed into is synced after, so a power
// cut cannot leave a durable storage.objects row whose file is missing. The test watches the
// fsyncs the server makes through node:fs/promises (the filesystem, not the code under test).
import type * as fsPromises from 'node:fs/promises'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Client } from '../contract-testing.ts'
import { confirmedUser } from './storage-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

const synced = vi.hoisted(() => [] as string[])

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof fsPromises>()
  const open: typeof actual.open = async (...args) => {
    const handle = await actual.open(...args)
    const sync = handle.sync.bind(handle)
    handle.sync = async () => {
      await sync()
      synced.push(String(args[0]))
    }
    return handle
  }
  return { ...actual, default: { ...actual, open }, open }
})

let backend: HumoBackend
let admin: Client

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true, seed: false })
  admin = await confirmedUser(backend, 'owner')
}, 60_000)

afterAll(async () => {
  await backend?.close()
})

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAANHQEDx0d0WQAAAABJRU5ErkJggg==',
  'base64',
)

it('syncs the uploaded bytes and the folder they land in before answering', async () => {
  synced.length = 0
  const { data, error } = await admin.storage
    .from('product_media')
    .upload('durable/1700000000000-a.png', png, { contentType: 'image/png' })
  expect(error).toBeNull()
  expect(data?.path).toBe('durable/1700000000000-a.png')
  // The temporary file (in storage's .uploads folder) was synced, then the product's folder.
  const fileSync = synced.findIndex((path) => /[\\/]\.uploads[\\/][0-9a-f-]{36}$/.test(path))
  const folderSync = synced.findIndex((path) => /[\\/]product_media[\\/]durable$/.test(path))
  expect(fileSync).toBeGreaterThanOrEqual(0)
  expect(folderSync).toBeGreaterThan(fileSync)
})
