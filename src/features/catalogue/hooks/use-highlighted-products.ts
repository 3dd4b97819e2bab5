import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { liveResults } from '../../../data/live-query'
import { useObservable } from '../../../data/hooks/use-observable'
import type { ProductDoc } from '../../../data/schemas/product.schema'

const newestFirst = (a: ProductDoc, b: ProductDoc) => b.createdAt.localeCompare(a.createdAt)

/**
 * Products the home page highlights, live: `featured` (is_featured) for the Featured Products
 * carousel, `deals` (featured or on sale, SPEC.md §7: up to 4) for Flash Deals.
 */
export function useHighlightedProducts(
  kind: 'featured' | 'deals',
  limit: number,
): ProductDoc[] | null {
  const { db } = useHumoData()
  const products$ = useMemo(() => {
    const selector =
      kind === 'featured'
        ? { isFeatured: { $eq: true } }
        : { $or: [{ isFeatured: { $eq: true } }, { isOnSale: { $eq: true } }] }
    const query = db.products.find({ selector })
    return liveResults(query).pipe(
      map((docs) => {
        const products = docs.map((d) => d.toJSON() as ProductDoc).sort(newestFirst)
        // Deals lead with what is actually on sale.
        if (kind === 'deals') products.sort((a, b) => Number(b.isOnSale) - Number(a.isOnSale))
        return products.slice(0, limit)
      }),
    )
  }, [db, kind, limit])
  return useObservable<ProductDoc[] | null>(products$, null)
}
