/**
 * The account feature's only writes: Reorder puts a past order's lines into the cart at today's
 * prices and stock, from the device's synced catalogue (so it works offline), and says which
 * lines could not be added and why. The server checks price and stock again at checkout.
 */
import { MAX_QUANTITY, putInCart } from '../../data/cart-lines'
import type { HumoDatabase } from '../../data/database'
import type { OrderDoc } from '../../data/schemas/order.schema'
import type { ProductDoc } from '../../data/schemas/product.schema'

/** The cart's own cap on a line (src/features/cart/cart.actions.ts). */

export type ReorderLine = {
  productId: string
  name: string
  /** What the order had. */
  wanted: number
  /** What went into the cart now. */
  added: number
  /** Why less than `wanted` was added; null when all of it was. */
  problem:
    null | { kind: 'unavailable' } | { kind: 'out-of-stock' } | { kind: 'limited'; left: number }
}

export type ReorderResult = { orderId: string; lines: ReorderLine[] }

type OrderItem = Pick<OrderDoc['items'][number], 'productId' | 'name' | 'quantity'>

/** "no longer available", "out of stock", "only 2 left — added 2". */
export function reorderProblemText(line: ReorderLine): string | null {
  const problem = line.problem
  if (!problem) return null
  if (problem.kind === 'unavailable') return 'no longer available'
  if (problem.kind === 'out-of-stock') return 'out of stock'
  return line.added > 0
    ? `only ${problem.left} left — added ${line.added}`
    : `only ${problem.left} left, all already in your cart`
}

function wantedOf(quantity: unknown): number {
  return typeof quantity === 'number' && Number.isFinite(quantity)
    ? Math.max(1, Math.min(MAX_QUANTITY, Math.floor(quantity)))
    : 1
}

/**
 * What each line of the order can add to the cart now: the product as the device knows it
 * today (absent: no longer sold), its stock less what the cart already holds.
 */
export function planReorder(
  items: readonly OrderItem[],
  products: ReadonlyMap<string, Pick<ProductDoc, 'name' | 'stock' | 'unlimited'>>,
  inCart: ReadonlyMap<string, number>,
): ReorderLine[] {
  // One order line per product, but an old or odd order could repeat one: add them up.
  const merged = new Map<string, { name: string; wanted: number }>()
  for (const item of items) {
    const seen = merged.get(item.productId)
    const wanted = wantedOf(item.quantity)
    if (seen) seen.wanted = Math.min(MAX_QUANTITY, seen.wanted + wanted)
    else merged.set(item.productId, { name: item.name, wanted })
  }
  return [...merged].map(([productId, { name, wanted }]): ReorderLine => {
    const product = products.get(productId)
    const line = { productId, name: product?.name ?? name, wanted }
    if (!product) return { ...line, added: 0, problem: { kind: 'unavailable' } }
    const already = inCart.get(productId) ?? 0
    const room = MAX_QUANTITY - already
    if (product.unlimited)
      return { ...line, added: Math.max(0, Math.min(wanted, room)), problem: null }
    const stock = Math.max(0, Math.floor(product.stock ?? 0))
    if (stock === 0) return { ...line, added: 0, problem: { kind: 'out-of-stock' } }
    const added = Math.max(0, Math.min(wanted, stock - already, room))
    return added < wanted && already + added >= stock
      ? { ...line, added, problem: { kind: 'limited', left: stock } }
      : { ...line, added, problem: null }
  })
}

/** Puts the order's lines into the cart (added to what is there) and reports each line. */
export async function reorder(
  db: HumoDatabase,
  orderId: string,
  now: () => Date = () => new Date(),
): Promise<ReorderResult> {
  const order = await db.orders.findOne(orderId).exec()
  if (!order) return { orderId, lines: [] }
  const items = (Array.isArray(order.items) ? order.items : []).filter(
    (item) => typeof item?.productId === 'string' && item.productId !== '',
  )
  const ids = [...new Set(items.map((item) => item.productId))]
  const [products, cart] = await Promise.all([
    db.products.findByIds(ids).exec(),
    db.cart_lines.findByIds(ids).exec(),
  ])
  const productDocs = new Map([...products].map(([id, doc]) => [id, doc.toJSON() as ProductDoc]))
  const lines = planReorder(
    items,
    productDocs,
    new Map([...cart].map(([id, doc]) => [id, doc.quantity])),
  )
  const at = now().toISOString()
  for (const line of lines) {
    const product = productDocs.get(line.productId)
    if (!product || line.added <= 0) continue
    await putInCart(db, product, line.added, at)
  }
  return { orderId, lines }
}
