// Turns the demo catalogue (catalogue.ts) into table rows and cover images, and pads it with
// generated products when a larger catalogue is asked for (benchmarks: `--products 10000`).
// Everything is deterministic: the same request yields the same ids, names and images, so test
// fixtures and media URLs are stable across fresh databases.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { coverWebp } from './cover-image.ts'
import {
  brands,
  categories,
  productTypes,
  products as handWritten,
  type CategorySlug,
  type ProductSeed,
} from './catalogue.ts'
import { metrcPackageOf } from './metrc-package.ts'
import { productCoverSvg } from './product-art.ts'

export interface CatalogueRows {
  categories: Record<string, unknown>[]
  brands: Record<string, unknown>[]
  productTypes: Record<string, unknown>[]
  products: Record<string, unknown>[]
  media: Record<string, unknown>[]
  effects: Record<string, unknown>[]
  terpenes: Record<string, unknown>[]
  /**
   * Files for the product_media bucket: path inside the bucket and contents, or how to make them
   * (the covers are rendered when the seed is applied).
   */
  files: {
    path: string
    contents: string | Buffer | (() => Promise<Buffer>)
    contentType: string
  }[]
}

/** The committed product videos (make-videos.ts renders them): media/{slug}.mp4. */
export const SEED_MEDIA_DIR = fileURLToPath(new URL('./media', import.meta.url))

/** A name-based (version 5 style) UUID, so seeded ids are the same on every fresh database. */
export function seedUuid(kind: string, key: string): string {
  const bytes = createHash('sha1').update(`humo:${kind}:${key}`).digest().subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x50
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

const SKU_PREFIX: Record<CategorySlug, string> = {
  flower: 'FLW',
  edibles: 'EDB',
  concentrates: 'CON',
  'branded-bags': 'BAG',
  wholesale: 'WHL',
}

const escapeHtml = (text: string): string =>
  text.replace(/[<>&"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[ch]!)

function descriptionHtml(product: ProductSeed): string {
  const paragraphs = product.blurb.map((p) => `<p>${escapeHtml(p)}</p>`).join('')
  const list = product.highlights.length
    ? `<ul>${product.highlights.map((h) => `<li>${escapeHtml(h)}</li>`).join('')}</ul>`
    : ''
  return paragraphs + list
}

/** What the law needs to know of a product (docs/decisions/051-california-taxes-and-daily-limits.md), as the products table keeps it. */
export interface ProductFacts {
  is_cannabis: boolean
  limit_class: 'flower' | 'concentrate' | null
  limit_grams: number | null
  thc_mg: number | null
  cbd_mg: number | null
  servings: number | null
}

/**
 * A seed product's facts, from its category, type and milligrams:
 * - merchandise (branded bags, packaging) is not cannabis and counts toward no daily limit;
 * - flower, pre-rolls and bulk flower count toward the flower limit by their weight;
 * - concentrates (bulk ones too) count toward the concentrate limit by their weight;
 * - edibles and drinks count toward the concentrate limit (4 CCR §15409 counts the concentrated
 *   cannabis in a manufactured product) with the THC they contain, in grams: the THC milligrams
 *   per package / 1000 (100 mg is 0.1 g), not the weight of the chocolate or the can.
 */
export function factsOf(seed: ProductSeed): ProductFacts {
  const mg = {
    thc_mg: seed.thcMg ?? null,
    cbd_mg: seed.cbdMg ?? null,
    servings: seed.servings ?? null,
  }
  if (seed.category === 'branded-bags' || seed.type === 'Packaging')
    return { is_cannabis: false, limit_class: null, limit_grams: null, ...mg }
  if (seed.category === 'flower' || seed.type === 'Bulk Flower')
    return { is_cannabis: true, limit_class: 'flower', limit_grams: null, ...mg }
  if (seed.thcMg !== undefined)
    return {
      is_cannabis: true,
      limit_class: 'concentrate',
      limit_grams: seed.thcMg / 1000,
      ...mg,
    }
  if (seed.category === 'concentrates' || seed.type === 'Bulk Concentrates')
    return { is_cannabis: true, limit_class: 'concentrate', limit_grams: null, ...mg }
  throw new Error(`Seed product ${seed.name}: no facts (an edible needs its THC milligrams)`)
}

export function buildCatalogue(options: { products?: number; now?: Date } = {}): CatalogueRows {
  const now = options.now ?? new Date()
  const wanted = Math.max(options.products ?? handWritten.length, 0)
  const seeds =
    wanted <= handWritten.length
      ? handWritten.slice(0, wanted)
      : [...handWritten, ...generateProducts(wanted - handWritten.length)]

  const categoryId = new Map(categories.map((c) => [c.slug, seedUuid('category', c.slug)]))
  const brandId = new Map(brands.map((b) => [b.slug, seedUuid('brand', b.slug)]))
  const typeId = new Map(productTypes.map((t) => [t.name, seedUuid('product_type', t.name)]))

  const rows: CatalogueRows = {
    categories: categories.map((c) => ({
      id: categoryId.get(c.slug),
      name: c.name,
      slug: c.slug,
      description: c.description,
      display_order: c.displayOrder,
      is_active: true,
    })),
    brands: brands.map((b) => ({
      id: brandId.get(b.slug),
      name: b.name,
      slug: b.slug,
      description: b.description,
      founded_year: b.foundedYear,
      logo_url: null,
      is_active: true,
    })),
    productTypes: productTypes.map((t) => ({
      id: typeId.get(t.name),
      name: t.name,
      description: t.description,
    })),
    products: [],
    media: [],
    effects: [],
    terpenes: [],
    files: [],
  }

  const usedSlugs = new Set<string>()
  seeds.forEach((seed, index) => {
    let slug = slugify(seed.name)
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${slugify(seed.name)}-${n}`
    usedSlugs.add(slug)
    const id = seedUuid('product', slug)
    const brand = brandId.get(seed.brand)
    const category = categoryId.get(seed.category)
    const type = typeId.get(seed.type)
    if (!brand || !category || !type)
      throw new Error(`Seed product ${seed.name} names an unknown brand, category or type`)
    // Newest first in the demo: hand-written products were "added" over the past weeks.
    const createdAt = new Date(now.getTime() - index * 37 * 60 * 60 * 1000)
    rows.products.push({
      id,
      name: seed.name,
      slug,
      sku: `${SKU_PREFIX[seed.category]}-${String(index + 1).padStart(5, '0')}`,
      description: descriptionHtml(seed),
      price: seed.price,
      original_price: seed.originalPrice ?? null,
      quantity_available: seed.stock === 'unlimited' ? null : seed.stock,
      is_unlimited_quantity: seed.stock === 'unlimited',
      is_active: seed.active ?? true,
      is_on_sale: seed.originalPrice !== undefined && seed.originalPrice > seed.price,
      is_featured: seed.featured ?? false,
      thc_percentage: seed.thc ?? null,
      cbd_percentage: seed.cbd ?? null,
      total_cannabinoids_percentage: seed.totalCannabinoids ?? null,
      smokeback_percentage: seed.smokeback ?? null,
      weight_grams: seed.weightGrams,
      ...factsOf(seed),
      ...metrcPackageOf(seed, index, factsOf(seed).is_cannabis),
      brand_id: brand,
      category_id: category,
      product_type_id: type,
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
    })
    // A video comes before the cover in display order (SPEC.md: videos first), while the cover
    // stays the primary image that cards and the cart show.
    if (seed.video) {
      const videoPath = `${id}/preview.mp4`
      rows.media.push({
        id: seedUuid('product_media', videoPath),
        product_id: id,
        media_url: videoPath,
        media_type: 'video',
        is_primary: false,
        display_order: 0,
      })
      rows.files.push({
        path: videoPath,
        contentType: 'video/mp4',
        contents: readFileSync(`${SEED_MEDIA_DIR}/${slug}.mp4`),
      })
    }
    // The demo's own products get raster covers, as a shop's photos are (cover-image.ts). The
    // thousands generated for the data benchmarks keep the SVG: rendering them would take minutes,
    // and no benchmark of those draws them.
    const raster = index < handWritten.length
    const path = `${id}/cover.${raster ? 'webp' : 'svg'}`
    const svg = productCoverSvg({
      name: seed.name,
      category: seed.category,
      type: seed.type,
    })
    rows.media.push({
      id: seedUuid('product_media', path),
      product_id: id,
      media_url: path,
      media_type: 'image',
      is_primary: true,
      display_order: seed.video ? 1 : 0,
    })
    rows.files.push(
      raster
        ? { path, contentType: 'image/webp', contents: () => coverWebp(svg) }
        : { path, contentType: 'image/svg+xml', contents: svg },
    )
    for (const effect of seed.effects) {
      rows.effects.push({
        id: seedUuid('product_effect', `${id}:${effect}`),
        product_id: id,
        effect_name: effect,
      })
    }
    for (const [terpene, percentage] of seed.terpenes) {
      rows.terpenes.push({
        id: seedUuid('terpene_profile', `${id}:${terpene}`),
        product_id: id,
        terpene_name: terpene,
        percentage,
      })
    }
  })
  return rows
}

// generated products --------------------------------------------------------------------------------

function mulberry32(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const PLACES = [
  'Humboldt',
  'Mendocino',
  'Sonoma',
  'Ojai',
  'Big Sur',
  'Topanga',
  'Malibu',
  'Tahoe',
  'Napa',
  'Santa Cruz',
  'Joshua Tree',
  'Mojave',
  'Pacifica',
  'Carmel',
  'Eureka',
  'Shasta',
  'Yosemite',
  'Laguna',
]
const FLAVOURS = [
  'Tangerine',
  'Blackberry',
  'Guava',
  'Lemon',
  'Cherry',
  'Mango',
  'Sour Apple',
  'Grape',
  'Strawberry',
  'Pineapple',
  'Vanilla',
  'Peach',
  'Lime',
  'Honeydew',
  'Cocoa',
  'Blueberry',
]
const STRAINS = [
  'Kush',
  'Haze',
  'Cookies',
  'Gelato',
  'Runtz',
  'Diesel',
  'Zkittlez',
  'Sherbet',
  'Cake',
  'Dream',
  'OG',
  'Glue',
  'Sunset',
  'Mints',
  'Breath',
]
const EFFECTS = [
  'Relaxed',
  'Happy',
  'Euphoric',
  'Uplifted',
  'Creative',
  'Focused',
  'Sleepy',
  'Energetic',
  'Calm',
  'Giggly',
  'Hungry',
  'Talkative',
]
const TERPENES = [
  'Myrcene',
  'Limonene',
  'Caryophyllene',
  'Linalool',
  'Pinene',
  'Terpinolene',
  'Humulene',
  'Ocimene',
]

interface Template {
  category: CategorySlug
  types: string[]
  brands: string[]
  name: (pick: <T>(list: T[]) => T) => string
  price: [number, number]
  weight: number[] | null
  thc: [number, number] | null
  effects: boolean
}

const TEMPLATES: Template[] = [
  {
    category: 'flower',
    types: ['Indica', 'Sativa', 'Hybrid', 'Pre-Rolls'],
    brands: [
      'humboldt-heritage',
      'sonoma-sungrown',
      'emerald-triangle-co',
      'big-sur-botanicals',
      'golden-coast-farms',
      'pacific-bloom',
    ],
    name: (pick) => `${pick(PLACES)} ${pick(FLAVOURS)} ${pick(STRAINS)}`,
    price: [25, 80],
    weight: [1, 3.5, 7],
    thc: [17, 31],
    effects: true,
  },
  {
    category: 'edibles',
    types: ['Gummies', 'Chocolates', 'Beverages', 'Baked Goods'],
    brands: [
      'laurel-canyon-confections',
      'golden-state-bakehouse',
      'pacific-bloom',
      'big-sur-botanicals',
    ],
    name: (pick) =>
      `${pick(FLAVOURS)} ${pick(['Gummies', 'Chews', 'Truffles', 'Bites', 'Tonic', 'Cookies', 'Brownie'])}`,
    price: [8, 35],
    weight: [45, 60, 120],
    thc: null,
    effects: true,
  },
  {
    category: 'concentrates',
    types: ['Live Resin', 'Rosin', 'Shatter', 'Wax'],
    brands: ['mojave-extracts', 'emerald-triangle-co', 'sonoma-sungrown'],
    name: (pick) =>
      `${pick(FLAVOURS)} ${pick(STRAINS)} ${pick(['Live Resin', 'Rosin', 'Shatter', 'Badder', 'Sauce', 'Budder'])}`,
    price: [30, 90],
    weight: [0.5, 1, 2],
    thc: [65, 88],
    effects: true,
  },
  {
    category: 'branded-bags',
    types: ['Luxury Bags', 'Limited Edition', 'Custom Designs'],
    brands: ['humo-goods', 'salt-and-sage-packaging'],
    name: (pick) =>
      `${pick(PLACES)} ${pick(['Canvas', 'Vegan Leather', 'Nylon', 'Corduroy', 'Denim'])} ${pick(['Stash Bag', 'Travel Pouch', 'Rolling Clutch', 'Sling', 'Duffel'])}`,
    price: [24, 120],
    weight: null,
    thc: null,
    effects: false,
  },
  {
    category: 'wholesale',
    types: ['Bulk Flower', 'Bulk Concentrates', 'Packaging'],
    brands: ['humboldt-heritage', 'sonoma-sungrown', 'mojave-extracts', 'salt-and-sage-packaging'],
    name: (pick) =>
      `Bulk ${pick(PLACES)} ${pick(STRAINS)} (${pick(['1 lb', '1/2 lb', '28 g', '1,000 ct'])})`,
    price: [150, 1500],
    weight: [28, 226.8, 453.6],
    thc: [18, 80],
    effects: true,
  },
]

const round2 = (n: number): number => Math.round(n * 100) / 100

/** `count` plausible products spread over the categories, deterministic for a given count. */
export function generateProducts(count: number): ProductSeed[] {
  const random = mulberry32(0x48756d6f) // "Humo"
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!
  const between = (min: number, max: number): number => min + random() * (max - min)
  // Draws made for fields since removed, so every generated product keeps its other values.
  const skip = (draws: number) => {
    for (let d = 0; d < draws; d++) random()
    return {}
  }
  const out: ProductSeed[] = []
  for (let i = 0; i < count; i++) {
    const template = TEMPLATES[i % TEMPLATES.length]!
    const price = round2(Math.round(between(...template.price)) - 0.01)
    const onSale = random() < 0.18
    const roll = random()
    const stock: ProductSeed['stock'] =
      template.category === 'branded-bags' && roll < 0.3
        ? 'unlimited'
        : roll < 0.05
          ? 0
          : roll < 0.15
            ? Math.floor(between(1, 10))
            : Math.floor(between(10, 150))
    const thc = template.thc ? round2(between(...template.thc)) : undefined
    const effects = template.effects
      ? [...new Set([pick(EFFECTS), pick(EFFECTS), pick(EFFECTS)])]
      : []
    const terpenes: [string, number | null][] = template.thc
      ? [...new Set([pick(TERPENES), pick(TERPENES), pick(TERPENES)])].map((t) => [
          t,
          round2(between(0.1, 2.5)),
        ])
      : []
    const name = `${template.name(pick)} No. ${i + 1}`
    // Drawn in the order they always were, so each generated product stays the same.
    const brand = pick(template.brands)
    const type = pick(template.types)
    const seed: ProductSeed = {
      name,
      category: template.category,
      brand,
      type,
      price,
      ...(onSale ? { originalPrice: round2(price * between(1.1, 1.4)) } : {}),
      stock,
      weightGrams: template.weight ? pick(template.weight) : null,
      ...(thc !== undefined
        ? { thc, totalCannabinoids: round2(Math.min(thc * 1.12, 99)), cbd: round2(between(0, 1)) }
        : {}),
      // A made-up rating and review count were drawn here (docs/decisions/056-real-reviews-or-none.md: reviews are real or none).
      ...skip(2),
      featured: random() < 0.08,
      effects,
      terpenes,
      blurb: [
        `${name} from ${template.category === 'branded-bags' ? 'our accessories line' : 'a licensed California producer'}, lab-tested for potency and safety.`,
      ],
      highlights: ['Lab-tested', 'California-grown'],
    }
    out.push(withGeneratedFacts(seed, i))
  }
  return out
}

/** A generated edible's doses by its index (no random draw): [THC mg per package, servings]. */
const EDIBLE_DOSES: [number, number][] = [
  [100, 10],
  [5, 1],
  [40, 4],
  [100, 20],
  [10, 1],
]

/**
 * A generated product made as honest as a hand-written one: an edible states its milligrams and
 * servings instead of a percentage, and packaging (a wholesale type drawn at random) is no
 * cannabis, so it has no cannabinoids, terpenes or weight to show.
 */
function withGeneratedFacts(seed: ProductSeed, index: number): ProductSeed {
  if (seed.category === 'edibles') {
    const [thcMg, servings] = EDIBLE_DOSES[index % EDIBLE_DOSES.length]!
    return { ...seed, thcMg, servings }
  }
  if (seed.type === 'Packaging') {
    const { thc: _thc, cbd: _cbd, totalCannabinoids: _total, ...rest } = seed
    return { ...rest, weightGrams: null, effects: [], terpenes: [] }
  }
  return seed
}
