// Issue 3's figures for the embedded backend, printed (never asserted): catalogue pull throughput
// through /rest/v1 (rows per second, pages of 100 and 1,000 products with every embedded child,
// the real supabase-js as the client) on a generated catalogue of 10,000 products, and realtime
// latency (a committed UPDATE to the postgres_changes event in a subscribed realtime-js client,
// median and p95 over 200 changes).
// Run: npx tsx tests/bench/backend-bench.ts [--products 10000] [--changes 200]
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { REALTIME_SUBSCRIBE_STATES } from '@supabase/supabase-js'
import { signedInUser } from '../../supabase/local/contract-testing.ts'
import { startHumoBackend } from '../../supabase/local/server.ts'
import { writeBenchFigures, type Figure } from './bench-figures.ts'

const PRODUCT_SELECT =
  '*, brand:brands(id, name), category:categories(id, name), product_type:product_types(name), product_media(*), product_effects(*), terpene_profiles(*)'

// Not strict: `npm run bench` passes the same options to every benchmark.
const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    changes: { type: 'string', default: '200' },
  },
  strict: false,
  allowPositionals: true,
})
const productCount = Number(values.products)
const changeCount = Number(values.changes)

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

async function main(): Promise<void> {
  const seedStarted = performance.now()
  const backend = await startHumoBackend({
    dataDir: null,
    port: 0,
    quiet: true,
    seedProducts: productCount,
  })
  console.log(
    `Seeded ${productCount} products into an in-memory backend in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  )
  const figures: Figure[] = []
  try {
    const { client } = await signedInUser(backend, 'owner')

    for (const size of [100, 1000]) {
      const started = performance.now()
      let rows = 0
      let pages = 0
      for (let from = 0; ; from += size) {
        const { data, error } = await client
          .from('products')
          .select(PRODUCT_SELECT)
          .order('created_at', { ascending: false })
          .order('id')
          .range(from, from + size - 1)
        if (error) throw new Error(error.message)
        rows += data.length
        pages++
        if (data.length < size) break
      }
      const seconds = (performance.now() - started) / 1000
      figures.push({
        label: `REST pull of ${rows} products, pages of ${size}`,
        value: Math.round(rows / seconds),
        unit: 'rows/s',
      })
      console.log(
        `REST pull, pages of ${size}: ${rows} products in ${pages} pages, ${seconds.toFixed(2)} s, ${Math.round(rows / seconds)} rows/s (${((seconds * 1000) / pages).toFixed(1)} ms/page)`,
      )
    }

    // Realtime: an admin subscriber (so every event also pays the RLS visibility check).
    const ids = (
      await client.from('products').select('id').order('id').limit(changeCount)
    ).data!.map((p) => p.id)
    const arrived = new Map<string, number>()
    const channel = client
      .channel('bench')
      .on(
        'postgres_changes',
        { event: 'UPDATE', schema: 'public', table: 'products' },
        (payload) => {
          const row = payload.new as { id: string; review_count: number }
          arrived.set(`${row.id}:${row.review_count}`, performance.now())
        },
      )
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status) => {
        if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) resolve()
        else if (status !== REALTIME_SUBSCRIBE_STATES.CLOSED) reject(new Error(status))
      }),
    )
    const latencies: number[] = []
    for (let i = 0; i < changeCount; i++) {
      const id = ids[i % ids.length]!
      const key = `${id}:${1000 + i}`
      // Timed from issuing the UPDATE in the server's process: the event can only leave after
      // the commit, so this is commit latency plus the statement itself (well under 1 ms).
      const started = performance.now()
      await backend.db.query('update public.products set review_count = $2 where id = $1', [
        id,
        1000 + i,
      ])
      while (!arrived.has(key)) await new Promise((done) => setTimeout(done, 0))
      latencies.push(arrived.get(key)! - started)
    }
    latencies.sort((a, b) => a - b)
    console.log(
      `Realtime, commit → client event over ${changeCount} changes: median ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    )
    figures.push(
      {
        label: `Realtime, commit → client event, median of ${changeCount}`,
        value: percentile(latencies, 50),
        unit: 'ms',
      },
      {
        label: 'Realtime, commit → client event, p95',
        value: percentile(latencies, 95),
        unit: 'ms',
      },
    )
    writeBenchFigures('backend-bench', {
      title: `Embedded backend (issue 3), ${productCount} products`,
      figures,
    })
    await client.removeAllChannels()
  } finally {
    await backend.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
