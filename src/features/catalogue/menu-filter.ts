/**
 * The menu's filtering and sorting (SPEC.md §9), as pure functions over the products already on
 * the device. Fast enough for 10,000 products on a phone: one pass to filter, one sort.
 */
import type { ProductDoc } from '../../data/schemas/product.schema'
import { SHOP_ALL_VIEWS, subcategoryParam } from '../../lib/menu-categories'
import type { MenuSearch, SortKey } from './catalogue.validation'

export type Facet = { value: string; count: number }
export type Facets = { categories: Facet[]; types: Facet[]; brands: Facet[]; effects: Facet[] }

function tally(values: Iterable<string | null | undefined>): Facet[] {
  const counts = new Map<string, number>()
  for (const value of values) if (value) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => a.value.localeCompare(b.value))
}

/** The choices each filter offers: what the products of this menu actually carry. */
export function facetsOf(products: readonly ProductDoc[]): Facets {
  return {
    categories: tally(products.map((p) => p.category?.name)),
    types: tally(products.map((p) => p.productType?.name)),
    brands: tally(products.map((p) => p.brand?.name)),
    effects: tally(products.flatMap((p) => p.effects)),
  }
}

const inRange = (value: number, min: number | undefined, max: number | undefined) =>
  (min === undefined || value >= min) && (max === undefined || value <= max)

/**
 * What the search text found, as each product's place in the ranking (best first), from the
 * device's search index (decision 038). Null while the index loads: a plain name match stands in.
 */
export type SearchRanking = ReadonlyMap<string, number> | null

export function filterProducts(
  products: readonly ProductDoc[],
  search: MenuSearch,
  ranking: SearchRanking = null,
): ProductDoc[] {
  const text = search.q?.trim().toLowerCase()
  const categories = search.categories?.length ? new Set(search.categories) : null
  const types = search.types?.length ? new Set(search.types) : null
  const brands = search.brands?.length ? new Set(search.brands) : null
  const effects = search.effects?.length ? search.effects : null
  const sub = search.category
  const view = sub ? SHOP_ALL_VIEWS[sub as keyof typeof SHOP_ALL_VIEWS] : undefined
  return products.filter((p) => {
    if (text && !(ranking ? ranking.has(p.id) : p.name.toLowerCase().includes(text))) return false
    if (sub && !view && subcategoryParam(p.productType?.name ?? '') !== sub) return false
    if (view === 'sale' && !p.isOnSale) return false
    if (categories && !categories.has(p.category?.name ?? '')) return false
    if (types && !types.has(p.productType?.name ?? '')) return false
    if (brands && !brands.has(p.brand?.name ?? '')) return false
    if (effects && !effects.some((e) => p.effects.includes(e))) return false
    if (!inRange(p.price, search.priceMin, search.priceMax)) return false
    if (!inRange(p.thc ?? 0, search.thcMin, search.thcMax)) return false
    if (!inRange(p.cbd ?? 0, search.cbdMin, search.cbdMax)) return false
    return true
  })
}

/**
 * "Relevance" is the search's ranking when there is a search text, else the catalogue's own
 * order: newest first (SPEC.md §7).
 */
export function sortProducts(
  products: ProductDoc[],
  sort: SortKey | undefined,
  subcategory?: string,
  ranking: SearchRanking = null,
): ProductDoc[] {
  const by = (compare: (a: ProductDoc, b: ProductDoc) => number) => products.sort(compare)
  const newest = (a: ProductDoc, b: ProductDoc) =>
    b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name)
  switch (sort) {
    case 'price-asc':
      return by((a, b) => a.price - b.price || a.name.localeCompare(b.name))
    case 'price-desc':
      return by((a, b) => b.price - a.price || a.name.localeCompare(b.name))
    case 'name':
      return by((a, b) => a.name.localeCompare(b.name))
    case 'thc':
      return by((a, b) => (b.thc ?? 0) - (a.thc ?? 0) || a.name.localeCompare(b.name))
    case 'rating':
      return by((a, b) => b.rating - a.rating || b.reviewCount - a.reviewCount)
    default:
      if (ranking) return by((a, b) => ranking.get(a.id)! - ranking.get(b.id)!)
      if (subcategory === 'best-sellers')
        return by((a, b) => b.reviewCount - a.reviewCount || newest(a, b))
      return by(newest)
  }
}

/** How many filters the shopper has set (for the "Filters (n)" button). */
export function activeFilterCount(search: MenuSearch): number {
  const lists = [search.categories, search.types, search.brands, search.effects].reduce(
    (n, list) => n + (list?.length ?? 0),
    0,
  )
  const ranges = [
    search.priceMin !== undefined || search.priceMax !== undefined,
    search.thcMin !== undefined || search.thcMax !== undefined,
    search.cbdMin !== undefined || search.cbdMax !== undefined,
  ].filter(Boolean).length
  return lists + ranges + (search.q ? 1 : 0) + (search.category ? 1 : 0)
}
