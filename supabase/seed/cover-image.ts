// The demo catalogue's cover pictures as a shop's would be: raster WebP, not SVG. A browser builds
// each SVG picture as a document of its own on the page's main thread (about 5–40 ms a picture on
// a slow machine, during the start), while it decodes a WebP beside it. The covers are drawn as
// SVG (product-art.ts) and rendered here with sharp at their own 800 px (a product page's picture
// on a phone is about 700 px wide; a card's, 350), about 11 KB each.
// Rendering takes ~60 ms a cover, so each is kept in node_modules/.cache by a hash of its SVG:
// seeding a fresh database (every test backend) renders nothing it rendered before.
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

export const COVER_SIZE = 800
const QUALITY = 80
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/humo-covers/', import.meta.url))

const rendered = new Map<string, Promise<Buffer>>()

async function render(svg: string, file: string): Promise<Buffer> {
  const cached = await readFile(file).catch(() => null)
  if (cached) return cached
  const webp = await sharp(Buffer.from(svg))
    .resize(COVER_SIZE, COVER_SIZE)
    .webp({ quality: QUALITY })
    .toBuffer()
  // Written aside and renamed, so a seed running beside this one never reads half a file.
  await mkdir(CACHE_DIR, { recursive: true })
  const partial = `${file}.${process.pid}.part`
  await writeFile(partial, webp)
  await rename(partial, file)
  return webp
}

/** The WebP of an SVG cover (the same SVG gives the same bytes). */
export function coverWebp(svg: string): Promise<Buffer> {
  const key = createHash('sha1').update(`${COVER_SIZE}:${QUALITY}:${svg}`).digest('hex')
  let webp = rendered.get(key)
  if (!webp) {
    webp = render(svg, join(CACHE_DIR, `${key}.webp`))
    webp.catch(() => rendered.delete(key))
    rendered.set(key, webp)
  }
  return webp
}
