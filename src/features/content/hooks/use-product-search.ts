import { useDeferredValue, useMemo } from 'react'
import { map, of } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { ProductDoc } from '../../../data/schemas/product.schema'

export type SearchHit = Pick<ProductDoc, 'id' | 'slug' | 'name' | 'price'> & {
  brandName: string | null
  categoryName: string | null
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The header's type-ahead: products on this device whose name contains the text (any case),
 * live. Reads only RxDB; nothing goes to the network.
 */
export function useProductSearch(text: string, limit = 6): SearchHit[] {
  const { db } = useHumoData()
  const query = useDeferredValue(text.trim())
  const hits$ = useMemo(() => {
    if (query.length === 0) return of<SearchHit[]>([])
    return db.products
      .find({
        selector: { name: { $regex: escapeRegex(query), $options: 'i' } },
        sort: [{ name: 'asc' }],
        limit,
      })
      .$.pipe(
        map((docs) =>
          docs.map((doc) => ({
            id: doc.id,
            slug: doc.slug,
            name: doc.name,
            price: doc.price,
            brandName: doc.brand?.name ?? null,
            categoryName: doc.category?.name ?? null,
          })),
        ),
      )
  }, [db, query, limit])
  return useObservable(hits$, [])
}
