// @vitest-environment node
// Serving the built app: SPA fallback for navigations, no-cache shell files, immutable assets,
// text files compressed as the browser accepts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pickEncoding } from '../http/compression.ts'
import { createStaticApp } from './static-app.ts'

// A script big enough to be worth compressing, and repetitive enough to shrink a lot.
const BIG_SCRIPT = Array.from({ length: 400 }, (_, i) => `export const item${i} = ${i} * 2;`).join(
  '\n',
)

/** A raw request (fetch would decompress on its own and hide Content-Encoding's effect). */
function get(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, method }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

let dist: string
let server: Server
let base: string

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'humo-dist-'))
  await mkdir(join(dist, 'assets'))
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Humo</title>')
  await writeFile(join(dist, 'sw.js'), 'self.addEventListener("install", () => {})')
  await writeFile(join(dist, 'manifest.webmanifest'), '{"name":"Humo"}')
  await writeFile(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)')
  await writeFile(join(dist, 'assets', 'big-def456.js'), BIG_SCRIPT)
  await mkdir(join(dist, '.vite'))
  await writeFile(join(dist, '.vite', 'manifest.json'), JSON.stringify({ x: BIG_SCRIPT }))
  server = createServer(createStaticApp(dist))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((done) => server.close(done))
  await rm(dist, { recursive: true, force: true })
})

describe('static app', () => {
  it('falls back to index.html for client routes, revalidated every time', async () => {
    for (const path of ['/', '/menu', '/menu/flower', '/no/such/page']) {
      const response = await fetch(base + path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('text/html')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(await response.text()).toContain('<title>Humo</title>')
    }
  })

  it('serves the service worker and manifest with no-cache, hashed assets as immutable', async () => {
    const sw = await fetch(`${base}/sw.js`)
    expect(sw.headers.get('cache-control')).toBe('no-cache')
    expect(sw.headers.get('content-type')).toContain('javascript')
    const manifest = await fetch(`${base}/manifest.webmanifest`)
    expect(manifest.headers.get('cache-control')).toBe('no-cache')
    const asset = await fetch(`${base}/assets/index-abc123.js`)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('answers a missing file (not a navigation) with 404', async () => {
    const response = await fetch(`${base}/assets/missing-123.js`)
    expect(response.status).toBe(404)
  })

  it('sends scripts compressed with brotli or gzip as accepted, and plain otherwise', async () => {
    const url = `${base}/assets/big-def456.js`
    const br = await get(url, { 'Accept-Encoding': 'gzip, deflate, br' })
    expect(br.status).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['vary']).toBe('Accept-Encoding')
    expect(br.headers['content-type']).toContain('javascript')
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(br.body.length).toBeLessThan(BIG_SCRIPT.length / 3)
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG_SCRIPT)

    const gz = await get(url, { 'Accept-Encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.body).toString()).toBe(BIG_SCRIPT)

    const plain = await get(url)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(BIG_SCRIPT)
  })

  it('revalidates a compressed file by its ETag, and answers HEAD without a body', async () => {
    const url = `${base}/assets/big-def456.js`
    const first = await get(url, { 'Accept-Encoding': 'br' })
    const etag = String(first.headers['etag'])
    const again = await get(url, { 'Accept-Encoding': 'br', 'If-None-Match': etag })
    expect(again.status).toBe(304)
    expect(again.body.length).toBe(0)
    const head = await get(url, { 'Accept-Encoding': 'br' }, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(String(first.body.length))
    expect(head.body.length).toBe(0)
  })

  it('leaves tiny files and dotfiles alone', async () => {
    const tiny = await get(`${base}/assets/index-abc123.js`, { 'Accept-Encoding': 'br' })
    expect(tiny.headers['content-encoding']).toBeUndefined()
    expect(tiny.body.toString()).toBe('console.log(1)')
    const hidden = await get(`${base}/.vite/manifest.json`, { 'Accept-Encoding': 'br' })
    expect(hidden.headers['content-encoding']).toBeUndefined()
    expect(hidden.body.toString()).not.toContain('item399')
  })
})

describe('pickEncoding', () => {
  it('prefers brotli, honours q=0, and falls back to none', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(pickEncoding('gzip, br;q=0')).toBe('gzip')
    expect(pickEncoding('*')).toBe('br')
    expect(pickEncoding('identity')).toBeNull()
    expect(pickEncoding(undefined)).toBeNull()
  })
})
