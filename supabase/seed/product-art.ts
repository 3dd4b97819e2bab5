// Generated product cover art: an SVG per product with a gradient in its category's (a flower's:
// its strain's) colours, soft shapes placed by the product's name, and a simple illustration of
// the kind of product. No words: a card and a product page print the name and brand beside the
// picture, so a picture that carried them too showed them twice (issue 25). Seeding renders these
// to WebP (cover-image.ts) into the storage bucket, so the demo shop has real, distinct pictures
// without committed binaries.
import type { CategorySlug } from './catalogue.ts'

interface Palette {
  from: string
  to: string
  accent: string
  ink: string
}

const PALETTES: Record<CategorySlug, Palette[]> = {
  flower: [
    { from: '#0f3d2e', to: '#3e8e5a', accent: '#b7e4a1', ink: '#f4fbef' },
    { from: '#1d2b53', to: '#5b3f8c', accent: '#c9b3f5', ink: '#f6f1ff' },
    { from: '#234d20', to: '#77a03a', accent: '#e5f3a6', ink: '#fbfdf0' },
  ],
  edibles: [
    { from: '#7a1f3d', to: '#f06a6a', accent: '#ffd3c2', ink: '#fff6f2' },
    { from: '#4a2511', to: '#b5651d', accent: '#f6d7a7', ink: '#fff8ee' },
    { from: '#5c2a83', to: '#e86fa6', accent: '#ffd1ea', ink: '#fff4fa' },
  ],
  concentrates: [
    { from: '#3b1f00', to: '#d99a1e', accent: '#ffe6a3', ink: '#fffaf0' },
    { from: '#5a2d0c', to: '#f2b84b', accent: '#fff1c7', ink: '#fffaf0' },
  ],
  'branded-bags': [
    { from: '#1b1b1f', to: '#4b4b57', accent: '#f0c36a', ink: '#fdfaf3' },
    { from: '#3d1f14', to: '#e0773c', accent: '#ffd9b8', ink: '#fff7f1' },
  ],
  wholesale: [
    { from: '#12343b', to: '#2f7d86', accent: '#c6ecef', ink: '#f2fbfc' },
    { from: '#27323a', to: '#5f7482', accent: '#dbe5ec', ink: '#f5f8fa' },
  ],
}

function hash(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 16777619)
  }
  return h >>> 0
}

/** A seven-leaflet cannabis leaf around (0, 0), 250 units tall. */
const leafBlades = (
  [
    [-88, 0.42],
    [-58, 0.68],
    [-29, 0.9],
    [0, 1],
    [29, 0.9],
    [58, 0.68],
    [88, 0.42],
  ] as const
)
  .map(
    ([angle, scale]) =>
      `<path transform="rotate(${angle}) scale(${scale})" d="M0 0 C 26 -60 30 -170 0 -250 C -30 -170 -26 -60 0 0 Z" />`,
  )
  .join('')

function leaf(p: Palette): string {
  return `<g transform="translate(400 370) scale(1.2)" fill="${p.accent}" fill-opacity="0.92">${leafBlades}
    <path d="M-4 0 L4 0 L8 110 L-8 110 Z" /></g>`
}

function gummies(p: Palette): string {
  const drop = (x: number, y: number, r: number, rot: number, opacity: number) =>
    `<g transform="translate(${x} ${y}) rotate(${rot})"><rect x="${-r}" y="${-r}" width="${r * 2}" height="${r * 2}" rx="${r * 0.55}" fill="${p.accent}" fill-opacity="${opacity}"/>
     <ellipse cx="${-r * 0.35}" cy="${-r * 0.4}" rx="${r * 0.28}" ry="${r * 0.16}" fill="#ffffff" fill-opacity="0.55"/></g>`
  return drop(300, 290, 95, -12, 0.95) + drop(500, 260, 80, 14, 0.8) + drop(420, 420, 105, 4, 0.9)
}

function chocolate(p: Palette): string {
  const squares: string[] = []
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 4; col++) {
      squares.push(
        `<rect x="${-170 + col * 87}" y="${-125 + row * 87}" width="74" height="74" rx="8" fill="#000000" fill-opacity="0.14"/>`,
      )
    }
  }
  return `<g transform="translate(400 330) rotate(-8)">
    <rect x="-185" y="-140" width="370" height="280" rx="18" fill="${p.accent}" fill-opacity="0.95"/>${squares.join('')}
  </g>`
}

function can(p: Palette): string {
  return `<g transform="translate(400 320)">
    <rect x="-105" y="-190" width="210" height="360" rx="30" fill="${p.accent}" fill-opacity="0.95"/>
    <rect x="-90" y="-205" width="180" height="30" rx="12" fill="${p.accent}" fill-opacity="0.7"/>
    <rect x="-105" y="-60" width="210" height="110" fill="#000000" fill-opacity="0.12"/>
    <rect x="-80" y="-170" width="26" height="310" rx="13" fill="#ffffff" fill-opacity="0.35"/>
  </g>`
}

function cookie(p: Palette): string {
  const chips = [
    [-60, -40],
    [50, -70],
    [20, 40],
    [-40, 70],
    [90, 20],
    [-100, 10],
  ]
    .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="17" fill="${p.from}" fill-opacity="0.55"/>`)
    .join('')
  return `<g transform="translate(400 330)"><circle r="170" fill="${p.accent}" fill-opacity="0.95"/>${chips}</g>`
}

function preRolls(p: Palette): string {
  const joint = (x: number, rot: number) =>
    `<g transform="translate(${x} 330) rotate(${rot})"><path d="M-22 -170 L22 -170 L14 150 L-14 150 Z" fill="${p.ink}" fill-opacity="0.95"/>
     <rect x="-14" y="110" width="28" height="40" fill="${p.accent}"/><path d="M-22 -170 Q0 -200 22 -170 Z" fill="${p.ink}"/></g>`
  return joint(320, -14) + joint(400, 0) + joint(480, 14)
}

function shards(p: Palette): string {
  const shard = (points: string, opacity: number) =>
    `<polygon points="${points}" fill="${p.accent}" fill-opacity="${opacity}"/>`
  return `<g transform="translate(400 330)">${shard('-190,-40 -60,-150 10,-20 -120,90', 0.95)}${shard('20,-170 170,-90 120,40 0,-10', 0.8)}${shard('-40,20 110,60 60,190 -150,140', 0.9)}
    <polyline points="-150,-30 -70,-120" stroke="#ffffff" stroke-opacity="0.5" stroke-width="8" fill="none"/></g>`
}

function jar(p: Palette): string {
  return `<g transform="translate(400 340)">
    <rect x="-150" y="-175" width="300" height="70" rx="16" fill="${p.from}" fill-opacity="0.85"/>
    <rect x="-170" y="-110" width="340" height="270" rx="40" fill="#ffffff" fill-opacity="0.22"/>
    <path d="M-140 10 C -80 -30 -20 40 40 0 C 90 -30 130 0 140 20 L 140 130 C 140 150 125 160 110 160 L -110 160 C -125 160 -140 150 -140 130 Z" fill="${p.accent}" fill-opacity="0.95"/>
    <rect x="-140" y="-90" width="24" height="200" rx="12" fill="#ffffff" fill-opacity="0.35"/>
  </g>`
}

function tubes(p: Palette): string {
  const tube = (x: number, h: number) =>
    `<g transform="translate(${x} ${520 - h})"><rect x="-34" y="0" width="68" height="${h}" rx="30" fill="${p.accent}" fill-opacity="0.92"/>
     <rect x="-38" y="-16" width="76" height="40" rx="12" fill="${p.from}" fill-opacity="0.7"/></g>`
  return tube(250, 300) + tube(350, 360) + tube(450, 330) + tube(550, 280)
}

const TYPE_ILLUSTRATIONS: Record<string, (p: Palette) => string> = {
  Chocolates: chocolate,
  Beverages: can,
  'Baked Goods': cookie,
  'Pre-Rolls': preRolls,
  Shatter: shards,
  Rosin: jar,
  'Bulk Concentrates': jar,
  Packaging: tubes,
}

function droplet(p: Palette): string {
  return `<g transform="translate(400 320)">
    <path d="M0 -190 C 70 -90 140 -10 140 80 C 140 160 75 215 0 215 C -75 215 -140 160 -140 80 C -140 -10 -70 -90 0 -190 Z" fill="${p.accent}" fill-opacity="0.93"/>
    <ellipse cx="-55" cy="40" rx="26" ry="58" fill="#ffffff" fill-opacity="0.45" transform="rotate(20 -55 40)"/>
  </g>`
}

function bag(p: Palette): string {
  return `<g transform="translate(400 340)">
    <path d="M-95 -150 C -95 -230 95 -230 95 -150" fill="none" stroke="${p.accent}" stroke-width="22" stroke-linecap="round"/>
    <rect x="-190" y="-150" width="380" height="300" rx="34" fill="${p.accent}" fill-opacity="0.94"/>
    <rect x="-190" y="-150" width="380" height="56" rx="24" fill="#000000" fill-opacity="0.12"/>
    <g transform="translate(0 95) scale(0.36)" fill="${p.from}" fill-opacity="0.8">${leafBlades}</g>
  </g>`
}

function crates(p: Palette): string {
  const box = (x: number, y: number, w: number, h: number, o: number) =>
    `<g transform="translate(${x} ${y})"><rect width="${w}" height="${h}" rx="12" fill="${p.accent}" fill-opacity="${o}"/>
     <path d="M0 ${h * 0.32} H${w} M${w / 2} 0 V${h * 0.32}" stroke="${p.from}" stroke-opacity="0.35" stroke-width="8"/></g>`
  return (
    box(190, 300, 200, 170, 0.95) + box(410, 300, 200, 170, 0.85) + box(300, 120, 200, 170, 0.9)
  )
}

const ILLUSTRATIONS: Record<CategorySlug, (p: Palette) => string> = {
  flower: leaf,
  edibles: gummies,
  concentrates: droplet,
  'branded-bags': bag,
  wholesale: crates,
}

export interface ArtInput {
  /** Only chooses among the palettes and places the shapes: the picture shows no text. */
  name: string
  category: CategorySlug
  /** The product type picks a more specific illustration where there is one (Chocolates, ...). */
  type?: string
}

/** Flowers are coloured by strain, so a menu reads indica, sativa and hybrid at a glance. */
const STRAIN_PALETTES: Record<string, Palette> = {
  Indica: { from: '#1d2b53', to: '#6a3f9c', accent: '#d2bdf7', ink: '#f6f1ff' },
  Sativa: { from: '#2f4a12', to: '#c08a1e', accent: '#f4e39a', ink: '#fffbea' },
  Hybrid: { from: '#0f3d2e', to: '#3e8e5a', accent: '#b7e4a1', ink: '#f4fbef' },
}

/** Soft discs and rings behind the illustration, placed by the product's seed. */
function backdrop(p: Palette, seed: number): string {
  let state = seed || 1
  const next = () => {
    state = Math.imul(state ^ (state >>> 15), 2246822507) ^ Math.imul(state, 3266489909)
    state ^= state >>> 13
    return (state >>> 0) / 4294967296
  }
  const shapes: string[] = []
  for (let i = 0; i < 7; i++) {
    const x = Math.round(next() * 800)
    const y = Math.round(next() * 800)
    const r = Math.round(40 + next() * 130)
    const opacity = (0.06 + next() * 0.12).toFixed(2)
    shapes.push(
      i % 3 === 0
        ? `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${p.ink}" stroke-opacity="${opacity}" stroke-width="${Math.round(6 + next() * 10)}"/>`
        : `<circle cx="${x}" cy="${y}" r="${r}" fill="${p.accent}" fill-opacity="${opacity}"/>`,
    )
  }
  return shapes.join('')
}

export function productCoverSvg({ name, category, type }: ArtInput): string {
  const seed = hash(name)
  const strain = category === 'flower' && type ? STRAIN_PALETTES[type] : undefined
  const palettes = PALETTES[category]
  const p = strain ?? palettes[seed % palettes.length]!
  const angle = 20 + (seed % 50)
  // Each product's illustration sits a little differently, so neighbours on a menu differ.
  const tilt = ((seed >>> 8) % 17) - 8
  const scale = (0.92 + ((seed >>> 16) % 13) / 100).toFixed(2)
  const illustrate = (type && TYPE_ILLUSTRATIONS[type]) || ILLUSTRATIONS[category]
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
  <defs>
    <linearGradient id="bg" gradientTransform="rotate(${angle} 0.5 0.5)">
      <stop offset="0" stop-color="${p.from}"/>
      <stop offset="1" stop-color="${p.to}"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.45" r="0.5">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.3"/>
      <stop offset="1" stop-color="#ffffff" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="ground" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#000000" stop-opacity="0.18"/>
      <stop offset="1" stop-color="#000000" stop-opacity="0"/>
    </radialGradient>
  </defs>
  <rect width="800" height="800" fill="url(#bg)"/>
  ${backdrop(p, seed)}
  <circle cx="400" cy="370" r="340" fill="url(#glow)"/>
  <ellipse cx="400" cy="590" rx="250" ry="46" fill="url(#ground)"/>
  <g transform="translate(400 400) rotate(${tilt}) scale(${scale}) translate(-400 -400)">${illustrate(p)}</g>
</svg>
`
}
