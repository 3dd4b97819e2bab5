/**
 * The only writes to the cart (SPEC.md §4 "Cart"): add, remove, set quantity, increment,
 * decrement, clear. Totals are never stored; they are derived from the lines on every change.
 */
import { MAX_QUANTITY, putInCart } from '../../data/cart-lines'
import type { HumoDatabase } from '../../data/database'
import type { ProductDoc } from '../../data/schemas/product.schema'

export { MAX_QUANTITY }

/** Adding a product already present raises its quantity; otherwise a new line is appended. */
export async function addToCart(
  db: HumoDatabase,
  product: ProductDoc,
  quantity = 1,
  now: () => Date = () => new Date(),
): Promise<void> {
  await putInCart(db, product, quantity, now().toISOString())
}

export async function removeFromCart(db: HumoDatabase, productId: string): Promise<void> {
  await db.cart_lines.findOne(productId).remove()
}

/** A quantity of 0 or less removes the line. */
export async function setCartQuantity(
  db: HumoDatabase,
  productId: string,
  quantity: number,
): Promise<void> {
  const line = await db.cart_lines.findOne(productId).exec()
  if (!line) return
  if (quantity <= 0) {
    await line.remove()
    return
  }
  await line.incrementalPatch({ quantity: Math.min(MAX_QUANTITY, Math.floor(quantity)) })
}

export async function incrementCartLine(db: HumoDatabase, productId: string): Promise<void> {
  const line = await db.cart_lines.findOne(productId).exec()
  if (line)
    await line.incrementalModify((doc) => ({
      ...doc,
      quantity: Math.min(MAX_QUANTITY, doc.quantity + 1),
    }))
}

/** Decrement removes the line when its quantity is already 1. */
export async function decrementCartLine(db: HumoDatabase, productId: string): Promise<void> {
  const line = await db.cart_lines.findOne(productId).exec()
  if (!line) return
  if (line.quantity <= 1) await line.remove()
  else await line.incrementalModify((doc) => ({ ...doc, quantity: doc.quantity - 1 }))
}

export async function clearCart(db: HumoDatabase): Promise<void> {
  await db.cart_lines.find().remove()
}
