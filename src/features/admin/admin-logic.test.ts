import { describe, expect, it } from 'vitest'
import { ADMIN_COMMANDS, filterCommands, shortcutCommand } from './admin-commands'
import { parseProductsCsv, productsToCsv } from './admin-csv'
import { adminProductRowToDoc } from '../../data/replication/admin-products-replication'
import { refusedRowIndex } from './admin-api'
import {
  adminProductDocToRow,
  buildSavePayload,
  mergeMedia,
  sortProducts,
  stockLevel,
  uploadPath,
  type AdminMediaRow,
  type AdminProductRow,
} from './admin-product'
import { checkUploads, emptyProductForm, validateProductForm } from './admin.validation'
import { dropTarget, isWaitingToSync } from './orders/order-board-model'
import { formatMoney } from '../../lib/money'
import { comparisonText, dashboardStats, percentChange, topProducts } from './order-stats'

const DAY = 86_400_000
const NOW = Date.parse('2026-11-22T12:00:00Z')
const ago = (days: number) => new Date(NOW - days * DAY).toISOString()

describe('dashboard figures', () => {
  const orders = [
    { id: '1', status: 'pending', total: 100, createdAt: ago(1), items: [] },
    { id: '2', status: 'delivered', total: 50, createdAt: ago(10), items: [] },
    { id: '3', status: 'cancelled', total: 999, createdAt: ago(5), items: [] },
    { id: '4', status: 'delivered', total: 60, createdAt: ago(40), items: [] },
  ]
  const products = [
    { createdAt: ago(2), stock: 3, unlimited: false },
    { createdAt: ago(45), stock: 50, unlimited: false },
    { createdAt: ago(50), stock: null, unlimited: true },
  ]

  it('counts, sums without cancelled orders, and compares the last 30 days with the 30 before', () => {
    const stats = dashboardStats(products, orders, NOW)
    expect(stats.totalProducts).toBe(3)
    expect(stats.lowStock).toBe(1)
    expect(stats.totalOrders).toBe(4)
    expect(stats.pendingOrders).toBe(1)
    expect(stats.revenue).toBe(210)
    expect(stats.averageOrderValue).toBe(70)
    expect(stats.trends.orders).toBe(200) // 3 orders against 1
    expect(stats.trends.revenue).toBe(150) // 150 against 60
    expect(stats.trends.products).toBe(-50) // 1 new against 2
    expect(stats.periods.products).toEqual({ last: 1, before: 2 })
    expect(stats.periods.revenue).toEqual({ last: 150, before: 60 })
  })

  it('says what every trend compares, with the difference when there is no percentage', () => {
    expect(comparisonText({ last: 3, before: 1 })).toBe('+200.0% vs the previous 30 days')
    expect(comparisonText({ last: 1, before: 2 })).toBe('-50.0% vs the previous 30 days')
    expect(comparisonText({ last: 0, before: 0 })).toBe('0.0% vs the previous 30 days')
    expect(comparisonText({ last: 3, before: 0 })).toBe('+3 vs the previous 30 days')
    expect(comparisonText({ last: 1820.32, before: 0 }, formatMoney)).toBe(
      '+$1,820.32 vs the previous 30 days',
    )
  })

  it('has no trend without an earlier period', () => {
    expect(percentChange(5, 0)).toBeNull()
    expect(percentChange(0, 0)).toBe(0)
  })

  it('ranks products by units sold', () => {
    const top = topProducts([
      {
        id: 'a',
        status: 'pending',
        total: 1,
        createdAt: ago(1),
        items: [{ productId: 'p1', name: 'One', quantity: 1, lineTotal: 5 }],
      },
      {
        id: 'b',
        status: 'shipped',
        total: 1,
        createdAt: ago(1),
        items: [{ productId: 'p2', name: 'Two', quantity: 3, lineTotal: 9 }],
      },
    ])
    expect(top.map((t) => t.name)).toEqual(['Two', 'One'])
  })
})

describe('order board', () => {
  it('drops only onto another column', () => {
    expect(dropTarget('pending', 'processing')).toBe('processing')
    expect(dropTarget('pending', 'pending')).toBeNull()
    expect(dropTarget('pending', null)).toBeNull()
    expect(dropTarget('pending', 'somewhere')).toBeNull()
  })

  it('knows a change the server has not confirmed', () => {
    const history = [{ status: 'pending', at: ago(1), by: null }]
    expect(isWaitingToSync({ status: 'processing', statusHistory: history })).toBe(true)
    expect(isWaitingToSync({ status: 'pending', statusHistory: history })).toBe(false)
  })
})

describe('product form', () => {
  it('has SPEC.md §5 messages', () => {
    const result = validateProductForm({ ...emptyProductForm, thc_percentage: '101', price: '-1' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.sku).toBe('SKU is required')
    expect(result.errors.name).toBe('Product name is required')
    expect(result.errors.thc_percentage).toBe('Must be between 0 and 100')
    expect(result.errors.price).toBe('Must be at least 0')
  })

  it('sends empty or zero numbers as null, drops blank terpenes and quantity with unlimited stock', () => {
    const result = validateProductForm({
      ...emptyProductForm,
      sku: ' A-1 ',
      name: 'Kush',
      price: '0',
      weight_grams: '3.5',
      quantity_available: '7',
      is_unlimited_quantity: true,
      terpenes: [
        { name: ' ', percentage: '1' },
        { name: 'Myrcene', percentage: '' },
      ],
      effects: ['Relaxed', ' '],
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const payload = buildSavePayload(result.output, { id: 'x', isNew: true, media: [] })
    expect(payload).toMatchObject({
      id: 'x',
      is_new: true,
      sku: 'A-1',
      price: null,
      weight_grams: 3.5,
      quantity_available: null,
      terpenes: [{ name: 'Myrcene', percentage: null }],
      effects: ['Relaxed'],
    })
  })

  it('orders media: kept first, new files after the highest display order', () => {
    const kept: AdminMediaRow[] = [
      { id: 'm1', media_url: 'p/a.png', media_type: 'image', is_primary: false, display_order: 0 },
      { id: 'm2', media_url: 'p/b.png', media_type: 'image', is_primary: true, display_order: 4 },
    ]
    const media = mergeMedia(kept, [{ path: 'p/c.mp4', type: 'video' }], null)
    expect(media.map((m) => [m.media_url, m.is_primary, m.display_order])).toEqual([
      ['p/a.png', false, 0],
      ['p/b.png', true, 4],
      ['p/c.mp4', false, 5],
    ])
    const created = mergeMedia(
      [],
      [
        { path: 'p/x.png', type: 'image' },
        { path: 'p/y.png', type: 'image' },
      ],
      null,
    )
    expect(created.map((m) => [m.is_primary, m.display_order])).toEqual([
      [true, 0],
      [false, 1],
    ])
  })

  it('checks uploads and names them as SPEC.md §7 says', () => {
    const ok = new File(['x'], 'a.PNG', { type: 'image/png' })
    const bad = new File(['x'], 'a.gif', { type: 'image/gif' })
    const result = checkUploads([ok, bad])
    expect(result.accepted).toEqual([ok])
    expect(result.badType).toEqual([bad])
    expect(uploadPath('pid', 'photo.final.PNG', 123)).toMatch(/^pid\/123-[a-z0-9]+\.png$/)
  })
})

const row = (over: Partial<AdminProductRow>): AdminProductRow => ({
  id: 'id',
  name: 'Name',
  slug: 'name',
  sku: 'SKU',
  description: null,
  price: null,
  original_price: null,
  quantity_available: null,
  is_unlimited_quantity: false,
  is_active: true,
  is_on_sale: false,
  is_featured: false,
  rating: 0,
  review_count: 0,
  thc_percentage: null,
  cbd_percentage: null,
  total_cannabinoids_percentage: null,
  smokeback_percentage: null,
  weight_grams: null,
  is_cannabis: true,
  limit_class: null,
  limit_grams: null,
  thc_mg: null,
  cbd_mg: null,
  servings: null,
  metrc_package_tag: null,
  metrc_unit: null,
  created_at: ago(1),
  updated_at: ago(1),
  brand_id: null,
  category_id: null,
  product_type_id: null,
  brand: null,
  category: null,
  product_type: null,
  product_media: [],
  product_effects: [],
  terpene_profiles: [],
  ...over,
})

describe('product table', () => {
  it('sorts names case-insensitively and missing numbers as 0', () => {
    const rows = [
      row({ id: '1', name: 'beta', price: 5 }),
      row({ id: '2', name: 'Alpha', price: null }),
    ]
    expect(sortProducts(rows, 'name', 'asc').map((r) => r.id)).toEqual(['2', '1'])
    expect(sortProducts(rows, 'price', 'desc').map((r) => r.id)).toEqual(['1', '2'])
  })

  it('grades stock', () => {
    expect(stockLevel({ is_unlimited_quantity: true, quantity_available: null })).toBe('unlimited')
    expect(stockLevel({ is_unlimited_quantity: false, quantity_available: 0 })).toBe('out')
    expect(stockLevel({ is_unlimited_quantity: false, quantity_available: 10 })).toBe('low')
    expect(stockLevel({ is_unlimited_quantity: false, quantity_available: 11 })).toBe('normal')
  })
})

describe('CSV', () => {
  const lookups = {
    brands: [{ id: 'b1', name: 'Humo Farms' }],
    categories: [{ id: 'c1', name: 'Flower' }],
    productTypes: [],
    existing: [{ id: 'p1', sku: 'OLD-1' }],
  }

  it('round-trips an export through the import', () => {
    const csv = productsToCsv([
      row({
        id: 'p1',
        sku: 'OLD-1',
        name: 'Old, "quoted"',
        price: 12.5,
        brand: { id: 'b1', name: 'Humo Farms' },
        product_effects: [{ id: 'e', effect_name: 'Happy' }],
        terpene_profiles: [{ id: 't', terpene_name: 'Myrcene', percentage: 0.4 }],
      }),
    ])
    const { rows, fileErrors } = parseProductsCsv(csv, lookups)
    expect(fileErrors).toEqual([])
    expect(rows[0]).toMatchObject({ action: 'update', existingId: 'p1', errors: [] })
    expect(rows[0]!.payload).toMatchObject({
      name: 'Old, "quoted"',
      price: 12.5,
      brand_id: 'b1',
      effects: ['Happy'],
      terpenes: [{ name: 'Myrcene', percentage: 0.4 }],
    })
  })

  it('reports every bad row', () => {
    const { rows } = parseProductsCsv(
      'sku,name,category,thc_percentage\nN-1,New,Nowhere,200\nN-1,,Flower,',
      lookups,
    )
    expect(rows[0]!.errors).toEqual(
      expect.arrayContaining([
        'Unknown category "Nowhere"',
        'thc_percentage: Must be between 0 and 100',
        'Please upload at least one product image or video',
      ]),
    )
    expect(rows[1]!.errors).toEqual(
      expect.arrayContaining(['Product name is required', 'SKU N-1 is also on line 2']),
    )
  })
})

describe('command palette', () => {
  it('filters on title, description and keywords, case-insensitively', () => {
    expect(ADMIN_COMMANDS).toHaveLength(17)
    expect(filterCommands(ADMIN_COMMANDS, 'CSV').map((c) => c.id)).toEqual([
      'export-products',
      'import-products',
      'export-orders',
      'sales-report',
      'metrc-sales',
    ])
    expect(filterCommands(ADMIN_COMMANDS, 'metrc').map((c) => c.id)).toEqual(['metrc-sales'])
    expect(filterCommands(ADMIN_COMMANDS, 'inbox').map((c) => c.id)).toEqual(['notifications'])
    expect(filterCommands(ADMIN_COMMANDS, 'nothing like this')).toEqual([])
  })
})

describe('palette shortcuts', () => {
  const key = (k: string, mods: Partial<KeyboardEvent> = {}) => ({
    key: k,
    code: `Key${k.toUpperCase()}`,
    metaKey: false,
    ctrlKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  })
  const elsewhere = { mac: false, editing: false }
  const mac = { mac: true, editing: false }

  it('maps Ctrl+letter (Cmd+letter on macOS) to the command SPEC.md gives that letter', () => {
    const letters: Record<string, string> = Object.fromEntries(
      ADMIN_COMMANDS.flatMap((c) => (c.shortcut ? [[c.shortcut, c.id] as const] : [])),
    )
    expect(letters).toEqual({
      O: 'go-orders',
      P: 'go-products',
      B: 'go-brands',
      A: 'go-analytics',
      N: 'add-product',
      F: 'search-orders',
      R: 'refresh',
    })
    for (const [letter, id] of Object.entries(letters)) {
      expect(shortcutCommand(key(letter.toLowerCase(), { ctrlKey: true }), elsewhere)).toBe(id)
      expect(shortcutCommand(key(letter.toLowerCase(), { metaKey: true }), mac)).toBe(id)
    }
  })

  it('ignores the wrong modifier for the platform, extra modifiers and plain letters', () => {
    expect(shortcutCommand(key('o'), elsewhere)).toBeNull()
    expect(shortcutCommand(key('o', { metaKey: true }), elsewhere)).toBeNull()
    // macOS text fields use Ctrl+letter to move the caret.
    expect(shortcutCommand(key('o', { ctrlKey: true }), mac)).toBeNull()
    // Ctrl+Alt is AltGr on Windows: it types characters.
    expect(shortcutCommand(key('o', { ctrlKey: true, altKey: true }), elsewhere)).toBeNull()
    expect(shortcutCommand(key('p', { ctrlKey: true, shiftKey: true }), elsewhere)).toBeNull()
    expect(shortcutCommand(key('z', { ctrlKey: true }), elsewhere)).toBeNull()
  })

  it('leaves select-all to a focused text field, and reads the physical key on other layouts', () => {
    expect(shortcutCommand(key('a', { ctrlKey: true }), { mac: false, editing: true })).toBeNull()
    expect(shortcutCommand(key('a', { ctrlKey: true }), elsewhere)).toBe('go-analytics')
    expect(shortcutCommand(key('o', { ctrlKey: true }), { mac: false, editing: true })).toBe(
      'go-orders',
    )
    // A Cyrillic layout: the key labelled O in Latin types "щ".
    expect(shortcutCommand({ ...key('o', { ctrlKey: true }), key: 'щ' }, elsewhere)).toBe(
      'go-orders',
    )
  })
})

describe('admin product documents', () => {
  it('becomes the table row, with current reference names and inactive products kept', () => {
    const { _deleted, ...doc } = adminProductRowToDoc({
      id: 'p1',
      _modified: '2026-11-22T20:00:00.000001Z',
      _deleted: false,
      name: 'Quiet Kush',
      sku: 'Q-1',
      price: '12.50',
      is_active: false,
      quantity_available: 4,
      category_id: 'c1',
      category: { id: 'c1', name: 'Flower', slug: 'flower' },
      brand_id: 'b1',
      brand: { id: 'b1', name: 'Old Brand Name' },
      product_media: [
        { id: 'm2', media_url: 'b.png', media_type: 'image', is_primary: false, display_order: 1 },
        { id: 'm1', media_url: 'a.png', media_type: 'image', is_primary: true, display_order: 0 },
      ],
      product_effects: [{ id: 'e1', effect_name: 'Calm' }],
      terpene_profiles: [{ id: 't1', terpene_name: 'Myrcene', percentage: '0.8' }],
    })
    expect(_deleted).toBe(false)
    const row = adminProductDocToRow(doc, new Map([['b1', 'New Brand Name']]))
    expect(row).toMatchObject({
      id: 'p1',
      price: 12.5,
      is_active: false,
      quantity_available: 4,
      category: { id: 'c1', name: 'Flower' },
      brand: { id: 'b1', name: 'New Brand Name' },
      product_type: null,
    })
    expect(row.product_media.map((m) => m.id)).toEqual(['m1', 'm2'])
    expect(row.product_effects).toEqual([{ id: 'e1', effect_name: 'Calm' }])
    expect(row.terpene_profiles).toEqual([{ id: 't1', terpene_name: 'Myrcene', percentage: 0.8 }])
  })

  it('reads which row an import refusal names', () => {
    expect(refusedRowIndex('Row 3 (SKU X-1): Price must be at least 0')).toBe(2)
    expect(refusedRowIndex('Admin privileges required')).toBeNull()
  })
})
