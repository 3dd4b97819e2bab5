// Renders the app icons from the logo (public/icon.svg) with sharp: 192 and 512 px, a maskable
// 512 px icon with the logo inside the safe zone on the brand green, and the Apple touch icon.
// Run after changing the logo: `node scripts/make-icons.mjs`; the PNGs are committed.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const svg = readFileSync(path.join(root, 'public/icon.svg'))
const out = (name) => path.join(root, 'public', name)
const GREEN = '#14532d'

for (const size of [192, 512]) {
  await sharp(svg, { density: 384 })
    .resize(size, size)
    .png()
    .toFile(out(`icon-${size}.png`))
}
await sharp(svg, { density: 384 })
  .resize(180, 180)
  .flatten({ background: GREEN })
  .png()
  .toFile(out('apple-touch-icon.png'))
// Maskable: the whole square is painted; the logo sits in the central 60% safe zone.
const inner = await sharp(svg, { density: 384 }).resize(308, 308).png().toBuffer()
await sharp({ create: { width: 512, height: 512, channels: 4, background: GREEN } })
  .composite([{ input: inner, gravity: 'center' }])
  .png()
  .toFile(out('icon-maskable-512.png'))
console.log('icons written to public/')
