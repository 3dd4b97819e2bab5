// Renders the short product videos of the demo catalogue (products marked `video: true` in
// catalogue.ts) into supabase/seed/media/{slug}.mp4: a 3 s seamless loop of the product's cover
// art breathing in and out, 360x360 H.264 without audio, with the index at the front
// (+faststart) so a card can start playing before the file is complete.
//
// Run once when the catalogue's videos change: `npx tsx supabase/seed/make-videos.ts` (needs
// ffmpeg with librsvg). The outputs are committed, so seeding never needs ffmpeg.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SEED_MEDIA_DIR as MEDIA_DIR, slugify } from './build-catalogue.ts'
import { products } from './catalogue.ts'
import { productCoverSvg } from './product-art.ts'

const SECONDS = 3
const FPS = 24
const FRAMES = SECONDS * FPS

// Zoom from 1 to 1.08 and back along a cosine, so the last frame meets the first; 1.08 keeps the
// illustration inside the frame. The cover is
// upscaled first because zoompan moves in whole pixels, which shows as jitter at small sizes.
const FILTER = [
  'scale=1440:1440',
  `zoompan=z='1.04-0.04*cos(2*PI*on/${FRAMES})':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=360x360:fps=${FPS}`,
  `hue=h='8*sin(2*PI*t/${SECONDS})'`,
  'format=yuv420p',
].join(',')

function main(): void {
  mkdirSync(MEDIA_DIR, { recursive: true })
  const work = mkdtempSync(join(tmpdir(), 'humo-videos-'))
  try {
    for (const product of products.filter((p) => p.video)) {
      const slug = slugify(product.name)
      const svg = join(work, `${slug}.svg`)
      const png = join(work, `${slug}.png`)
      const out = join(MEDIA_DIR, `${slug}.mp4`)
      writeFileSync(
        svg,
        productCoverSvg({
          name: product.name,
          category: product.category,
          type: product.type,
        }),
      )
      const ffmpeg = (args: string[]) =>
        execFileSync('ffmpeg', ['-y', '-hide_banner', '-loglevel', 'error', ...args], {
          stdio: 'inherit',
        })
      ffmpeg(['-i', svg, '-frames:v', '1', png])
      ffmpeg([
        ...['-loop', '1', '-framerate', String(FPS), '-i', png, '-t', String(SECONDS)],
        ...['-vf', FILTER],
        ...['-c:v', 'libx264', '-profile:v', 'main', '-preset', 'veryslow', '-crf', '30'],
        ...['-g', String(FRAMES), '-movflags', '+faststart', '-an', '-map_metadata', '-1'],
        // Reproducible bytes: no encoder tag that changes with the ffmpeg version.
        ...['-fflags', '+bitexact', '-flags:v', '+bitexact'],
        out,
      ])
      console.log(`${out}: ${(statSync(out).size / 1024).toFixed(0)} KB`)
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
