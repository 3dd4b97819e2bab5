// The imports that pin admin_import_products' behaviour (docs/decisions/033-staged-import.md): a catalogue of
// known products, then one import after another, each refused with a message or applied. The
// expected outcomes in import-parity-expected.json were recorded from docs/decisions/031-set-based-import.md's row-by-row
// import (admin_save_product per row, one transaction) by tests/integration/server-rules/
// import-parity-record.ts; the set-based import must give the same messages, codes and writes.
import type { HumoBackend } from '../../../supabase/local/server'

/** Fixed ids, so that messages naming them are the same on every run. */
export const IDS = {
  e1: '0e100000-0000-4000-8000-000000000001',
  e2: '0e100000-0000-4000-8000-000000000002',
  e3: '0e100000-0000-4000-8000-000000000003',
  d1: '0e100000-0000-4000-8000-0000000000d1',
  m1: '0e200000-0000-4000-8000-000000000001',
  m2: '0e200000-0000-4000-8000-000000000002',
  brand: '0e300000-0000-4000-8000-000000000001',
  goneBrand: '0e300000-0000-4000-8000-000000000002',
  n1: '0e400000-0000-4000-8000-000000000001',
  n2: '0e400000-0000-4000-8000-000000000002',
  n3: '0e400000-0000-4000-8000-000000000003',
  n4: '0e400000-0000-4000-8000-000000000004',
  n5: '0e400000-0000-4000-8000-000000000005',
  n6: '0e400000-0000-4000-8000-000000000006',
  x1: '0e500000-0000-4000-8000-000000000001',
  x2: '0e500000-0000-4000-8000-000000000002',
  x3: '0e500000-0000-4000-8000-000000000003',
  f1: '0e800000-0000-4000-8000-000000000001',
  f2: '0e800000-0000-4000-8000-000000000002',
  f3: '0e800000-0000-4000-8000-000000000003',
  f4: '0e800000-0000-4000-8000-000000000004',
  f5: '0e800000-0000-4000-8000-000000000005',
  f6: '0e800000-0000-4000-8000-000000000006',
  f7: '0e800000-0000-4000-8000-000000000007',
  missing: '0e900000-0000-4000-8000-000000000009',
} as const

/** The known products: E1 and E2 with media, E3 without, D1 deleted; a live and a deleted brand. */
export async function seedParityCatalogue(backend: HumoBackend): Promise<void> {
  await backend.db.exec(`
    insert into public.brands (id, name, slug) values ('${IDS.brand}', 'Parity Brand', 'parity-brand');
    insert into public.brands (id, name, slug, _deleted)
      values ('${IDS.goneBrand}', 'Gone Brand', 'gone-brand', true);
    insert into public.products (id, name, slug, sku, price, quantity_available, brand_id) values
      ('${IDS.e1}', 'Case One', 'case-one', 'CASE-E1', 10, 4, '${IDS.brand}'),
      ('${IDS.e2}', 'Case Two', 'case-two', 'CASE-E2', 20, 5, null),
      ('${IDS.e3}', 'Case Three', 'case-three', 'CASE-E3', 30, 6, null);
    insert into public.products (id, name, slug, sku, price, _deleted)
      values ('${IDS.d1}', 'Case Gone', 'case-gone', 'CASE-D1', 40, true);
    insert into public.product_media (id, product_id, media_url, media_type, is_primary, display_order)
      values ('${IDS.m1}', '${IDS.e1}', 'case/e1.png', 'image', true, 0),
             ('${IDS.m2}', '${IDS.e2}', 'case/e2.png', 'image', true, 0);
    insert into public.product_effects (product_id, effect_name)
      values ('${IDS.e1}', 'Calm'), ('${IDS.e1}', 'Sleepy');
    insert into public.terpene_profiles (product_id, terpene_name, percentage)
      values ('${IDS.e1}', 'Myrcene', 0.5), ('${IDS.e1}', 'Limonene', 0.2);
  `)
}

/** `rows` is what the call sends as p_rows: usually a list of rows, once something else. */
export type ParityCase = { name: string; rows: unknown }

const media = (url: string) => [{ media_url: url }]
const create = (id: string, sku: string, extra: Record<string, unknown> = {}) => ({
  id,
  is_new: true,
  sku,
  name: `Parity ${sku}`,
  price: 15,
  quantity_available: 2,
  media: media(`parity/${sku}.png`),
  ...extra,
})

/** In order: each case runs on the catalogue the cases before it left. */
export const PARITY_CASES: ParityCase[] = [
  { name: 'rows not a list', rows: { sku: 'X' } },
  { name: 'a row not an object', rows: [create(IDS.x1, 'P-1'), 5] },
  {
    name: 'an id that is not a uuid',
    rows: [{ id: 'nope', sku: 'P-2', name: 'x', media: media('a.png') }],
  },
  { name: 'an unknown id', rows: [{ id: IDS.missing, price: 3 }] },
  { name: 'is_new on a deleted id', rows: [create(IDS.d1, 'P-3')] },
  { name: 'is_new not a flag', rows: [create(IDS.x1, 'P-4', { is_new: 'yes' })] },
  { name: 'no SKU', rows: [create(IDS.x1, '  ')] },
  { name: 'SKU blanked on update', rows: [{ id: IDS.e1, sku: ' ' }] },
  { name: 'no name', rows: [create(IDS.x1, 'P-5', { name: '' })] },
  { name: 'SKU of another product', rows: [create(IDS.x1, 'CASE-E2')] },
  { name: 'SKU twice in one import', rows: [create(IDS.x1, 'P-6'), create(IDS.x2, 'P-6')] },
  { name: 'unlimited not a flag', rows: [create(IDS.x1, 'P-7', { is_unlimited_quantity: 'x' })] },
  { name: 'quantity not whole', rows: [create(IDS.x1, 'P-8', { quantity_available: 1.5 })] },
  { name: 'quantity below 0', rows: [create(IDS.x1, 'P-8', { quantity_available: -1 })] },
  { name: 'quantity not a number', rows: [create(IDS.x1, 'P-8', { quantity_available: '3' })] },
  { name: 'quantity too large', rows: [create(IDS.x1, 'P-8', { quantity_available: 1e10 })] },
  { name: 'media not a list', rows: [create(IDS.x1, 'P-9', { media: 'a.png' })] },
  { name: 'no media on create', rows: [create(IDS.x1, 'P-9', { media: [] })] },
  {
    name: 'media key left out on create',
    rows: [{ id: IDS.x1, is_new: true, sku: 'P-9', name: 'n' }],
  },
  { name: 'media emptied on update', rows: [{ id: IDS.e1, media: [] }] },
  { name: 'update of a product without media', rows: [{ id: IDS.e3, price: 31 }] },
  {
    name: 'several bad fields: the first in column order',
    rows: [
      create(IDS.x1, 'P-10', {
        brand_id: IDS.missing,
        thc_percentage: 200,
        price: -1,
        is_featured: 'x',
        weight_grams: -5,
      }),
    ],
  },
  {
    name: 'several bad fields on update',
    rows: [{ id: IDS.e1, brand_id: 'abc', thc_percentage: 200, original_price: -1, is_active: 1 }],
  },
  { name: 'flags and weight', rows: [create(IDS.x1, 'P-11', { is_active: 1, weight_grams: -1 })] },
  { name: 'featured flag', rows: [create(IDS.x1, 'P-11', { is_featured: 'no' })] },
  { name: 'on sale flag', rows: [create(IDS.x1, 'P-11', { is_on_sale: null, is_active: 'y' })] },
  { name: 'description not text', rows: [create(IDS.x1, 'P-12', { description: 5 })] },
  {
    name: 'description too long',
    rows: [create(IDS.x1, 'P-12', { description: 'd'.repeat(50001) })],
  },
  { name: 'brand not a uuid', rows: [create(IDS.x1, 'P-13', { brand_id: 'abc' })] },
  { name: 'deleted brand', rows: [create(IDS.x1, 'P-13', { brand_id: IDS.goneBrand })] },
  { name: 'unknown category', rows: [create(IDS.x1, 'P-13', { category_id: IDS.missing })] },
  { name: 'unknown type', rows: [create(IDS.x1, 'P-13', { product_type_id: IDS.missing })] },
  { name: 'percentages', rows: [create(IDS.x1, 'P-14', { cbd_percentage: 101 })] },
  {
    name: 'total cannabinoids',
    rows: [create(IDS.x1, 'P-14', { total_cannabinoids_percentage: 'x' })],
  },
  { name: 'smokeback', rows: [create(IDS.x1, 'P-14', { smokeback_percentage: 100.5 })] },
  { name: 'price too large', rows: [create(IDS.x1, 'P-15', { price: 1e12 })] },
  {
    name: 'terpene percentage before media',
    rows: [create(IDS.x1, 'P-16', { terpenes: [{ name: 'Pinene', percentage: 120 }], media: [5] })],
  },
  { name: 'media entry not an object', rows: [create(IDS.x1, 'P-17', { media: [5] })] },
  { name: 'media entry without url', rows: [create(IDS.x1, 'P-17', { media: [{}] })] },
  { name: 'media url not text', rows: [create(IDS.x1, 'P-17', { media: [{ media_url: 3 }] })] },
  {
    name: 'media type',
    rows: [create(IDS.x1, 'P-17', { media: [{ media_url: 'a.gif', media_type: 'audio' }] })],
  },
  {
    name: 'media id not a uuid',
    rows: [create(IDS.x1, 'P-17', { media: [{ id: 'zz', media_url: 'a.png' }] })],
  },
  {
    name: "another product's media",
    rows: [create(IDS.x1, 'P-17', { media: [{ id: IDS.m2, media_url: 'a.png' }] })],
  },
  {
    name: 'media id twice',
    rows: [
      create(IDS.x1, 'P-17', {
        media: [
          { id: IDS.x3, media_url: 'a.png' },
          { id: IDS.x3, media_url: 'b.png' },
        ],
      }),
    ],
  },
  {
    name: 'primary not a flag',
    rows: [create(IDS.x1, 'P-17', { media: [{ media_url: 'a.png', is_primary: 'y' }] })],
  },
  {
    name: 'display order not whole',
    rows: [create(IDS.x1, 'P-17', { media: [{ media_url: 'a.png', display_order: 1.5 }] })],
  },
  {
    name: 'media id used by an earlier row for another product',
    rows: [
      create(IDS.x1, 'P-18', { media: [{ id: IDS.x3, media_url: 'a.png' }] }),
      create(IDS.x2, 'P-19', { media: [{ id: IDS.x3, media_url: 'a.png' }] }),
    ],
  },
  {
    name: 'bad row after good ones',
    rows: [create(IDS.x1, 'P-20'), create(IDS.x2, 'P-21'), create(IDS.x3, 'P-22', { price: -4 })],
  },
  // Imports that go through, and what they leave.
  {
    name: 'creates, updates, renames a SKU and reuses it, same names',
    rows: [
      create(IDS.n1, 'P-30', { name: 'Same Name', effects: [' Happy ', 'Calm', 'Happy', ''] }),
      create(IDS.n2, 'P-31', {
        name: 'Same Name',
        terpenes: [{ name: 'Pinene', percentage: 1.25 }],
      }),
      {
        id: IDS.e1,
        sku: 'CASE-E1-NEW',
        price: 12.5,
        is_active: false,
        effects: ['Calm', 'Focused'],
      },
      create(IDS.n3, 'CASE-E1', { slug: 'Case One', is_unlimited_quantity: true }),
      create(IDS.d1.replace('d1', 'd2'), 'CASE-D1', { description: '  Reuses a deleted SKU  ' }),
    ],
  },
  {
    name: 'the same product twice in one import',
    rows: [
      create(IDS.n4, 'P-40', { effects: ['Calm'], thc_percentage: 18 }),
      {
        id: IDS.n4,
        price: 99,
        media: [{ media_url: 'parity/P-40.png' }, { media_url: 'parity/P-40-b.png' }],
      },
      create(IDS.n4, 'P-40', { name: 'Retried create', quantity_available: 7 }),
    ],
  },
  {
    name: 'media kept by path, added, reordered and dropped',
    rows: [
      {
        id: IDS.e1,
        media: [
          { media_url: 'case/e1-new.mp4', is_primary: true },
          { media_url: 'case/e1.png', display_order: 5 },
        ],
        terpenes: [{ name: 'Myrcene', percentage: 0.9 }, { terpene_name: 'Pinene' }, { name: '' }],
      },
      { id: IDS.e2, media: [{ id: IDS.m2, media_url: 'case/e2-moved.png' }], effects: [] },
      {
        id: IDS.e3,
        media: [
          { id: IDS.x3.replace('0e5', '0e6'), media_url: 'case/e3.png', media_type: 'video' },
        ],
      },
    ],
  },
  {
    name: 'brand, category and type kept or changed',
    rows: [
      { id: IDS.e1, brand_id: null, weight_grams: 3.5, is_unlimited_quantity: true },
      { id: IDS.e2, brand_id: IDS.brand, slug: 'case-one', quantity_available: null },
      create(IDS.n5, 'P-50', { brand_id: '', category_id: null, price: null, is_on_sale: true }),
    ],
  },
  {
    name: 'every field of a new product, and slugs one row could take from another',
    rows: [
      {
        id: IDS.n5.replace('0e4', '0e7'),
        is_new: true,
        sku: ' P-70 ',
        name: ' Every Field ',
        description: '  Some text  ',
        price: 20.555,
        original_price: 25,
        is_unlimited_quantity: true,
        quantity_available: 5,
        is_active: false,
        is_on_sale: true,
        is_featured: true,
        thc_percentage: 20.555,
        cbd_percentage: 0,
        total_cannabinoids_percentage: 30,
        smokeback_percentage: 1,
        weight_grams: 3.5,
        brand_id: IDS.brand,
        effects: [' Uplifted ', 'Calm', 'Uplifted', 7],
        terpenes: [
          { name: 'Pinene', percentage: 0.5 },
          { terpene_name: 'Pinene', percentage: 0.7 },
          { name: 'Humulene' },
          'x',
        ],
        media: [
          { media_url: ' parity/every.MP4?x=1 ' },
          {
            media_url: 'parity/every.png',
            is_primary: true,
            display_order: 7,
            media_type: 'image',
          },
        ],
      },
      create(IDS.n1.replace('0e4', '0e7'), 'P-71', { name: 'Stem Case' }),
      create(IDS.n2.replace('0e4', '0e7'), 'P-72', { name: 'Stem Case 2' }),
      create(IDS.n3.replace('0e4', '0e7'), 'P-73', { name: 'Case Two' }),
      create(IDS.n4.replace('0e4', '0e7'), 'P-74', { slug: 'Stem Case' }),
    ],
  },
  {
    name: 'a retried create of a product created before',
    rows: [create(IDS.n1, 'P-30', { name: 'Same Name Again' }), create(IDS.n6, 'P-60')],
  },
  // A product's facts (issue 31, migration 20261128100500), recorded from admin_save_product row
  // by row (import-parity-record.mts).
  {
    name: 'facts: a daily limit that is not one',
    rows: [create(IDS.x1, 'F-1', { limit_class: 'edible' })],
  },
  { name: 'facts: a capitalised limit', rows: [create(IDS.x1, 'F-1', { limit_class: 'Flower' })] },
  { name: 'facts: cannabis not a flag', rows: [create(IDS.x1, 'F-1', { is_cannabis: 'yes' })] },
  { name: 'facts: servings zero', rows: [create(IDS.x1, 'F-1', { servings: 0 })] },
  { name: 'facts: servings not whole', rows: [create(IDS.x1, 'F-1', { servings: 2.5 })] },
  { name: 'facts: servings not a number', rows: [create(IDS.x1, 'F-1', { servings: '10' })] },
  { name: 'facts: too many servings', rows: [create(IDS.x1, 'F-1', { servings: 1001 })] },
  { name: 'facts: THC mg too large', rows: [create(IDS.x1, 'F-1', { thc_mg: 200000 })] },
  { name: 'facts: CBD mg below 0', rows: [create(IDS.x1, 'F-1', { cbd_mg: -1 })] },
  { name: 'facts: limit grams not a number', rows: [create(IDS.x1, 'F-1', { limit_grams: '1' })] },
  {
    name: 'facts: several bad fields, the first in column order',
    rows: [create(IDS.x1, 'F-1', { servings: 0, thc_mg: -1, is_cannabis: 'x', price: -1 })],
  },
  {
    name: 'facts: several bad facts',
    rows: [create(IDS.x1, 'F-1', { servings: 0, cbd_mg: -1, limit_grams: -2, limit_class: 1 })],
  },
  {
    name: 'facts: a daily limit for merchandise',
    rows: [create(IDS.x1, 'F-1', { is_cannabis: false, limit_class: 'flower', weight_grams: 3.5 })],
  },
  {
    name: 'facts: a daily limit without grams',
    rows: [create(IDS.x1, 'F-1', { limit_class: 'concentrate' })],
  },
  {
    name: 'facts: limit grams of zero beside a weight',
    rows: [create(IDS.x1, 'F-1', { limit_class: 'flower', limit_grams: 0, weight_grams: 3.5 })],
  },
  {
    name: 'facts: limit grams that round to zero',
    rows: [create(IDS.x1, 'F-1', { limit_class: 'flower', limit_grams: 0.0004, weight_grams: 1 })],
  },
  {
    name: 'facts: a weight that rounds to zero',
    rows: [create(IDS.x1, 'F-1', { limit_class: 'flower', weight_grams: 0.004 })],
  },
  {
    name: 'facts: a bad fact after the grams check would pass',
    rows: [create(IDS.x1, 'F-1', { limit_class: 'flower', weight_grams: 3.5, servings: -3 })],
  },
  {
    name: 'facts: new products with every kind of fact',
    rows: [
      create(IDS.f1, 'F-10', { limit_class: 'flower', weight_grams: 3.5, thc_percentage: 24.6 }),
      create(IDS.f2, 'F-11', {
        limit_class: 'concentrate',
        limit_grams: 0.1,
        thc_mg: 100,
        servings: 10,
        weight_grams: 50,
      }),
      create(IDS.f3, 'F-12', { is_cannabis: false, limit_class: '', weight_grams: null }),
      create(IDS.f4, 'F-13', {
        limit_class: 'concentrate',
        limit_grams: 0.0105,
        thc_mg: 10.555,
        cbd_mg: 300,
        servings: 30,
      }),
      create(IDS.f5, 'F-14', { is_cannabis: null, limit_class: null, servings: null }),
      create(IDS.f6, 'F-15', { limit_class: 'flower', limit_grams: 0.0005, weight_grams: 0 }),
    ],
  },
  {
    name: 'facts: updates keep what they leave out',
    rows: [
      { id: IDS.f1, price: 44 },
      { id: IDS.f2, thc_mg: 50, servings: 5, limit_grams: 0.05 },
      { id: IDS.f3, is_cannabis: null },
      { id: IDS.e1, limit_class: 'flower' },
      { id: IDS.f4, limit_class: null, limit_grams: null, cbd_mg: null },
    ],
  },
  {
    name: 'facts: a weight taken from a product counted by it',
    rows: [{ id: IDS.f1, weight_grams: null }],
  },
  {
    name: 'facts: merchandise given a limit',
    rows: [{ id: IDS.f3, limit_class: 'concentrate', weight_grams: 5 }],
  },
  {
    name: 'facts: a later row of the same product against an earlier one',
    rows: [
      { id: IDS.f5, is_cannabis: false },
      { id: IDS.f5, limit_class: 'flower', weight_grams: 1 },
    ],
  },
  {
    name: 'facts: a later row of the same product completing an earlier one',
    rows: [
      create(IDS.f7, 'F-16', { weight_grams: 7 }),
      { id: IDS.f7, limit_class: 'flower' },
      { id: IDS.f5, is_cannabis: false, thc_mg: 0 },
    ],
  },
]

/**
 * What the catalogue looks like for the parity products (ids of new media rows made stable). The
 * cases' own ids all have the shape 0eN00000-0000-4000-8000-…; a bare '0e' prefix also matched one
 * random uuid in 256, which made a new media row look like a recorded one (a fresh-clone CI failure).
 */
const CASE_ID = `'0e_00000-0000-4000-8000-%'`
export async function paritySnapshot(backend: HumoBackend): Promise<unknown> {
  const { rows } = await backend.db.query<{ doc: unknown }>(`
    select jsonb_build_object(
      'id', p.id, 'sku', p.sku, 'name', p.name, 'slug', p.slug, 'description', p.description,
      'price', p.price, 'original_price', p.original_price,
      'quantity_available', p.quantity_available, 'is_unlimited_quantity', p.is_unlimited_quantity,
      'is_active', p.is_active, 'is_on_sale', p.is_on_sale, 'is_featured', p.is_featured,
      'thc', p.thc_percentage, 'cbd', p.cbd_percentage, 'total', p.total_cannabinoids_percentage,
      'smokeback', p.smokeback_percentage, 'weight', p.weight_grams, 'brand', p.brand_id,
      'category', p.category_id, 'type', p.product_type_id, 'deleted', p._deleted,
      'facts', jsonb_build_object('cannabis', p.is_cannabis, 'limit', p.limit_class,
        'grams', p.limit_grams, 'thc_mg', p.thc_mg, 'cbd_mg', p.cbd_mg, 'servings', p.servings),
      'media', (select coalesce(jsonb_agg(jsonb_build_object(
          'id', case when m.id::text like ${CASE_ID} then m.id::text else 'new' end,
          'url', m.media_url, 'type', m.media_type, 'primary', m.is_primary,
          'order', m.display_order, 'deleted', m._deleted) order by m.media_url, m._deleted), '[]')
        from public.product_media m where m.product_id = p.id),
      'effects', (select coalesce(jsonb_agg(jsonb_build_object('name', e.effect_name, 'deleted', e._deleted)
          order by e.effect_name, e._deleted), '[]')
        from public.product_effects e where e.product_id = p.id),
      'terpenes', (select coalesce(jsonb_agg(jsonb_build_object('name', t.terpene_name,
          'percentage', t.percentage, 'deleted', t._deleted) order by t.terpene_name, t._deleted), '[]')
        from public.terpene_profiles t where t.product_id = p.id)
    ) as doc
    from public.products p
    where p.id::text like ${CASE_ID}
    order by p.id
  `)
  return rows.map((r) => r.doc)
}
