import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import type { ProductDoc } from '../../data/schemas/product.schema'
import { PRICE_RANGE, menuSearchSchema } from './catalogue.validation'
import { ProductSearch } from '../../data/search/product-search'
import {
  activeFilterCount,
  facetsOf,
  filterProducts,
  normalizeSearch,
  priceBounds,
  sortProducts,
  withValue,
} from './menu-filter'

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

  it('reads a type chip and the Types list as one filter, counted once', () => {
    // The chip's link (?category=indica, SPEC.md §2) is the type Indica: one filter, not two.
    const fromChip = normalizeSearch({ category: 'indica' })
    expect(fromChip).toEqual({ category: undefined, types: ['Indica'] })
    expect(activeFilterCount(fromChip)).toBe(1)
    // Ticking Indica in the drawer as well changes nothing: it is already on.
    const both = normalizeSearch({ category: 'indica', types: ['Indica'] })
    expect(both.types).toEqual(['Indica'])
    expect(activeFilterCount(both)).toBe(1)
    // A chip and another type in the drawer: either type, not none.
    const either = normalizeSearch({ category: 'live-resin', types: ['Indica'] })
    expect(filterProducts([kush, resin, gummy], either)).toEqual([kush, resin])
    expect(normalizeSearch({ category: 'pre-rolls' }).types).toEqual(['Pre-Rolls'])
    // Ranges count once each, whichever ends are set.
    expect(activeFilterCount({ priceMin: 10, priceMax: 20, thcMax: 30, q: 'og' })).toBe(3)
    // Shop All's views are not types; an unknown value stays and finds nothing, as before.
    expect(normalizeSearch({ category: 'sale-items' })).toEqual({ category: 'sale-items' })
    // "All Categories" is no filter, and is not counted as one.
    expect(activeFilterCount(normalizeSearch({ category: 'all-categories' }))).toBe(0)
    expect(normalizeSearch({ category: 'constructor' })).toEqual({ category: 'constructor' })
    expect(filterProducts([kush], { category: 'constructor' })).toEqual([])
    expect(withValue(['Sativa'], 'Indica', true)).toEqual(['Indica', 'Sativa'])
    expect(withValue(['Indica'], 'Indica', false)).toBeUndefined()
  })

  it('counts each facet over the products matching all the other filters', () => {
    const hybrid = product({
      name: 'Hybrid Haze',
      price: 30,
      productType: { id: 't4', name: 'Hybrid' },
      brand: { id: 'b1', name: 'Humboldt Heritage' },
      effects: ['Happy'],
    })
    const all = [kush, resin, gummy, hybrid]
    const count = (facets: { value: string; count: number }[], value: string) =>
      facets.find((f) => f.value === value)?.count
    // No filter: every product counts.
    expect(count(facetsOf(all).brands, 'Humboldt Heritage')).toBe(2)
    // A type chosen: the brands count only Indica products; the types still count every type
    // (ticking Hybrid too would add its one product).
    const indica = facetsOf(all, { types: ['Indica'] })
    expect(count(indica.brands, 'Humboldt Heritage')).toBe(1)
    expect(count(indica.brands, 'Mojave Extracts')).toBe(0)
    expect(count(indica.types, 'Hybrid')).toBe(1)
    expect(count(indica.types, 'Indica')).toBe(1)
    // A price range applies to every facet; a value nothing matches stays, with 0.
    const cheap = facetsOf(all, { priceMax: 35 })
    expect(count(cheap.types, 'Indica')).toBe(0)
    expect(count(cheap.types, 'Hybrid')).toBe(1)
    expect(count(cheap.effects, 'Happy')).toBe(1)
    // A chosen value is offered even when no product carries it, so it can be unticked.
    expect(count(facetsOf(all, { brands: ['Gone Brand'] }).brands, 'Gone Brand')).toBe(0)
  })

  it("spans the price slider over the menu's real prices", () => {
    expect(priceBounds([kush, resin, gummy])).toEqual({ min: 20, max: 60, step: 1 })
    expect(priceBounds([product({ price: 1800 }), product({ price: 75 })]).max).toBe(1800)
    expect(priceBounds([product({ price: 74.99 }), product({ price: 12.5 })])).toEqual({
      min: 12,
      max: 75,
      step: 1,
    })
    expect(priceBounds([product({ price: 20 })])).toEqual({ min: 20, max: 21, step: 1 })
    expect(priceBounds([])).toEqual(PRICE_RANGE)
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
