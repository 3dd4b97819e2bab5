/**
 * A screen's handle on the device's product search (docs/decisions/038-product-search.md). Nothing is loaded until
 * `wanted` (the search box focused, a search text in the URL): then the index and MiniSearch come
 * in their own chunk, outside every route's first load. Null until the index is built; a new
 * value whenever the catalogue changed it.
 */
import { startTransition, useEffect, useState } from 'react'
import { importWhenReachable } from '../../lib/import-when-reachable'
import { useHumoData } from '../data-context'
import type { SearchableProducts } from './product-index'

export type { SearchableProducts }

// Offline before the service worker holds the chunk, it is fetched once the connection is back.
const loadIndex = importWhenReachable(() => import('./product-index'))

export function useProductSearch(wanted: boolean): SearchableProducts | null {
  const { db } = useHumoData()
  const [index, setIndex] = useState<SearchableProducts | null>(null)
  useEffect(() => {
    if (!wanted) return
    let unsubscribe: (() => void) | undefined
    let live = true
    void loadIndex().then(({ productIndex }) => {
      if (!live) return
      const sub = productIndex(db).subscribe((next) => startTransition(() => setIndex(next)))
      unsubscribe = () => sub.unsubscribe()
    })
    return () => {
      live = false
      unsubscribe?.()
    }
  }, [db, wanted])
  return index
}
