import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { CartLineDoc } from '../../../data/schemas/cart-line.schema'
import { totalsFor, type Totals } from '../../../lib/money'
import { checkPurchaseLimits, type LimitUsage } from '../../../lib/purchase-limits'

export type CartView = {
  lines: CartLineDoc[]
  /** Number of units (SPEC.md "totalItems"), shown on the header badge. */
  totalItems: number
  totals: Totals
  limits: LimitUsage
}

export function cartViewOf(lines: CartLineDoc[]): CartView {
  const priced = lines.map((l) => ({ price: l.product.price, quantity: l.quantity }))
  return {
    lines,
    totalItems: lines.reduce((n, l) => n + l.quantity, 0),
    totals: totalsFor(priced),
    limits: checkPurchaseLimits(
      lines.map((l) => ({
        categorySlug: l.product.categorySlug,
        weightGrams: l.product.weightGrams,
        quantity: l.quantity,
      })),
    ),
  }
}

/** The cart, live; totals are recalculated on every change (SPEC.md §4). */
export function useCart(): CartView | null {
  const { db } = useHumoData()
  const cart$ = useMemo(
    () =>
      db.cart_lines
        .find({ sort: [{ addedAt: 'asc' }] })
        .$.pipe(map((docs) => cartViewOf(docs.map((d) => d.toJSON() as CartLineDoc)))),
    [db],
  )
  return useObservable(cart$, null)
}
