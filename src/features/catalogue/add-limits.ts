/**
 * 4 CCR §15409's daily limits where the shopper adds (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md): a product page or
 * card adds only what fits today's limit for the buyer's kind beside what the cart and this
 * device's orders of the day already hold, and says why not with the limit's message (the text
 * place_order refuses with, src/lib/daily-limits.ts). A product whose one unit is above the limit
 * (a wholesale pound) is never sold to a consumer. The cart and the server check again.
 */
import type { ProductDoc } from '../../data/schemas/product.schema'
import type { DailyLimits } from '../../lib/compliance-rules'
import {
  checkDailyLimits,
  oversizeMessage,
  unitOverLimit,
  unitsThatFit,
  type GramsHeld,
  type LimitClass,
  type LimitedLine,
} from '../../lib/daily-limits'

type LimitFields = {
  name: string
  limitClass?: string | null
  limitGrams?: number | null
  weightGrams?: number | null
}

/** A cart line as the limits read it (the line's snapshot of its product). */
export type CartLineLike = { productId: string; quantity: number; product: LimitFields }

/** What the day's limits are, and what already counts toward them. */
export type DailyRoom = {
  limits: DailyLimits
  /** This device's orders of the shop's day for the same buyer. */
  heldToday: GramsHeld
  cartLines: readonly CartLineLike[]
}

const classOf = (value: string | null | undefined): LimitClass | null =>
  value === 'flower' || value === 'concentrate' ? value : null

/** A product (or a cart line's snapshot of one) as daily-limits.ts counts it. */
export function limitedLine(product: LimitFields, quantity: number): LimitedLine {
  return {
    name: product.name,
    limitClass: classOf(product.limitClass),
    unitGrams: product.limitGrams ?? product.weightGrams ?? null,
    quantity,
  }
}

const limitOf = (limits: DailyLimits, limitClass: LimitClass) =>
  limitClass === 'flower' ? limits.flowerGrams : limits.concentrateGrams

/** The cart's lines with `product`'s own line raised by `adding` (added when it has none). */
function linesWith(product: Pick<ProductDoc, 'id'> & LimitFields, adding: number, room: DailyRoom) {
  const lines = room.cartLines.map((line) =>
    line.productId === product.id
      ? limitedLine(product, line.quantity + adding)
      : limitedLine(line.product, line.quantity),
  )
  if (!room.cartLines.some((line) => line.productId === product.id))
    lines.push(limitedLine(product, adding))
  return lines
}

export type AddRoom = {
  /** Why the product is never sold to a consumer (one unit above the limit), or null. */
  oversize: string | null
  /** How many more units fit today (Infinity for a product no limit counts). */
  fit: number
  /** The limit that bounds it, for the page to say so: "28.5 g of flower". */
  limitText: string | null
}

/** How much of `product` may still be added today. */
export function addRoom(product: Pick<ProductDoc, 'id'> & LimitFields, room: DailyRoom): AddRoom {
  const line = limitedLine(product, 1)
  const limitClass = line.limitClass
  if (!limitClass) return { oversize: null, fit: Infinity, limitText: null }
  const limit = limitOf(room.limits, limitClass)
  if (limit === null) return { oversize: null, fit: Infinity, limitText: null }
  if (unitOverLimit(line, room.limits))
    return {
      oversize: oversizeMessage(product.name, limitClass, line.unitGrams ?? 0, limit),
      fit: 0,
      limitText: null,
    }
  // What the cart holds now (this product's line counted with its current grams), over what
  // the day's orders hold; a line that can never be sold counts nothing here.
  const held = { ...room.heldToday }
  for (const other of linesWith(product, 0, room)) {
    if (!other.limitClass || unitOverLimit(other, room.limits)) continue
    held[other.limitClass] += (other.unitGrams ?? 0) * other.quantity
  }
  // As checkDailyLimits rounds an order's grams: 79 × 0.1 g is 7.9 g, not 7.900000000000006.
  held.flower = Math.round(held.flower * 1000) / 1000
  held.concentrate = Math.round(held.concentrate * 1000) / 1000
  return {
    oversize: null,
    fit: unitsThatFit(line, room.limits, held),
    limitText: `${Number(limit.toFixed(3))} g of ${limitClass}`,
  }
}

/**
 * Why adding `quantity` of `product` is refused, or null when it fits: the oversize text, or the
 * limit's message for the order the cart would then be ("Today's limit is 28.5 g of flower. This
 * order holds 31.5 g, 3 g over the limit.").
 */
export function addRefusal(
  product: Pick<ProductDoc, 'id'> & LimitFields,
  quantity: number,
  room: DailyRoom,
): string | null {
  const { oversize, fit } = addRoom(product, room)
  if (oversize) return oversize
  if (quantity <= fit) return null
  const limitClass = classOf(product.limitClass)!
  const sellable = linesWith(product, quantity, room).filter(
    (line) => !unitOverLimit(line, room.limits),
  )
  const { problems } = checkDailyLimits(sellable, room.limits, room.heldToday)
  return (
    problems.find((p) => p.includes(` g of ${limitClass}.`)) ??
    problems[0] ??
    `Today's limit leaves no room for more ${limitClass}.`
  )
}
