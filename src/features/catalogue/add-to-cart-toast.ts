import type { ProductDoc } from '../../data/schemas/product.schema'
import { announce } from '../../ui/live-region'
import { toaster } from '../../ui/toaster'

export type AddToCart = (product: ProductDoc, quantity?: number) => Promise<void>

/** Adds, then says so with SPEC.md §8's toast ("Added to cart!"). */
export async function addWithToast(
  onAdd: AddToCart,
  product: ProductDoc,
  quantity = 1,
): Promise<void> {
  try {
    await onAdd(product, quantity)
    announce(`Added ${quantity > 1 ? `${quantity} × ` : ''}${product.name} to cart`)
    toaster.create({
      type: 'success',
      title: 'Added to cart!',
      // The live region said it already: the toast is for the eyes, so it is said once.
      meta: { silent: true },
      description:
        quantity > 1
          ? `${product.name} (${quantity}) added to your cart.`
          : `${product.name} has been added to your cart.`,
    })
  } catch (error) {
    console.error('add to cart failed', error)
    toaster.create({
      type: 'error',
      title: 'Could not add to cart',
      description: 'Please try again.',
    })
  }
}
