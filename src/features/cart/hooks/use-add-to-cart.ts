import { useCallback } from 'react'
import { useHumoData } from '../../../data/data-context'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { addToCart } from '../cart.actions'

/** Routes hand this to catalogue components (features do not import each other). */
export function useAddToCart(): (product: ProductDoc, quantity?: number) => Promise<void> {
  const { db } = useHumoData()
  return useCallback((product, quantity = 1) => addToCart(db, product, quantity), [db])
}
