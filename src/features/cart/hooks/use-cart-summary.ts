import { useMemo } from 'react'
import { map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { subtotalOf } from '../../../lib/money'

export type CartSummary = { totalItems: number; subtotal: number }

/**
 * What the header's cart button shows: the number of units and their subtotal. Only the cart's
 * lines: the taxes, the daily limits and the buyer (useCart) are the cart page's, and every page
 * has the header (the storefront's JavaScript budget, docs/decisions/051-california-taxes-and-daily-limits.md).
 */
export function useCartSummary(): CartSummary | null {
  const { db } = useHumoData()
  const summary$ = useMemo(
    () =>
      db.cart_lines.find().$.pipe(
        map((docs) => ({
          totalItems: docs.reduce((n, d) => n + d.quantity, 0),
          subtotal: subtotalOf(docs.map((d) => ({ ...d.product, quantity: d.quantity }))),
        })),
      ),
    [db],
  )
  return useObservable(summary$, null)
}
