import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { CartLineDoc } from '../../../data/schemas/cart-line.schema'

/** The cart lines the checkout turns into an order (read-only here). */
export function useCartLines(): CartLineDoc[] | null {
  const { db } = useHumoData()
  const lines$ = useMemo(
    () =>
      db.cart_lines
        .find({ sort: [{ addedAt: 'asc' }] })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as CartLineDoc))),
    [db],
  )
  return useObservable(lines$, null)
}
