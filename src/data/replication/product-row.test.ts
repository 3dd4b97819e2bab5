import { describe, expect, it } from 'vitest'
import { productMigrationStrategies } from '../schemas/product.schema'
import { productRowToDoc, type ProductRow } from './product-row'
import { windowStart } from './rpc-pull'

const row: ProductRow = {
  id: '7b0c0c8e-6b8a-4b4e-9d53-1f1f1f1f1f1f',
  _modified: '2026-11-22T20:01:02.123456+00:00',
  _deleted: false,
  name: 'Sunset Sherbet',
  slug: 'sunset-sherbet',
  sku: 'FL-001',
  description: '<p>Sweet.</p>',
  price: '39.99',
  original_price: 49.99,
  quantity_available: 12,
  is_unlimited_quantity: false,
  is_on_sale: true,
  is_featured: false,
  rating: 4.5,
  review_count: 10,
  thc_percentage: '22.5',
  cbd_percentage: null,
  weight_grams: 3.5,
  created_at: '2026-11-01T00:00:00+00:00',
  updated_at: '2026-11-02T00:00:00+00:00',
  brand: { id: 'b1', name: 'Golden State Greens', slug: 'golden-state-greens' },
  category: { id: 'c1', name: 'Flower', slug: 'flower' },
  product_type: { id: 't1', name: 'Indica' },
  product_media: [
    { id: 'm2', media_url: 'p/2.svg', media_type: 'image', is_primary: false, display_order: 2 },
    { id: 'm1', media_url: 'p/1.mp4', media_type: 'video', is_primary: true, display_order: 1 },
  ],
  product_effects: [{ id: 'e1', effect_name: 'Relaxed' }],
  terpene_profiles: [{ id: 't1', terpene_name: 'Myrcene', percentage: '0.8' }],
}

describe('productRowToDoc', () => {
  it('maps the wire row onto the shop-side document, media by display order', () => {
    const doc = productRowToDoc(row)
    expect(doc.price).toBe(39.99)
    expect(doc.originalPrice).toBe(49.99)
    expect(doc.thc).toBe(22.5)
    expect(doc.cbd).toBeNull()
    expect(doc.categorySlug).toBe('flower')
    expect(doc.media.map((m) => m.id)).toEqual(['m1', 'm2'])
    expect(doc.media[0]).toMatchObject({ type: 'video', path: 'p/1.mp4', isPrimary: true })
    expect(doc.effects).toEqual(['Relaxed'])
    expect(doc.terpenes).toEqual([{ name: 'Myrcene', percentage: 0.8 }])
    expect(doc.serverModified).toBe(row._modified)
    expect(doc._deleted).toBe(false)
  })

  it("carries the visible reviews' average and count, and none as 0 and 0 (docs/decisions/056-real-reviews-or-none.md)", () => {
    expect(productRowToDoc(row)).toMatchObject({ rating: 4.5, reviewCount: 10 })
    expect(productRowToDoc({ ...row, rating: '3.50', review_count: 2 })).toMatchObject({
      rating: 3.5,
      reviewCount: 2,
    })
    expect(productRowToDoc({ ...row, rating: null, review_count: 0 })).toMatchObject({
      rating: 0,
      reviewCount: 0,
    })
  })

  it("clears a device's stored made-up rating when the product schema moves to version 2", async () => {
    const migrated = (await productMigrationStrategies[2]!(
      { id: 'p1', rating: 4.8, reviewCount: 214 },
      undefined as never,
    )) as Record<string, unknown>
    expect(migrated).toEqual({ id: 'p1', rating: 0, reviewCount: 0 })
  })

  it('turns a tombstone into a deleted document', () => {
    const doc = productRowToDoc({ id: row.id, _modified: row._modified, _deleted: true })
    expect(doc._deleted).toBe(true)
    expect(doc.id).toBe(row.id)
  })
})

describe('windowStart', () => {
  it('reads both ISO and Postgres text timestamps', () => {
    expect(windowStart('2026-11-22T20:01:02.123456+00:00', 30_000)).toBe('2026-11-22T20:00:32.123Z')
    expect(windowStart('2026-11-22 20:01:02.5+00', 1_000)).toBe('2026-11-22T20:01:01.500Z')
  })
})
