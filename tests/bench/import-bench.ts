// Issue 24's import figure, printed (never asserted): admin_import_products with 500 and 5,000 new
// products (each with a media row, two effects and a terpene) on a fresh in-memory server, through
// the real supabase-js as an admin, as the back office's Import Products sends them
// (docs/decisions/031).
// Run: npx tsx tests/bench/import-bench.ts
import { randomUUID } from 'node:crypto'
import { createUser, rpc, startRulesBackend } from '../integration/server-rules/rules-backend'
import { writeBenchFigures, type Figure } from './bench-figures'

function rows(count: number, tag: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    is_new: true,
    sku: `BENCH-${tag}-${i}`,
    name: `Bench product ${tag} ${i}`,
    price: 10 + (i % 50),
    quantity_available: i % 30,
    thc_percentage: 20,
    effects: ['Relaxed', 'Happy'],
    terpenes: [{ name: 'Myrcene', percentage: 0.8 }],
    media: [{ media_url: `seed/flower-${(i % 4) + 1}.png` }],
  }))
}

const backend = await startRulesBackend()
try {
  const admin = await createUser(backend, { admin: true, email: 'bench@humo.test' })
  const figures: Figure[] = []
  for (const count of [500, 5000]) {
    const batch = rows(count, randomUUID().slice(0, 6))
    const started = performance.now()
    const { error } = await rpc(admin.client, 'admin_import_products', { p_rows: batch })
    const seconds = (performance.now() - started) / 1000
    if (error) throw new Error(`import of ${count} rows failed: ${error.message}`)
    console.log(`import: ${count} rows in ${seconds.toFixed(2)} s`)
    figures.push({
      label: `admin_import_products, ${count} new rows`,
      value: Number(seconds.toFixed(2)),
      unit: 's',
      ...(count === 5000 ? { goal: { op: '<', value: 5 } as const } : {}),
    })
  }
  writeBenchFigures('import-bench', {
    title: 'Product import, 500 and 5,000 rows (issue 24, decision 031)',
    figures,
    notes: [
      'One admin_import_products call per figure, new products with media, effects and a terpene, fresh in-memory server.',
    ],
  })
} finally {
  await backend.close()
}
