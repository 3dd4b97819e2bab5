import { useMemo } from 'react'
import { combineLatest, map } from 'rxjs'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { shopSettings$ } from '../../../data/hooks/use-shop-settings'
import type { CartLineDoc } from '../../../data/schemas/cart-line.schema'
import { DEFAULT_MONEY_RULES, totalsFor, type MoneyRules, type Totals } from '../../../lib/money'
import { checkPurchaseLimits, type LimitUsage } from '../../../lib/purchase-limits'

export type CartView = {
  lines: CartLineDoc[]
  /** Number of units (SPEC.md "totalItems"), shown on the header badge. */
  totalItems: number
  totals: Totals
  limits: LimitUsage
  /** The shop's money rules the totals were computed with (Admin Settings). */
  rules: MoneyRules
}

export function cartViewOf(
  lines: CartLineDoc[],
  rules: MoneyRules = DEFAULT_MONEY_RULES,
): CartView {
  const priced = lines.map((l) => ({ price: l.product.price, quantity: l.quantity }))
  return {
    lines,
    totalItems: lines.reduce((n, l) => n + l.quantity, 0),
    totals: totalsFor(priced, 'standard', 'delivery', rules),
    limits: checkPurchaseLimits(
      lines.map((l) => ({
        categorySlug: l.product.categorySlug,
        weightGrams: l.product.weightGrams,
        quantity: l.quantity,
      })),
    ),
    rules,
  }
}

/**
 * The cart, live; totals are recalculated on every change (SPEC.md §4) and with the shop's
 * current rates.
 */
export function useCart(): CartView | null {
  const { db } = useHumoData()
  const cart$ = useMemo(
    () =>
      combineLatest([db.cart_lines.find({ sort: [{ addedAt: 'asc' }] }).$, shopSettings$(db)]).pipe(
        map(([docs, settings]) =>
          cartViewOf(
            docs.map((d) => d.toJSON() as CartLineDoc),
            settings.money,
          ),
        ),
      ),
    [db],
  )
  return useObservable(cart$, null)
}
