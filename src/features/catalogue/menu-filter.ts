/**
 * The menu's filtering and sorting (SPEC.md §9), as pure functions over the products already on
 * the device. Fast enough for 10,000 products on a phone: one pass to filter, one sort.
 */
import type { ProductDoc } from '../../data/schemas/product.schema'
import { MENU, SHOP_ALL_VIEWS, subcategoryParam } from '../../lib/menu-categories'
import { PRICE_RANGE, type MenuSearch, type SortKey } from './catalogue.validation'

export type Facet = { value: string; count: number }
export type Facets = { categories: Facet[]; types: Facet[]; brands: Facet[]; effects: Facet[] }
const LISTS = ['categories', 'types', 'brands', 'effects'] as const
type Dimension = (typeof LISTS)[number]

/** What a product carries for a list filter. */
const carried = (p: ProductDoc, d: Dimension): readonly (string | undefined)[] =>
  d === 'effects'
    ? p.effects
    : [(d === 'categories' ? p.category : d === 'types' ? p.productType : p.brand)?.name]

const inRange = (value: number, min: number | undefined, max: number | undefined) =>
  (min === undefined || value >= min) && (max === undefined || value <= max)

/**
 * What the search text found, as each product's place in the ranking (best first), from the
 * device's search index (docs/decisions/038-product-search.md). Null while the index loads: a plain name match stands in.
 */
export type SearchRanking = ReadonlyMap<string, number> | null

/**
 * One filter per idea (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): a subcategory chip of a menu ("Indica",
 * `?category=indica`, the form SPEC.md §2's links use) is the product type of that name, so it is
 * read as `types` — the drawer's Types list shows it checked and it is counted once. Shop All's
 * views ("Sale Items") stay in `category`. A value no chip names stays as it was and finds
 * nothing, as before.
 */
export function normalizeSearch(search: MenuSearch): MenuSearch {
  const sub = search.category
  // "All Categories" filters nothing: not a filter to count.
  if (sub === 'all-categories') return { ...search, category: undefined }
  if (!sub || Object.hasOwn(SHOP_ALL_VIEWS, sub)) return search
  const name = MENU.flatMap((entry) => entry.subcategories).find(
    (chip) => subcategoryParam(chip) === sub,
  )
  if (!name) return search
  return { ...search, category: undefined, types: withValue(search.types, name, true) }
}

/** A list filter with `value` turned on or off; undefined when empty, so the URL stays short. */
export function withValue(
  list: readonly string[] | undefined,
  value: string,
  on: boolean,
): string[] | undefined {
  const next = new Set(list)
  if (on) next.add(value)
  else next.delete(value)
  return next.size ? [...next].sort() : undefined
}

/**
 * The search's tests, split in two: `base` (text, view, price, THC, CBD) and one test per list
 * filter that is set, so facets can be counted with every filter but their own.
 */
function matcher(search: MenuSearch, ranking: SearchRanking) {
  const text = search.q?.trim().toLowerCase()
  const sub = search.category
  const view =
    sub && Object.hasOwn(SHOP_ALL_VIEWS, sub)
      ? SHOP_ALL_VIEWS[sub as keyof typeof SHOP_ALL_VIEWS]
      : undefined
  const base = (p: ProductDoc) =>
    !(text && !(ranking ? ranking.has(p.id) : p.name.toLowerCase().includes(text))) &&
    !(sub && !view && subcategoryParam(p.productType?.name ?? '') !== sub) &&
    !(view === 'sale' && !p.isOnSale) &&
    inRange(p.price, search.priceMin, search.priceMax) &&
    inRange(p.thc ?? 0, search.thcMin, search.thcMax) &&
    inRange(p.cbd ?? 0, search.cbdMin, search.cbdMax)
  const lists: [Dimension, (p: ProductDoc) => boolean][] = []
  for (const d of LISTS) {
    const chosen = new Set(search[d])
    if (chosen.size) lists.push([d, (p) => carried(p, d).some((v) => chosen.has(v ?? ''))])
  }
  return { base, lists }
}

export function filterProducts(
  products: readonly ProductDoc[],
  search: MenuSearch,
  ranking: SearchRanking = null,
): ProductDoc[] {
  const { base, lists } = matcher(search, ranking)
  return products.filter((p) => base(p) && lists.every(([, test]) => test(p)))
}

/**
 * The choices each list filter offers — every value the menu's products carry, and any chosen
 * one — each counted over the products that match all the OTHER filters (so a count says what
 * ticking it would show).
 */
export function facetsOf(
  products: readonly ProductDoc[],
  search: MenuSearch = {},
  ranking: SearchRanking = null,
): Facets {
  const { base, lists } = matcher(search, ranking)
  const passing = products.map(base)
  const facets = {} as Facets
  for (const d of LISTS) {
    const counts = new Map((search[d] ?? []).map((v) => [v, 0]))
    const others = lists.filter(([other]) => other !== d)
    products.forEach((p, i) => {
      const hit = passing[i] && others.every(([, test]) => test(p)) ? 1 : 0
      for (const v of carried(p, d)) if (v) counts.set(v, (counts.get(v) ?? 0) + hit)
    })
    facets[d] = [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => a.value.localeCompare(b.value))
  }
  return facets
}

/**
 * The price slider's ends: the menu's cheapest and dearest products in whole dollars (not
 * SPEC.md §9's $0–$5,000, which on a menu whose dearest flower is $75 leaves the slider unusable).
 */
export function priceBounds(products: readonly ProductDoc[]): {
  min: number
  max: number
  step: number
} {
  if (!products.length) return PRICE_RANGE
  const prices = products.map((p) => p.price)
  const min = Math.floor(Math.min(...prices))
  return { min, max: Math.max(Math.ceil(Math.max(...prices)), min + 1), step: 1 }
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

/** How many filters the shopper has set (for the "Filters (n)" button): a range counts once. */
export const activeFilterCount = (s: MenuSearch): number =>
  LISTS.reduce((n, d) => n + (s[d]?.length ?? 0), 0) +
  (['price', 'thc', 'cbd'] as const).filter(
    (k) => s[`${k}Min`] !== undefined || s[`${k}Max`] !== undefined,
  ).length +
  (s.q ? 1 : 0) +
  (s.category ? 1 : 0)
