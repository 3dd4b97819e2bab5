import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { ProductDoc } from '../../../data/schemas/product.schema'

/** Every product on the device, by name, live: a pull or a local write re-renders the list. */
export function useProducts(): ProductDoc[] | null {
  const { db } = useHumoData()
  const products$ = useMemo(
    () =>
      db.products
        .find()
        .$.pipe(
          map((docs) =>
            docs.map((d) => d.toJSON() as ProductDoc).sort((a, b) => a.name.localeCompare(b.name)),
          ),
        ),
    [db],
  )
  return useObservable(products$, null)
}
