// The server's copy of the catalogue pages (docs/decisions/010-server-copy-of-catalogue-pages.md): what an anonymous pull brings, read
// through the snapshot exactly as the device's RxDB database answers the screens' queries, and
// rendered by the app's own routes into the shell, kept until the catalogue changes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestBackend, type TestBackend } from '../fixtures/backend'
import { createTestDatabase } from '../fixtures/memory-database'
import { replicateCatalogue } from '../../src/data/replication/catalogue-replication'
import type { HumoDatabase } from '../../src/data/database'
import { createSnapshotData, snapshotOf } from '../../src/data/snapshot-data'
import { SHOP_SETTINGS_ID } from '../../src/data/replication/shop-settings-row'
import { createPrerenderer, readCatalogue, withCopy } from '../../supabase/local/site/prerender'

// The parts of the built index.html that the server works on (vite.config.ts, splashFirst).
const SHELL = `<!doctype html><html><head>
<link rel="preload" as="style" crossorigin href="/assets/app-abc.css" data-app-css onload="this.onload=null;this.rel='stylesheet'">
</head><body><div id="boot-splash"></div><div id="root"></div></body></html>`

let backend: TestBackend
let device: HumoDatabase
let dist: string
let server: Server
let base: string

beforeAll(async () => {
  backend = await startTestBackend()
  device = (await createTestDatabase()).db
  const catalogue = replicateCatalogue(backend.anon, device, { live: false, identifier: 'ssr' })
  await catalogue.awaitInitial()
  await catalogue.cancel()

  dist = await mkdtemp(join(tmpdir(), 'humo-prerender-'))
  await writeFile(join(dist, 'index.html'), SHELL)
  const prerender = createPrerenderer(backend.db, dist, () => import('../../src/entry-server'))
  const config = { supabaseUrl: backend.url, supabaseAnonKey: backend.anonKey }
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    prerender(req, res, url, config).then(
      (sent) => {
        if (sent) return
        res.writeHead(200, { 'Content-Type': 'text/html' })
        res.end(SHELL)
      },
      (error: unknown) => {
        res.writeHead(500)
        res.end(String(error))
      },
    )
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((done) => server?.close(done))
  await device?.close()
  await backend?.close()
  if (dist) await rm(dist, { recursive: true, force: true })
})

/** The copy's text, without tags. */
const copyOf = (html: string) => {
  const start = html.indexOf('<div id="prerendered-page"')
  return start < 0 ? null : html.slice(start, html.indexOf('<div id="root">'))
}

describe('the catalogue snapshot', () => {
  it('holds what a device pulls, and answers the screens’ queries as RxDB does', async () => {
    const { rows, readAt } = await readCatalogue(backend.db)
    const snapshot = snapshotOf(rows, readAt)
    const { db } = createSnapshotData(snapshot, { supabaseUrl: '', supabaseAnonKey: '' })
    const ids = (docs: { id: string }[]) => docs.map((doc) => doc.id)

    expect(snapshot.products.length).toBe(await device.products.count().exec())
    const queries = [
      {},
      { selector: { categorySlug: 'flower' } },
      { selector: { isFeatured: { $eq: true } } },
      { selector: { $or: [{ isFeatured: { $eq: true } }, { isOnSale: { $eq: true } }] } },
      { sort: [{ name: 'asc' as const }] },
    ]
    for (const query of queries)
      expect(ids(await db.products.find(query).exec()), JSON.stringify(query)).toEqual(
        ids(await device.products.find(query).exec()),
      )
    expect(ids(await db.brands.find({ sort: [{ name: 'asc' }] }).exec())).toEqual(
      ids(await device.brands.find({ sort: [{ name: 'asc' }] }).exec()),
    )

    const one = (await device.products.find().exec())[3]!
    const found = await db.products.findOne({ selector: { slug: one.slug } }).exec()
    expect(found?.toJSON()).toEqual(one.toJSON())
    expect(await db.products.findOne({ selector: { slug: 'no-such-product' } }).exec()).toBeNull()
    expect((await db.shop_settings.findOne(SHOP_SETTINGS_ID).exec())?.toJSON()).toEqual(
      (await device.shop_settings.findOne(SHOP_SETTINGS_ID).exec())?.toJSON(),
    )
    // The device's own collections are empty on the server: a first visit has no cart.
    expect(await db.cart_lines.find().exec()).toEqual([])
  })
})

describe('pre-rendered catalogue pages', () => {
  it('sends a menu with its products in a closed copy before #root, with a blocking stylesheet', async () => {
    const response = await fetch(`${base}/menu/flower`)
    expect(response.status).toBe(200)
    const html = await response.text()
    const copy = copyOf(html)
    expect(copy).not.toBeNull()
    expect(copy).toContain('<template shadowrootmode="closed">')
    // Issue 25: not inert (its links work), its controls shown as not ready until the app comes.
    expect(copy).toMatch(/^<div id="prerendered-page"><template/)
    expect(copy).not.toMatch(/\binert\b/)
    const controls = [...copy!.matchAll(/<(button|input|select|textarea)\b[^>]*>/g)]
    expect(controls.length).toBeGreaterThan(10)
    for (const [tag] of controls) expect(tag).toMatch(/^<\w+ disabled|\sdisabled=""/)
    const thumbs = [...copy!.matchAll(/<div\b[^>]*role="slider"[^>]*>/g)]
    expect(thumbs.length).toBeGreaterThan(0)
    for (const [tag] of thumbs) expect(tag).toMatch(/aria-disabled="true".*tabindex="-1"/)
    expect(copy).toMatch(/<a [^>]*href="\/product\/[^"]+"/)
    expect(copy).toContain('button:disabled')
    expect(copy).toContain('Flower Menu')
    const flower = await device.products.find({ selector: { categorySlug: 'flower' } }).exec()
    const edibles = await device.products.find({ selector: { categorySlug: 'edibles' } }).exec()
    expect(flower.length).toBeGreaterThan(12)
    // The first twelve cards are drawn, the rest are empty slots of a card's size (the page keeps
    // its height): every start parses the copy before the app takes over.
    const drawn = flower.filter((product) => copy!.includes(`alt="${product.name}"`))
    expect(drawn).toHaveLength(12)
    expect([...copy!.matchAll(/role="listitem"/g)]).toHaveLength(12)
    expect(copy).toContain(`aria-setsize="${flower.length}"`)
    for (const product of edibles) expect(copy).not.toContain(`alt="${product.name}"`)
    // A drawn card's video preview is not in the copy: its player is made when the preview is
    // asked for, and an inert copy is never asked.
    expect(drawn.some((product) => product.media.some((m) => m.type === 'video'))).toBe(true)
    expect(copy).not.toContain('<video')
    // The stylesheet holds the first paint, so the copy never shows unstyled.
    expect(html).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/app-abc.css" data-app-css>',
    )
    expect(html).not.toContain('rel="preload" as="style"')
    // The first row's pictures are fetched with the stylesheet, not when the parser finds them.
    const preloaded = [
      ...html.matchAll(/<link rel="preload" as="image" fetchpriority="high" href="([^"]+)">/g),
    ]
    expect(preloaded).toHaveLength(2)
    for (const [, src] of preloaded) expect(copy).toContain(`src="${src}"`)
  })

  it('sends a product page, and the not-found page for a slug the catalogue lacks', async () => {
    const product = (await device.products.find().exec())[0]!
    const page = copyOf(await (await fetch(`${base}/product/${product.slug}`)).text())
    expect(page).toMatch(new RegExp(`<h1[^>]*>${product.name.replace(/[^\w ]/g, '.')}</h1>`))

    // A product whose gallery opens on a video: the copy shows its picture in the video's place.
    const withVideo = (await device.products.find().exec()).find((doc) =>
      doc.media.some((m) => m.type === 'video'),
    )!
    const videoPage = copyOf(await (await fetch(`${base}/product/${withVideo.slug}`)).text())!
    expect(videoPage).toContain(`<h1`)
    expect(videoPage).not.toContain('<video')
    const firstSlide = /aria-label="1 of \d+"[^>]*>(<[^>]*>)/.exec(videoPage)?.[1]
    expect(firstSlide).toMatch(/^<img /)
    expect(firstSlide).toContain(`alt="${withVideo.name}"`)

    const missing = copyOf(await (await fetch(`${base}/product/no-such-product`)).text())
    expect(missing).toContain('Product not found')
    const unknownMenu = await fetch(`${base}/menu/no-such-menu`)
    expect(unknownMenu.status).toBe(404)
  })

  it('leaves redirects and shoppers’ own pages to the app', async () => {
    for (const path of ['/menu/concentrate', '/cart', '/checkout', '/admin']) {
      const html = await (await fetch(`${base}${path}`)).text()
      expect(html, path).toBe(SHELL)
    }
  })

  it('follows the catalogue: a product taken off sale leaves the copy at once', async () => {
    const before = copyOf(await (await fetch(`${base}/menu/flower`)).text())!
    const [product] = await device.products.find({ selector: { categorySlug: 'flower' } }).exec()
    expect(before).toContain(`alt="${product!.name}"`)

    const { error } = await backend.service
      .from('products')
      .update({ is_active: false })
      .eq('id', product!.id)
    expect(error).toBeNull()
    const after = copyOf(await (await fetch(`${base}/menu/flower`)).text())!
    expect(after).toContain('Flower Menu')
    expect(after).not.toContain(`alt="${product!.name}"`)
  })
})

describe('withCopy', () => {
  it('refuses a shell without the app stylesheet rather than send an unstyled copy', () => {
    expect(() => withCopy('<div id="root"></div>', '<main></main>')).toThrow(/stylesheet/)
  })
})
