/**
 * California's per-order purchase limits for adult-use customers (DESIGN.md §9): 28.5 g of
 * non-concentrated cannabis (flower, pre-rolls) and 8 g of concentrate. The cart and checkout show
 * them before the order is sent; `place_order` enforces the same numbers on the server.
 *
 * Wholesale items are sold to licensed retailers, not to consumers, so they are not counted
 * (docs/decisions/003).
 */
export const FLOWER_LIMIT_GRAMS = 28.5
export const CONCENTRATE_LIMIT_GRAMS = 8

export type LimitKind = 'flower' | 'concentrate'

export type LimitedLine = {
  categorySlug: string
  weightGrams: number | null | undefined
  quantity: number
}

export function limitKindOf(categorySlug: string): LimitKind | null {
  if (categorySlug === 'flower') return 'flower'
  if (categorySlug === 'concentrates') return 'concentrate'
  return null
}

export type LimitUsage = {
  flowerGrams: number
  concentrateGrams: number
  /** One message per limit exceeded, ready to show. */
  problems: string[]
}

const grams = (value: number) => Math.round(value * 100) / 100

export function checkPurchaseLimits(lines: readonly LimitedLine[]): LimitUsage {
  let flowerGrams = 0
  let concentrateGrams = 0
  for (const line of lines) {
    const kind = limitKindOf(line.categorySlug)
    const weight = (line.weightGrams ?? 0) * line.quantity
    if (kind === 'flower') flowerGrams += weight
    if (kind === 'concentrate') concentrateGrams += weight
  }
  flowerGrams = grams(flowerGrams)
  concentrateGrams = grams(concentrateGrams)
  const problems: string[] = []
  if (flowerGrams > FLOWER_LIMIT_GRAMS)
    problems.push(
      `California allows at most ${FLOWER_LIMIT_GRAMS} g of flower per order; this order has ${flowerGrams} g.`,
    )
  if (concentrateGrams > CONCENTRATE_LIMIT_GRAMS)
    problems.push(
      `California allows at most ${CONCENTRATE_LIMIT_GRAMS} g of concentrate per order; this order has ${concentrateGrams} g.`,
    )
  return { flowerGrams, concentrateGrams, problems }
}
