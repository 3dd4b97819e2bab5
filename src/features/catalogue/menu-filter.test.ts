import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import type { ProductDoc } from '../../data/schemas/product.schema'
import { menuSearchSchema } from './catalogue.validation'
import { ProductSearch } from '../../data/search/product-search'
import { facetsOf, filterProducts, sortProducts } from './menu-filter'

function product(overrides: Partial<ProductDoc>): ProductDoc {
  return {
    id: overrides.name ?? 'p',
    slug: 'p',
    name: 'P',
    description: '',
    price: 10,
    unlimited: false,
    isOnSale: false,
    isFeatured: false,
    rating: 4,
    reviewCount: 1,
    isCannabis: true,
    categorySlug: 'flower',
    media: [],
    effects: [],
    terpenes: [],
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    serverModified: '1',
    ...overrides,
  }
}

const kush = product({
  name: 'Purple Kush',
  price: 45,
  thc: 24.6,
  cbd: 0.1,
  productType: { id: 't1', name: 'Indica' },
  brand: { id: 'b1', name: 'Humboldt Heritage' },
  category: { id: 'c1', name: 'Flower' },
  effects: ['Relaxed', 'Sleepy'],
  createdAt: '2026-01-02T00:00:00Z',
})
const resin = product({
  name: 'Live Resin Sauce',
  price: 60,
  thc: 78,
  isOnSale: true,
  productType: { id: 't2', name: 'Live Resin' },
  brand: { id: 'b2', name: 'Mojave Extracts' },
  category: { id: 'c2', name: 'Concentrates' },
  effects: ['Euphoric'],
  createdAt: '2026-01-03T00:00:00Z',
  rating: 4.9,
})
const gummy = product({
  name: 'Gummies',
  price: 20,
  productType: { id: 't3', name: 'Gummies' },
  rating: 3,
})

describe('menu filters', () => {
  it('filters by text, type, brand, effect and ranges', () => {
    const all = [kush, resin, gummy]
    expect(filterProducts(all, { q: 'KUSH' })).toEqual([kush])
    expect(filterProducts(all, { types: ['Live Resin'] })).toEqual([resin])
    expect(filterProducts(all, { brands: ['Humboldt Heritage'] })).toEqual([kush])
    expect(filterProducts(all, { effects: ['Euphoric', 'Sleepy'] })).toEqual([kush, resin])
    expect(filterProducts(all, { priceMin: 30, priceMax: 50 })).toEqual([kush])
    expect(filterProducts(all, { thcMin: 50 })).toEqual([resin])
    expect(filterProducts(all, { categories: ['Concentrates'] })).toEqual([resin])
  })

  it('searches with the device index: strain type, typos, brand, effect; ranked', async () => {
    const index = new ProductSearch()
    const all = [kush, resin, gummy, product({ name: 'Kush Mints Rosin', effects: ['Happy'] })]
    await index.update(all)
    const found = (q: string) => {
      const ranking = index.rank(q)
      return sortProducts(filterProducts(all, { q }, ranking), undefined, undefined, ranking)
    }
    expect(found('indica')).toEqual([kush])
    expect(found('gumies')).toEqual([gummy])
    expect(found('mojave')).toEqual([resin])
    expect(found('sleepy')).toEqual([kush])
    // Both carry "kush" in their name; the better match (the shorter name) first.
    expect(found('kush').map((p) => p.name)).toEqual(['Purple Kush', 'Kush Mints Rosin'])
    // The menu's other filters still apply to what the search found.
    const ranking = index.rank('kush')
    expect(filterProducts(all, { q: 'kush', types: ['Indica'] }, ranking)).toEqual([kush])
    // A sort the shopper chose wins over the ranking.
    expect(sortProducts([kush, resin], 'price-desc', undefined, index.rank('e'))[0]).toBe(resin)
  })

  it('matches names while the search index loads', () => {
    expect(filterProducts([kush, resin, gummy], { q: 'KUSH' }, null)).toEqual([kush])
  })

  it('reads the subcategory link rule: lower case, first space as a hyphen', () => {
    expect(filterProducts([kush, resin], { category: 'live-resin' })).toEqual([resin])
    expect(filterProducts([kush, resin], { category: 'sale-items' })).toEqual([resin])
    expect(filterProducts([kush, resin], { category: 'all-categories' })).toEqual([kush, resin])
  })

  it('sorts by every key, relevance being newest first', () => {
    expect(sortProducts([kush, resin, gummy], 'price-asc').map((p) => p.name)).toEqual([
      'Gummies',
      'Purple Kush',
      'Live Resin Sauce',
    ])
    expect(sortProducts([kush, resin, gummy], 'price-desc')[0]).toBe(resin)
    expect(sortProducts([kush, resin, gummy], 'thc')[0]).toBe(resin)
    expect(sortProducts([kush, resin, gummy], 'rating')[2]).toBe(gummy)
    expect(sortProducts([kush, resin, gummy], 'name')[0]).toBe(gummy)
    expect(sortProducts([gummy, kush, resin], undefined)[0]).toBe(resin)
  })

  it('offers only the values the products carry', () => {
    const facets = facetsOf([kush, resin])
    expect(facets.types.map((f) => f.value)).toEqual(['Indica', 'Live Resin'])
    expect(facets.effects).toContainEqual({ value: 'Relaxed', count: 1 })
  })

  it('drops bad search params instead of failing', () => {
    const parsed = v.parse(menuSearchSchema, {
      sort: 'cheapest',
      priceMax: 99999,
      types: ['Indica'],
      view: 'list',
    })
    expect(parsed).toEqual({
      sort: undefined,
      priceMax: undefined,
      types: ['Indica'],
      view: 'list',
      q: undefined,
      category: undefined,
      categories: undefined,
      brands: undefined,
      effects: undefined,
      priceMin: undefined,
      thcMin: undefined,
      thcMax: undefined,
      cbdMin: undefined,
      cbdMax: undefined,
    })
  })
})
