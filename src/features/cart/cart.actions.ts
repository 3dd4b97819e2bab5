/**
 * The only writes to the cart (SPEC.md §4 "Cart"): add, remove, set quantity, increment,
 * decrement, clear. Totals are never stored; they are derived from the lines on every change.
 */
import type { HumoDatabase } from '../../data/database'
import type { CartProductSnapshot } from '../../data/schemas/cart-line.schema'
import { primaryImage } from '../../data/product-images'
import type { ProductDoc } from '../../data/schemas/product.schema'

export const MAX_QUANTITY = 999

export function snapshotOf(product: ProductDoc): CartProductSnapshot {
  const image = primaryImage(product)
  return {
    name: product.name,
    slug: product.slug,
    price: product.price,
    originalPrice: product.originalPrice ?? null,
    imagePath: image?.path ?? null,
    brandName: product.brand?.name ?? null,
    categoryName: product.category?.name ?? null,
    categorySlug: product.categorySlug,
    productTypeName: product.productType?.name ?? null,
    weightGrams: product.weightGrams ?? null,
    stock: product.stock ?? null,
    unlimited: product.unlimited,
  }
}

/** Adding a product already present raises its quantity; otherwise a new line is appended. */
export async function addToCart(
  db: HumoDatabase,
  product: ProductDoc,
  quantity = 1,
  now: () => Date = () => new Date(),
): Promise<void> {
  if (quantity <= 0) return
  const grow = async () => {
    const line = await db.cart_lines.findOne(product.id).exec()
    await line?.incrementalModify((doc) => ({
      ...doc,
      quantity: Math.min(MAX_QUANTITY, doc.quantity + quantity),
      product: snapshotOf(product),
    }))
  }
  if (await db.cart_lines.findOne(product.id).exec()) return grow()
  try {
    await db.cart_lines.insert({
      productId: product.id,
      quantity: Math.min(MAX_QUANTITY, quantity),
      addedAt: now().toISOString(),
      product: snapshotOf(product),
    })
  } catch (error) {
    // NOTE: another tab added the same product between our read and our insert.
    if ((error as { code?: string }).code !== 'CONFLICT') throw error
    await grow()
  }
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
