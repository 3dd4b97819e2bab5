import { useMemo } from 'react'
import { cartView$, type CartView } from '../../../data/cart-view'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'

export type { CartView }

/**
 * The cart, live (src/data/cart-view.ts): priced with the shop's fees and California's rules in
 * force today, for the buyer and the pickup or delivery the checkout describes.
 */
export function useCart(): CartView | null {
  const { db } = useHumoData()
  const cart$ = useMemo(() => cartView$(db), [db])
  return useObservable(cart$, null)
}
