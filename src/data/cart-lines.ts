/**
 * Putting a product in the cart, shared by every feature that does it (add to cart, Reorder): a
 * line keeps a snapshot of its product, enough to show the cart and preview totals offline
 * whatever happens to the catalogue later, and adding a product already there raises its
 * quantity (never past MAX_QUANTITY) and refreshes the snapshot to today's price and stock.
 */
import type { HumoDatabase } from './database'
import { primaryImage } from './product-images'
import type { CartProductSnapshot } from './schemas/cart-line.schema'
import type { ProductDoc } from './schemas/product.schema'

export function cartSnapshotOf(product: ProductDoc): CartProductSnapshot {
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
    isCannabis: product.isCannabis,
    limitClass: product.limitClass ?? null,
    limitGrams: product.limitGrams ?? null,
    stock: product.stock ?? null,
    unlimited: product.unlimited,
  }
}

export const MAX_QUANTITY = 999

export async function putInCart(
  db: HumoDatabase,
  product: ProductDoc,
  quantity: number,
  at: string,
): Promise<void> {
  if (quantity <= 0) return
  const grow = async () => {
    const line = await db.cart_lines.findOne(product.id).exec()
    await line?.incrementalModify((doc) => ({
      ...doc,
      quantity: Math.min(MAX_QUANTITY, doc.quantity + quantity),
      product: cartSnapshotOf(product),
    }))
  }
  if (await db.cart_lines.findOne(product.id).exec()) return grow()
  try {
    await db.cart_lines.insert({
      productId: product.id,
      quantity: Math.min(MAX_QUANTITY, quantity),
      addedAt: at,
      product: cartSnapshotOf(product),
    })
  } catch (error) {
    // NOTE: another tab added the same product between our read and our insert.
    if ((error as { code?: string }).code !== 'CONFLICT') throw error
    await grow()
  }
}
