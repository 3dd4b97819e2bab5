// The demo catalogue's facts (issue 31): what the law needs to know of every product, hand-written
// or generated for the benchmarks, as the description says it and the server's checks take it.
import { describe, expect, it } from 'vitest'
import { buildCatalogue, factsOf, generateProducts } from './build-catalogue'
import { products } from './catalogue'

type Row = Record<string, unknown>
const now = new Date('2026-11-28T12:00:00Z')
const byName = (rows: Row[], name: string) => rows.find((r) => r.name === name)!

/** public.product_facts_check: only cannabis counts toward a limit, with grams to count. */
function factsHold(row: Row): boolean {
  if (row.limit_class === null) return true
  const grams = (row.limit_grams as number | null) ?? (row.weight_grams as number | null) ?? 0
  return row.is_cannabis === true && grams > 0
}

describe('the demo catalogue', () => {
  const rows = buildCatalogue({ now }).products

  it('sells merchandise as no cannabis, counted toward no limit', () => {
    const merchandise = rows.filter((r) => r.is_cannabis === false)
    expect(merchandise.map((r) => r.name)).toContain('Humo Smell-Proof Travel Pouch')
    expect(merchandise.map((r) => r.name)).toContain('Child-Resistant Mylar Bags (1,000 ct)')
    for (const row of merchandise) expect(row).toMatchObject({ limit_class: null, thc_mg: null })
    expect(merchandise).toHaveLength(
      products.filter((p) => p.category === 'branded-bags' || p.type === 'Packaging').length,
    )
  })

  it('counts flower and pre-rolls toward the flower limit, concentrates toward theirs, by weight', () => {
    expect(byName(rows, 'Humboldt Purple Kush')).toMatchObject({
      limit_class: 'flower',
      limit_grams: null,
      weight_grams: 3.5,
    })
    expect(byName(rows, 'Venice Beach OG Pre-Roll 5-Pack')).toMatchObject({ limit_class: 'flower' })
    expect(byName(rows, 'Bulk Indoor Hybrid Mix (1 lb)')).toMatchObject({
      limit_class: 'flower',
      weight_grams: 453.6,
    })
    expect(byName(rows, 'Tangie Live Resin Sauce')).toMatchObject({
      limit_class: 'concentrate',
      limit_grams: null,
    })
    expect(byName(rows, 'Bulk Live Resin Sauce (28 g)')).toMatchObject({
      limit_class: 'concentrate',
      weight_grams: 28,
    })
  })

  it('gives edibles and drinks the milligrams their descriptions state, counted by their THC', () => {
    expect(byName(rows, 'Watermelon Sea Salt Gummies')).toMatchObject({
      thc_mg: 100,
      servings: 10,
      limit_class: 'concentrate',
      limit_grams: 0.1,
      thc_percentage: null,
    })
    expect(byName(rows, 'Yuzu Sparkling Tonic')).toMatchObject({
      thc_mg: 5,
      servings: 1,
      limit_grams: 0.005,
    })
    expect(byName(rows, 'Dark Chocolate Sea Salt Bar')).toMatchObject({ thc_mg: 100, servings: 20 })
    expect(byName(rows, 'Lavender Dream CBD Sleep Gummies')).toMatchObject({
      thc_mg: 30,
      cbd_mg: 300,
      servings: 12,
      cbd_percentage: null,
    })
    for (const row of rows.filter(
      (r) => products.find((p) => p.name === r.name)?.category === 'edibles',
    )) {
      expect(row.thc_mg, String(row.name)).toBeGreaterThan(0)
      expect(row.limit_grams).toBe((row.thc_mg as number) / 1000)
      // A percentage of a cookie's weight is no potency a shopper can use.
      expect(row.thc_percentage).toBeNull()
      expect(row.cbd_percentage).toBeNull()
    }
  })

  it('has facts the server takes for every product', () => {
    expect(rows.filter((r) => !factsHold(r)).map((r) => r.name)).toEqual([])
  })

  it('refuses an edible without its milligrams rather than guessing', () => {
    const gummies = products.find((p) => p.name === 'Watermelon Sea Salt Gummies')!
    expect(() => factsOf({ ...gummies, thcMg: undefined })).toThrow(/THC milligrams/)
  })
})

describe('the generated catalogue of the benchmarks', () => {
  const rows = buildCatalogue({ products: 10_000, now }).products.slice(products.length)

  it('is as honest as the demo: edibles in milligrams, packaging no cannabis', () => {
    expect(rows).toHaveLength(10_000 - products.length)
    const generated = generateProducts(rows.length)
    for (const [i, row] of rows.entries()) {
      const seed = generated[i]!
      if (seed.category === 'edibles') {
        expect(row).toMatchObject({ limit_class: 'concentrate', thc_percentage: null })
        expect(row.limit_grams).toBe((row.thc_mg as number) / 1000)
        expect(row.servings).toBeGreaterThanOrEqual(1)
      } else if (seed.type === 'Packaging' || seed.category === 'branded-bags') {
        expect(row).toMatchObject({ is_cannabis: false, limit_class: null, thc_percentage: null })
      } else {
        expect(row.limit_class).toBe(
          seed.category === 'flower' || seed.type === 'Bulk Flower' ? 'flower' : 'concentrate',
        )
      }
    }
    expect(rows.filter((r) => !factsHold(r))).toEqual([])
  })

  it('stays the same product for product from one build to the next', () => {
    expect(generateProducts(50)).toEqual(generateProducts(50))
    expect(generateProducts(50).slice(0, 20)).toEqual(generateProducts(20))
  })
})

describe('the demo catalogue’s Metrc packages (docs/decisions/054-metrc-sales-export.md)', () => {
  it('gives every cannabis product a package of Metrc’s shape, unique, and merchandise none', () => {
    const { products } = buildCatalogue()
    const cannabis = products.filter((p) => p.is_cannabis)
    expect(cannabis.length).toBeGreaterThan(0)
    for (const p of cannabis) {
      expect(p.metrc_package_tag).toMatch(/^1A4[0-9A-F]{21}$/)
      expect(['Each', 'Grams']).toContain(p.metrc_unit)
    }
    expect(new Set(cannabis.map((p) => p.metrc_package_tag)).size).toBe(cannabis.length)
    for (const p of products.filter((p) => !p.is_cannabis))
      expect(p).toMatchObject({ metrc_package_tag: null, metrc_unit: null })
  })
})
