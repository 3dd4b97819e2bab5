import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { liveResults } from '../../../data/live-query'
import { useObservable } from '../../../data/hooks/use-observable'
import type { ProductDoc } from '../../../data/schemas/product.schema'

/** One product by slug (indexed), live; `undefined` until the query answers, `null` if absent. */
export function useProduct(slug: string): ProductDoc | null | undefined {
  const { db } = useHumoData()
  const product$ = useMemo(() => {
    const query = db.products.findOne({ selector: { slug } })
    return liveResults(query).pipe(map((doc) => (doc ? (doc.toJSON() as ProductDoc) : null)))
  }, [db, slug])
  return useObservable<ProductDoc | null | undefined>(product$, undefined)
}
