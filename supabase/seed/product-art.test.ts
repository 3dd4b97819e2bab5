// Issue 25: the demo covers carried the product's name (and brand) in the picture, and a card
// prints both beside it, so the shopper read them twice. The covers are pictures without words.
import { describe, expect, it } from 'vitest'
import { brands, products } from './catalogue.ts'
import { buildCatalogue } from './build-catalogue.ts'
import { productCoverSvg } from './product-art.ts'

const brandName = new Map(brands.map((b) => [b.slug, b.name]))

describe('the demo product art', () => {
  it('has no text: no name, no brand, no words at all', () => {
    for (const product of products) {
      const svg = productCoverSvg({
        name: product.name,
        category: product.category,
        type: product.type,
      })
      expect(svg, product.name).not.toMatch(/<(text|tspan|textPath|title|desc)\b/i)
      expect(svg, product.name).not.toMatch(/aria-label/i)
      const lower = svg.toLowerCase()
      expect(lower, product.name).not.toContain(product.name.toLowerCase())
      // Every word of the name that is long enough not to occur in SVG syntax by chance.
      for (const word of product.name
        .toLowerCase()
        .split(/\W+/)
        .filter((w) => w.length > 4))
        expect(lower, `${product.name}: ${word}`).not.toContain(word)
      const brand = brandName.get(product.brand) ?? ''
      expect(lower, product.name).not.toContain(brand.toLowerCase())
      expect(lower).not.toContain('humo')
    }
  })

  it('still tells products apart: a different picture for each of the demo products', () => {
    const pictures = new Set(
      products.map((p) => productCoverSvg({ name: p.name, category: p.category, type: p.type })),
    )
    expect(pictures.size).toBe(products.length)
  })

  it('is what the seed stores as each product’s cover', () => {
    const rows = buildCatalogue({ products: products.length })
    const covers = rows.files.filter((f) => /\/cover\.(webp|svg)$/.test(f.path))
    expect(covers).toHaveLength(products.length)
    // The SVGs of generated products are stored as they are; the demo's own are rendered to WebP
    // from the same SVG (cover-image.ts), so a generated one stands for both.
    const generated = buildCatalogue({ products: products.length + 3 }).files.filter((f) =>
      f.path.endsWith('/cover.svg'),
    )
    expect(generated).toHaveLength(3)
    for (const file of generated) expect(String(file.contents)).not.toMatch(/<text\b/i)
  })
})
