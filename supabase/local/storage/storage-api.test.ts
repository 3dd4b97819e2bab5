// @vitest-environment node
// Contract tests of /storage/v1 writes with the real storage-js: upload as raw body and as
// multipart, never overwriting, the bucket's admin-only RLS, the size and type limits, removal by
// path list and public reads of what was uploaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Client } from '../contract-testing.ts'
import { confirmedUser } from './storage-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

let backend: HumoBackend
let admin: Client
let customer: Client

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true, seed: false })
  admin = await confirmedUser(backend, 'owner')
  customer = await confirmedUser(backend)
}, 60_000)

afterAll(async () => {
  await backend?.close()
})

const bucket = () => admin.storage.from('product_media')
// A 2×2 PNG, and the start of an MP4 (its file type box), as storage reads a file's type from
// its bytes.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAANHQEDx0d0WQAAAABJRU5ErkJggg==',
  'base64',
)
const mp4 = (tail: string) =>
  Buffer.concat([Buffer.from('\0\0\0\x18ftypisom\0\0\x02\0isommp42', 'latin1'), Buffer.from(tail)])

describe('upload', () => {
  it('uploads a raw body and serves it publicly with its content type and cache control', async () => {
    const { data, error } = await bucket().upload('p1/1700000000000-abc.png', png, {
      contentType: 'image/png',
      cacheControl: '3600',
      upsert: false,
    })
    expect(error).toBeNull()
    expect(data).toEqual({
      path: 'p1/1700000000000-abc.png',
      id: expect.any(String) as string,
      fullPath: 'product_media/p1/1700000000000-abc.png',
    })
    const url = bucket().getPublicUrl(data!.path).data.publicUrl
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await response.arrayBuffer())).toEqual(png)
    const row = await backend.db.query<{ metadata: { mimetype: string; cacheControl: string } }>(
      `select metadata from storage.objects where bucket_id = 'product_media' and name = $1`,
      [data!.path],
    )
    expect(row.rows[0]!.metadata).toMatchObject({
      mimetype: 'image/png',
      cacheControl: 'max-age=3600',
    })
  })

  it('uploads a multipart body (a Blob) and keeps its type', async () => {
    const video = new Blob([mp4('a video')], { type: 'video/mp4' })
    const { data, error } = await bucket().upload('p1/clip.mp4', video)
    expect(error).toBeNull()
    const response = await fetch(bucket().getPublicUrl(data!.path).data.publicUrl)
    expect(response.headers.get('content-type')).toBe('video/mp4')
    expect(Buffer.from(await response.arrayBuffer())).toEqual(mp4('a video'))
  })

  it('never overwrites unless upsert is asked for', async () => {
    const again = await bucket().upload('p1/clip.mp4', mp4('other'), {
      contentType: 'video/mp4',
    })
    expect(again.error).toMatchObject({
      name: 'StorageApiError',
      status: 400,
      statusCode: '409',
      message: 'The resource already exists',
    })
    const response = await fetch(bucket().getPublicUrl('p1/clip.mp4').data.publicUrl)
    expect(Buffer.from(await response.arrayBuffer())).toEqual(mp4('a video'))

    const upsert = await bucket().upload('p1/clip.mp4', mp4('replaced'), {
      contentType: 'video/mp4',
      upsert: true,
    })
    expect(upsert.error).toBeNull()
    const replaced = await fetch(bucket().getPublicUrl('p1/clip.mp4').data.publicUrl)
    expect(Buffer.from(await replaced.arrayBuffer())).toEqual(mp4('replaced'))
  })

  it('lets only admins write, by the bucket policies', async () => {
    const byCustomer = await customer.storage
      .from('product_media')
      .upload('p1/hack.png', png, { contentType: 'image/png' })
    expect(byCustomer.error).toMatchObject({ statusCode: '403' })
    const byAnon = await clientFor(backend, backend.anonKey)
      .storage.from('product_media')
      .upload('p1/hack.png', png, { contentType: 'image/png' })
    expect(byAnon.error).toMatchObject({ statusCode: '403' })
    expect((await fetch(bucket().getPublicUrl('p1/hack.png').data.publicUrl)).status).toBe(400)
  })

  it('refuses oversized files, disallowed types and traversal, and keeps serving', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024 + 1)
    const tooBig = await bucket().upload('p1/big.mp4', big, { contentType: 'video/mp4' })
    expect(tooBig.error).toMatchObject({
      status: 413,
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    })
    const text = await bucket().upload('p1/notes.txt', Buffer.from('hi'), {
      contentType: 'text/plain',
    })
    expect(text.error).toMatchObject({ status: 415, statusCode: '415' })
    const traversal = await fetch(
      `${backend.url}/storage/v1/object/product_media/p1/..%2F..%2Fx.png`,
      {
        method: 'POST',
        headers: {
          apikey: backend.anonKey,
          Authorization: `Bearer ${backend.serviceRoleKey}`,
          'Content-Type': 'image/png',
        },
        body: png,
      },
    )
    expect(traversal.status).toBe(400)
    expect(await traversal.json()).toMatchObject({ statusCode: '400', error: 'InvalidKey' })
    const still = await bucket().upload('p1/after.png', png, { contentType: 'image/png' })
    expect(still.error).toBeNull()
  })
})

describe('remove', () => {
  it('removes by path list, returning what was removed; non-admins remove nothing', async () => {
    const byCustomer = await customer.storage.from('product_media').remove(['p1/after.png'])
    expect(byCustomer.error).toBeNull()
    expect(byCustomer.data).toEqual([])

    const { data, error } = await bucket().remove([
      'p1/after.png',
      'p1/1700000000000-abc.png',
      'p1/missing.png',
    ])
    expect(error).toBeNull()
    expect(data!.map((o) => o.name).sort()).toEqual(['p1/1700000000000-abc.png', 'p1/after.png'])
    expect((await fetch(bucket().getPublicUrl('p1/after.png').data.publicUrl)).status).toBe(400)
    // The path is free again.
    expect(
      (await bucket().upload('p1/after.png', png, { contentType: 'image/png' })).error,
    ).toBeNull()
  })
})
