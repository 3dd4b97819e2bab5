import { describe, expect, it } from 'vitest'
import type { ProductDoc } from '../schemas/product.schema'
import { ProductSearch } from './product-search'

type Seed = {
  name: string
  category: 'flower' | 'edibles' | 'concentrates' | 'wholesale'
  type: string
  brand: string
  effects?: string[]
  terpenes?: string[]
  description?: string
}

const CATEGORY_NAMES = {
  flower: 'Flower',
  edibles: 'Edibles',
  concentrates: 'Concentrates',
  wholesale: 'Wholesale',
}

function product(seed: Seed, modified = '2026-11-01T00:00:00.000001+00:00'): ProductDoc {
  const id = seed.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return {
    id,
    slug: id,
    name: seed.name,
    description: seed.description ?? '',
    price: 30,
    unlimited: false,
    isOnSale: false,
    isFeatured: false,
    rating: 4.5,
    reviewCount: 10,
    isCannabis: true,
    categorySlug: seed.category,
    category: { id: seed.category, name: CATEGORY_NAMES[seed.category], slug: seed.category },
    brand: { id: seed.brand, name: seed.brand },
    productType: { id: seed.type, name: seed.type },
    media: [],
    effects: seed.effects ?? [],
    terpenes: (seed.terpenes ?? []).map((name) => ({ name, percentage: 0.5 })),
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
    serverModified: modified,
  }
}

// A slice of the demo catalogue (supabase/seed/catalogue.ts).
const purpleKush = product({
  name: 'Humboldt Purple Kush',
  category: 'flower',
  type: 'Indica',
  brand: 'Humboldt Heritage',
  effects: ['Relaxed', 'Sleepy', 'Happy'],
  terpenes: ['Myrcene', 'Caryophyllene', 'Linalool'],
  description: '<p>Dense, violet-streaked buds grown on a family farm above Garberville.</p>',
})
const sleepyKush = product({
  name: 'Shasta Sleepy Kush',
  category: 'flower',
  type: 'Indica',
  brand: 'Emerald Triangle Co.',
  effects: ['Sleepy', 'Calm'],
  terpenes: ['Myrcene', 'Linalool'],
  description: '<p>A gentle, lower-THC indica with a touch of CBD.</p>',
})
const blueDream = product({
  name: 'Big Sur Blue Dream',
  category: 'flower',
  type: 'Hybrid',
  brand: 'Big Sur Botanicals',
  effects: ['Creative', 'Uplifted'],
  terpenes: ['Myrcene', 'Pinene'],
  description: '<p>Blueberry sweetness over a clear, creative lift.</p>',
})
const haze = product({
  name: 'Sonoma Sunrise Haze',
  category: 'flower',
  type: 'Sativa',
  brand: 'Sonoma Sungrown',
  effects: ['Energetic', 'Uplifted', 'Focused'],
  terpenes: ['Terpinolene', 'Limonene'],
  description: '<p>A bright daytime sativa; pairs with a hike, not with a nap. Not a kush.</p>',
})
const gummies = product({
  name: 'Watermelon Sea Salt Gummies',
  category: 'edibles',
  type: 'Gummies',
  brand: 'Laurel Canyon Confections',
  effects: ['Happy', 'Relaxed'],
})
const sleepGummies = product({
  name: 'Lavender Dream CBD Sleep Gummies',
  category: 'edibles',
  type: 'Gummies',
  brand: 'Laurel Canyon Confections',
  effects: ['Sleepy', 'Calm'],
})
const chocolate = product({
  name: 'Dark Chocolate Sea Salt Bar',
  category: 'edibles',
  type: 'Chocolates',
  brand: 'Golden State Bakehouse',
  effects: ['Relaxed'],
})
const blueberryRosin = product({
  name: 'Blueberry Muffin Live Rosin',
  category: 'concentrates',
  type: 'Rosin',
  brand: 'Mojave Extracts',
  effects: ['Happy'],
  terpenes: ['Myrcene', 'Limonene'],
})
const bulkIndica = product({
  name: 'Bulk Greenhouse Indica (1/2 lb)',
  category: 'wholesale',
  type: 'Bulk Flower',
  brand: 'Humboldt Heritage',
  effects: ['Relaxed'],
  terpenes: ['Myrcene'],
})

const CATALOGUE = [
  purpleKush,
  sleepyKush,
  blueDream,
  haze,
  gummies,
  sleepGummies,
  chocolate,
  blueberryRosin,
  bulkIndica,
]

async function indexOf(products: ProductDoc[] = CATALOGUE): Promise<ProductSearch> {
  const search = new ProductSearch()
  await search.update(products)
  return search
}

const names = (products: ProductDoc[]) => products.map((p) => p.name)

describe('product search', () => {
  it('finds gummies for "gumies" (a typo) and nothing unrelated', async () => {
    const search = await indexOf()
    expect(names(search.search('gumies')).sort()).toEqual([
      'Lavender Dream CBD Sleep Gummies',
      'Watermelon Sea Salt Gummies',
    ])
  })

  it('finds indica strains for "indica", retail first, the wholesale bulk item last', async () => {
    const search = await indexOf()
    const found = names(search.search('indica'))
    expect(found.slice(0, 2).sort()).toEqual(['Humboldt Purple Kush', 'Shasta Sleepy Kush'])
    expect(found.at(-1)).toBe('Bulk Greenhouse Indica (1/2 lb)')
    expect(found).toHaveLength(3)
  })

  it('finds by brand, effect and terpene', async () => {
    const search = await indexOf()
    expect(names(search.search('humboldt heritage')).sort()).toEqual([
      'Bulk Greenhouse Indica (1/2 lb)',
      'Humboldt Purple Kush',
    ])
    expect(names(search.search('mojave'))).toEqual(['Blueberry Muffin Live Rosin'])
    expect(names(search.search('uplifted')).sort()).toEqual([
      'Big Sur Blue Dream',
      'Sonoma Sunrise Haze',
    ])
    expect(names(search.search('terpinolene'))).toEqual(['Sonoma Sunrise Haze'])
    expect(names(search.search('carophylene'))).toEqual(['Humboldt Purple Kush']) // two typos
    expect(names(search.search('limonene')).sort()).toEqual([
      'Blueberry Muffin Live Rosin',
      'Sonoma Sunrise Haze',
    ])
  })

  it('matches the start of a word as the shopper types ("blue d" → Blue Dream)', async () => {
    const search = await indexOf()
    expect(names(search.search('blue d'))[0]).toBe('Big Sur Blue Dream')
    expect(names(search.search('blue d'))).not.toContain('Blueberry Muffin Live Rosin')
    expect(names(search.search('terpino'))).toEqual(['Sonoma Sunrise Haze'])
    expect(names(search.search('sleepy ku')).sort()).toEqual([
      'Humboldt Purple Kush',
      'Shasta Sleepy Kush',
    ])
    expect(names(search.search('gumm')).sort()).toEqual([
      'Lavender Dream CBD Sleep Gummies',
      'Watermelon Sea Salt Gummies',
    ])
  })

  it('needs every word to match, across fields ("sativa uplifted", "sleepy gummies")', async () => {
    const search = await indexOf()
    expect(names(search.search('sativa uplifted'))).toEqual(['Sonoma Sunrise Haze'])
    expect(names(search.search('sleepy gummies'))).toEqual(['Lavender Dream CBD Sleep Gummies'])
    expect(search.search('sativa chocolate')).toEqual([])
  })

  it('ranks name matches before matches elsewhere', async () => {
    const search = await indexOf()
    // Haze's description says "kush"; the two kushes carry it in their names.
    const kush = names(search.search('kush'))
    expect(kush.slice(0, 2).sort()).toEqual(['Humboldt Purple Kush', 'Shasta Sleepy Kush'])
    expect(kush.at(-1)).toBe('Sonoma Sunrise Haze')
    // "Sleepy" is Shasta Sleepy Kush's name and three other products' effect.
    expect(names(search.search('sleepy'))[0]).toBe('Shasta Sleepy Kush')
    expect(search.search('sleepy')).toHaveLength(3)
  })

  it('ignores case, accents and stop words', async () => {
    const search = await indexOf([
      ...CATALOGUE,
      product({
        name: 'Crème Brûlée Bites',
        category: 'edibles',
        type: 'Baked Goods',
        brand: 'Golden State Bakehouse',
      }),
    ])
    expect(names(search.search('CREME brulee'))).toEqual(['Crème Brûlée Bites'])
    expect(names(search.search('the sea salt bar'))).toEqual(['Dark Chocolate Sea Salt Bar'])
  })

  it('takes a single letter as the start of a word of the name', async () => {
    const search = await indexOf()
    expect(names(search.search('d'))).toEqual([
      'Big Sur Blue Dream',
      'Dark Chocolate Sea Salt Bar',
      'Lavender Dream CBD Sleep Gummies',
    ])
    expect(search.search('b', { limit: 2 })).toHaveLength(2)
  })

  it('gives at most `limit` products and nothing for an empty text', async () => {
    const search = await indexOf()
    expect(search.search('myrcene', { limit: 2 })).toHaveLength(2)
    expect(search.search('   ')).toEqual([])
  })

  it('follows the catalogue: new, changed and removed products', async () => {
    const search = await indexOf()
    expect(await search.update(CATALOGUE)).toBe(false)

    const renamed = { ...haze, name: 'Sonoma Sunrise Diesel', serverModified: '2026-11-02' }
    const added = product({
      name: 'Tahoe Alpine OG',
      category: 'flower',
      type: 'Hybrid',
      brand: 'Sonoma Sungrown',
    })
    const next = [...CATALOGUE.filter((p) => p !== haze && p !== chocolate), renamed, added]
    expect(await search.update(next)).toBe(true)

    expect(names(search.search('diesel'))).toEqual(['Sonoma Sunrise Diesel'])
    expect(search.search('haze')).toEqual([])
    expect(search.search('chocolate')).toEqual([])
    expect(names(search.search('alpine'))).toEqual(['Tahoe Alpine OG'])
    expect(search.size).toBe(CATALOGUE.length)
  })

  it('indexes in slices with pauses between them, with the same result', async () => {
    const search = new ProductSearch()
    let pauses = 0
    const many = Array.from({ length: 400 }, (_, i) =>
      product({ ...{ name: `Lot ${i} Kush`, category: 'flower', type: 'Indica', brand: 'Farm' } }),
    )
    await search.update(many, () => Promise.resolve(void pauses++), 0)
    expect(pauses).toBeGreaterThan(0)
    expect(search.search('kush')).toHaveLength(400)
  })
})
