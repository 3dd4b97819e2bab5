/**
 * The shop's product search over the products on the device (issue 25, docs/decisions/038-product-search.md): a MiniSearch
 * full-text index of name, brand, category, type (the strain type for flower), effects, terpenes
 * and description, with prefix and typo tolerance, ranked retail before wholesale, name matches
 * before the rest, then by score. Loaded only when a search is wanted (use-product-search.ts):
 * neither MiniSearch nor the index is part of any route's first load.
 */
import MiniSearch from 'minisearch'
import type { ProductDoc } from '../schemas/product.schema'

/** Searched fields and their weight in the score; the name weighs most. */
const BOOST = {
  name: 4,
  type: 2.5,
  brand: 2,
  category: 1.5,
  effects: 1.5,
  terpenes: 1.5,
  description: 0.25,
} as const
type Field = keyof typeof BOOST
const FIELDS = Object.keys(BOOST) as Field[]
/** Fields matched by the start of a word and with typos; the description by whole words only. */
const WORD_START_FIELDS = FIELDS.filter((field) => field !== 'description')

/** Words that carry no meaning in a product search; dropped from the index and from queries. */
const STOP_WORDS = new Set(
  'a an and are as at be by for from in into is it its of on or our the to with'.split(' '),
)

/** Lower case without accents: "Crème" finds "creme". */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()

/** A word as the index keeps it: plain, stop words dropped. */
function processTerm(term: string): string | null {
  const word = plain(term)
  return word && !STOP_WORDS.has(word) ? word : null
}

/** A text's plain words, stop words kept (the one-letter search looks at every word). */
const words = (text: string) =>
  plain(text)
    .split(/[\s\p{P}]+/u)
    .filter(Boolean)

/** A description is HTML (SPEC.md §3); only its words are searched. */
function descriptionText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, ' ')
    .slice(0, 2000)
}

function fieldOf(product: ProductDoc, field: string): string {
  switch (field as Field | 'id') {
    case 'id':
      return product.id
    case 'name':
      return product.name
    case 'brand':
      return product.brand?.name ?? ''
    case 'category':
      return product.category?.name ?? ''
    case 'type':
      return product.productType?.name ?? ''
    case 'effects':
      return product.effects.join(' ')
    case 'terpenes':
      return product.terpenes.map((t) => t.name).join(' ')
    case 'description':
      return descriptionText(product.description)
  }
}

/**
 * One typo in a word of 4 to 8 letters ("gumies" → gummies), two from 9 letters ("carophylene" →
 * caryophyllene); none in shorter words, where one edit reaches too many unrelated words. Two
 * edits search a much wider part of the word tree, so only where a word is long enough to need it.
 */
function typosAllowed(term: string): number | false {
  if (term.length < 4) return false
  return term.length < 9 ? 1 : 2
}

/** Wholesale items are for licensed buyers: a shopper's search lists retail items first. */
const isWholesale = (product: ProductDoc) => product.categorySlug === 'wholesale'

/**
 * A version stamp per product: the server's modification time changes with every change of the
 * product or of its embedded brand, category, media, effects or terpenes (the pull sends the
 * whole product again).
 */
const stampOf = (product: ProductDoc) => product.serverModified || product.updatedAt

/** How `update` gives the page a chance to breathe between slices of indexing work. */
export type Pause = () => Promise<void>

export type SearchOptions = {
  /** At most this many products (the header's type-ahead); all matches when left out. */
  limit?: number
}

export class ProductSearch {
  private readonly index = new MiniSearch<ProductDoc>({
    fields: FIELDS,
    idField: 'id',
    extractField: fieldOf,
    processTerm,
    autoVacuum: { minDirtCount: 200, minDirtFactor: 0.2, batchSize: 500, batchWait: 20 },
  })
  private readonly products = new Map<string, ProductDoc>()
  private readonly stamps = new Map<string, string>()
  /**
   * Each product's words (name first, then brand, category, type, effects, terpenes), normalised
   * and each after a space, and where the name ends: for words of one or two letters.
   */
  private readonly shortWords = new Map<string, { text: string; nameEnd: number }>()
  /** The products retail first, A–Z, with their words: a short word's search; made when needed. */
  private ordered: { product: ProductDoc; text: string; nameEnd: number }[] | null = null

  /** How many products the index holds. */
  get size(): number {
    return this.products.size
  }

  /**
   * Brings the index in line with `products` (the device's catalogue): adds new products,
   * re-indexes changed ones (by their server version), drops those that are gone. With `pause`,
   * the work is cut into slices of about `sliceMs` with a pause between them, so indexing
   * thousands of products never holds the main thread for long. Returns whether anything changed.
   */
  async update(products: readonly ProductDoc[], pause?: Pause, sliceMs = 8): Promise<boolean> {
    const seen = new Set<string>()
    const work: (() => void)[] = []
    for (const product of products) {
      seen.add(product.id)
      const stamp = stampOf(product)
      const known = this.stamps.get(product.id)
      if (known === stamp) continue
      this.stamps.set(product.id, stamp)
      work.push(() => {
        if (known !== undefined) this.index.discard(product.id)
        this.index.add(product)
        this.products.set(product.id, product)
        this.shortWords.set(product.id, shortWordsOf(product))
        this.ordered = null
      })
    }
    for (const id of this.products.keys()) {
      if (seen.has(id)) continue
      this.stamps.delete(id)
      work.push(() => {
        this.index.discard(id)
        this.products.delete(id)
        this.shortWords.delete(id)
        this.ordered = null
      })
    }
    let sliceStart = performance.now()
    for (const step of work) {
      step()
      if (pause && performance.now() - sliceStart > sliceMs) {
        await pause()
        sliceStart = performance.now()
      }
    }
    return work.length > 0
  }

  /**
   * The products matching `text`, best first: every word must match somewhere; a word matches
   * the start of a word of the name, brand, category, type, effects or terpenes (as while typing),
   * longer words allow a typo, and the description counts whole words. A word of one or two
   * letters, mostly a word being typed, is looked for as the start of a word among the products
   * the other words found (or all products): as a prefix in the index it would reach thousands of
   * words and take many times longer for nothing a shopper could use.
   */
  search(text: string, options: SearchOptions = {}): ProductDoc[] {
    const typed = words(text)
    const last = typed.at(-1)
    if (!last) return []
    const short = last.length <= 2 ? last : null
    const full = (short ? typed.slice(0, -1) : typed).filter((word) => !STOP_WORDS.has(word))
    if (full.length === 0) return short ? this.byWordStart(short, options.limit) : []
    const results = this.index.search(
      {
        combineWith: 'AND',
        queries: full.map((word) => ({
          combineWith: 'OR',
          queries: [
            { queries: [word], fields: WORD_START_FIELDS, prefix: true, fuzzy: typosAllowed(word) },
            { queries: [word], fields: ['description'] },
          ],
        })),
      },
      { boost: BOOST },
    )
    const ranked: { product: ProductDoc; tier: number; score: number }[] = []
    for (const result of results) {
      const id = result.id as string
      const product = this.products.get(id)
      if (!product || (short && !this.shortWords.get(id)!.text.includes(` ${short}`))) continue
      const inName = Object.values(result.match).some((fields) => fields.includes('name'))
      ranked.push({ product, tier: tierOf(product, inName), score: result.score })
    }
    ranked.sort(
      (a, b) =>
        a.tier - b.tier || b.score - a.score || a.product.name.localeCompare(b.product.name),
    )
    return ranked.slice(0, options.limit).map((r) => r.product)
  }

  /**
   * Products with a word starting with `start`, in the ranking's tiers and A–Z within each: one
   * pass over the products kept in that order, no sort, and it stops once the best tier is full.
   */
  private byWordStart(start: string, limit = Infinity): ProductDoc[] {
    this.ordered ??= [...this.products.values()]
      .sort(
        (a, b) => Number(isWholesale(a)) - Number(isWholesale(b)) || a.name.localeCompare(b.name),
      )
      .map((product) => ({ product, ...this.shortWords.get(product.id)! }))
    const wanted = ` ${start}`
    const tiers: ProductDoc[][] = [[], [], [], []]
    for (const { product, text, nameEnd } of this.ordered) {
      const at = text.indexOf(wanted)
      if (at < 0) continue
      const tier = tiers[tierOf(product, at < nameEnd)]!
      tier.push(product)
      if (tier === tiers[0] && tier.length >= limit) break
    }
    return tiers.flat().slice(0, limit)
  }

  /** Each match's place in the ranking (best first), by product id: what a menu sorts by. */
  rank(text: string): Map<string, number> {
    return new Map(this.search(text).map((product, place) => [product.id, place]))
  }
}

function shortWordsOf(product: ProductDoc): { text: string; nameEnd: number } {
  const name = ` ${words(product.name).join(' ')}`
  const rest = WORD_START_FIELDS.filter((field) => field !== 'name')
    .map((field) => words(fieldOf(product, field)).join(' '))
    .join(' ')
  return { text: `${name} ${rest}`, nameEnd: name.length }
}

/** 0: retail, found in its name; 1: retail, found elsewhere; 2 and 3: the same for wholesale. */
function tierOf(product: ProductDoc, inName: boolean): number {
  return (isWholesale(product) ? 2 : 0) + (inName ? 0 : 1)
}
