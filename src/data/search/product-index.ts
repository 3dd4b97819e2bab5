/**
 * The device's one product search index (docs/decisions/038-product-search.md), shared by the header's type-ahead and the
 * menus: built from the products RxDB holds (active and not deleted: the pull turns the others
 * into tombstones, which leave the collection) and kept in line as the catalogue changes. Loaded
 * with MiniSearch in its own chunk when a search is first wanted (use-product-search.ts).
 */
import { BehaviorSubject, type Observable } from 'rxjs'
import type { HumoDatabase } from '../database'
import type { ProductDoc } from '../schemas/product.schema'
import { ProductSearch, type Pause } from './product-search'

/** A state of the index: a new object whenever the index changed, so screens search again. */
export type SearchableProducts = Pick<ProductSearch, 'search' | 'rank' | 'size'>

const indexes = new WeakMap<HumoDatabase, Observable<SearchableProducts | null>>()

const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
/** Between slices of indexing: the browser's own yield where it has one, else a macrotask. */
const pause: Pause = scheduler?.yield
  ? () => scheduler.yield!.call(scheduler)
  : () => new Promise((resolve) => setTimeout(resolve, 0))

/** The index of `db`'s products: null until the first build is done, then each new state. */
export function productIndex(db: HumoDatabase): Observable<SearchableProducts | null> {
  let index = indexes.get(db)
  if (!index) {
    index = follow(db)
    indexes.set(db, index)
  }
  return index
}

function follow(db: HumoDatabase): Observable<SearchableProducts | null> {
  const engine = new ProductSearch()
  const state = new BehaviorSubject<SearchableProducts | null>(null)
  let latest: readonly ProductDoc[] | null = null
  let running = false

  // One update at a time; changes that arrive meanwhile (a pull writes in batches) are taken
  // together, as the latest set, once it is done.
  const drain = async () => {
    if (running) return
    running = true
    try {
      while (latest) {
        const products = latest
        latest = null
        const changed = await engine.update(products, pause)
        if (changed || state.value === null) {
          state.next({
            search: engine.search.bind(engine),
            rank: engine.rank.bind(engine),
            size: engine.size,
          })
        }
      }
    } finally {
      running = false
    }
  }

  // The documents' own data (no copy): the index only reads it, and RxDB never mutates it.
  // Lives as long as the database: the index is the device's, not a screen's.
  db.products.find().$.subscribe({
    next: (docs) => {
      latest = docs.map((doc) => doc._data)
      drain().catch((error: unknown) => console.error('product search index failed', error))
    },
    error: (error: unknown) => console.error('product search index query failed', error),
  })
  return state
}
