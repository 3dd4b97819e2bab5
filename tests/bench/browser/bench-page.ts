// Runs inside headless Chromium for tests/bench/data-bench.ts: the app's real data layer (RxDB on
// Dexie/IndexedDB, our RPC pulls, supabase-js) against the embedded backend serving this page.
import { createClient } from '@supabase/supabase-js'
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie'
import { createRpcClient } from '../../../src/data/backend-client'
import { createHumoDatabase, type HumoDatabase } from '../../../src/data/database'
import { replicateCatalogue } from '../../../src/data/replication/catalogue-replication'
import { replicateAdminOrders } from '../../../src/data/replication/admin-orders-replication'
import { watchChanges } from '../../../src/data/replication/live-changes'
import type { ProductDoc } from '../../../src/data/schemas/product.schema'
import { filterProducts, sortProducts } from '../../../src/features/catalogue/menu-filter'
import { startPullProbe, timedStorage } from './pull-probe'

type Config = { supabaseUrl: string; supabaseAnonKey: string }

const config = (await (await fetch('/humo-config.json')).json()) as Config
const client = (token?: string) =>
  createClient(config.supabaseUrl, config.supabaseAnonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    ...(token ? { global: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  })

let db: HumoDatabase | null = null

const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { median: at(0.5), p95: at(0.95), runs: samples.length }
}

/** Case-insensitive text match the way the menu's search does it. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const textMatch = (text: string) => new RegExp(escape(text), 'i')

const bench = {
  /**
   * A first sync as a shopper's device makes it: the storefront's light client (GET pulls, as
   * src/data/humo-data.ts) into an empty database, every catalogue pull at once. Its storage is
   * Dexie's, with its calls timed (pull-probe.ts) for the breakdown.
   */
  async pull() {
    db = await createHumoDatabase({
      name: `bench-${Date.now()}`,
      storage: timedStorage(getRxStorageDexie()),
    })
    const started = performance.now()
    const probe = startPullProbe(started)
    const catalogue = replicateCatalogue(createRpcClient(config), db, {
      live: false,
      identifier: 'bench',
    })
    // When each replication reported "in sync", for the trace.
    const names = ['products', 'categories', 'brands', 'product_types', 'shop_settings']
    const synced = catalogue.replications.map((replication, i) =>
      replication.awaitInitialReplication().then(() => {
        const at = performance.now() - started
        probe.breakdown.trace.push({
          kind: 'mark',
          name: `${names[i]} in sync`,
          detail: '',
          docs: 0,
          start: at,
          end: at,
          outcome: '',
        })
      }),
    )
    await catalogue.awaitInitial()
    const ms = performance.now() - started
    await Promise.all(synced)
    probe.stop()
    await catalogue.cancel()
    return { ms, products: await db.products.count().exec(), breakdown: probe.breakdown }
  },

  /**
   * The menu query as the menu does it (src/features/catalogue): the category's products are
   * read once through the categorySlug index and held live; every filter change then filters and
   * sorts them in memory. Timed: the one-off read, and each filter + sort (category + price range
   * + text + sort by price, first 50).
   */
  async menuQuery(runs: number, category: string, text: string) {
    if (!db) throw new Error('pull first')
    const readStarted = performance.now()
    const products = (await db.products.find({ selector: { categorySlug: category } }).exec()).map(
      (d) => d.toJSON() as ProductDoc,
    )
    const readMs = performance.now() - readStarted
    const samples: number[] = []
    let results = 0
    for (let i = 0; i < runs; i++) {
      const started = performance.now()
      const search = { q: text, priceMin: 10 + i, priceMax: 4000 - i, sort: 'price-asc' as const }
      const shown = sortProducts(filterProducts(products, search), search.sort).slice(0, 50)
      samples.push(performance.now() - started)
      results = shown.length
    }
    return { ...stats(samples), results, readMs, categoryProducts: products.length }
  },

  /** The same query asked of RxDB itself each time (regex and sort in the query), for comparison. */
  async rxdbQuery(runs: number, category: string, text: string) {
    if (!db) throw new Error('pull first')
    const samples: number[] = []
    let results = 0
    for (let i = 0; i < runs; i++) {
      const started = performance.now()
      const docs = await db.products
        .find({
          selector: {
            categorySlug: category,
            // A distinct query every run: RxDB caches results of a repeated query.
            price: { $gte: 10 + i * 0.37, $lte: 4000 - i },
            name: { $regex: escape(text), $options: 'i' },
          },
          sort: [{ price: 'asc' }],
          limit: 50,
        })
        .exec()
      samples.push(performance.now() - started)
      results = docs.length
    }
    return { ...stats(samples), results }
  },

  /** SPEC.md's design: page 1 of size 1000 with all joins over REST, filtered in memory. */
  async restMenuQuery(runs: number, category: string, text: string) {
    const supabase = client()
    const samples: number[] = []
    let results = 0
    const pattern = textMatch(text)
    for (let i = 0; i < runs; i++) {
      const started = performance.now()
      const { data, error } = await supabase
        .from('products')
        .select(
          '*, brand:brands(id,name), category:categories(id,name,slug), product_type:product_types(name), product_media(*), product_effects(*), terpene_profiles(*)',
        )
        .eq('is_active', true)
        .order('created_at', { ascending: false })
        .range(0, 999)
      if (error) throw new Error(error.message)
      const rows = (data ?? []) as {
        name: string
        price: number
        category: { slug: string } | null
      }[]
      results = rows
        .filter(
          (r) =>
            r.category?.slug === category &&
            r.price >= 10 &&
            r.price <= 4000 &&
            pattern.test(r.name),
        )
        .sort((a, b) => a.price - b.price)
        .slice(0, 50).length
      samples.push(performance.now() - started)
    }
    return { ...stats(samples), results }
  },

  /** An admin device that follows orders live; resolves the time a status is first seen. */
  async followOrders(token: string) {
    const admin = await createHumoDatabase({
      name: `bench-admin-${Date.now()}`,
      only: ['admin_orders', 'order_notices'],
    })
    const supabase = client(token)
    // A token given only as a header does not reach the realtime socket; signed-in apps get
    // this from supabase.auth, the bench sets it by hand.
    await supabase.realtime.setAuth(token)
    const replication = replicateAdminOrders(supabase, admin, { identifier: 'bench-follow' })
    await replication.awaitInitialReplication()
    watchChanges(supabase, 'bench-orders', ['orders'], () => replication.nudge(), 0)
    return {
      async waitForStatus(id: string, status: string, timeoutMs: number) {
        const started = performance.now()
        while (performance.now() - started < timeoutMs) {
          const doc = await admin.admin_orders.findOne(id).exec()
          if (doc?.status === status) return performance.now()
          await new Promise((r) => setTimeout(r, 5))
        }
        return null
      },
    }
  },
}

const followers: Awaited<ReturnType<typeof bench.followOrders>>[] = []
Object.assign(window, {
  humoBench: {
    ...bench,
    async follow(token: string) {
      followers.push(await bench.followOrders(token))
      return followers.length - 1
    },
    waitForStatus: (i: number, id: string, status: string, timeoutMs: number) =>
      followers[i]!.waitForStatus(id, status, timeoutMs),
    now: () => performance.now(),
    timeOrigin: () => performance.timeOrigin,
  },
})
document.title = 'ready'
