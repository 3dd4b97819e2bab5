// @vitest-environment node
// Serving the built app: SPA fallback for navigations, no-cache shell files, immutable assets.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStaticApp } from './static-app.ts'

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
})
