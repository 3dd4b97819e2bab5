/**
 * Potency the way California labels it (issue 31, docs/decisions/051-california-taxes-and-daily-limits.md): edibles, drinks, tinctures and
 * capsules state milligrams of THC and CBD per package and per serving; flower and concentrates a
 * percentage with one decimal (SPEC.md §9). Which one follows from the product's own fields: a
 * product with milligrams (thcMg or cbdMg) is labelled in milligrams, whatever its category, and
 * its package weight (the 50 g of a bag of gummies, the 355 g of a can) is no potency and no size
 * a shopper buys by, so it shows only as a net weight.
 */
import type { ProductDoc } from '../../data/schemas/product.schema'

export type PotencyFields = Pick<ProductDoc, 'thc' | 'cbd' | 'thcMg' | 'cbdMg' | 'servings'> &
  Partial<Pick<ProductDoc, 'isCannabis'>>

/** Whether the product states milligrams (then its percentages and weight are not potency). */
export const labelledInMg = (product: Pick<ProductDoc, 'thcMg' | 'cbdMg'>): boolean =>
  product.thcMg != null || product.cbdMg != null

/** "100 mg", "2.5 mg", "3.33 mg": at most two decimals, no trailing zeros. */
export const mgText = (mg: number): string => `${Number(mg.toFixed(2))} mg`

/** THC/CBD with one decimal (SPEC.md §9). */
export const percentLabel = (value: number | null | undefined): string =>
  `${(value ?? 0).toFixed(1)}%`

export type Potency = {
  label: 'THC' | 'CBD'
  /** "100 mg" or "24.6%". */
  amount: string
  /** "per package · 10 mg per serving", "per package", or '' for a percentage. */
  detail: string
}

function mgPotency(label: Potency['label'], mg: number, servings: number | null | undefined) {
  const perServing =
    servings && servings >= 1 && Number.isInteger(servings) ? mgText(mg / servings) : null
  return {
    label,
    amount: mgText(mg),
    detail: perServing ? `per package · ${perServing} per serving` : 'per package',
  }
}

/**
 * The product's potency lines. In milligrams: THC whenever it is stated, CBD when there is some.
 * In percent: THC and CBD on the product page; on a card (`card`), THC alone when above zero, as
 * the card always showed it (a card is one line of facts: a taller one would not fit its row).
 * Merchandise (not cannabis) has none.
 */
export function potencyOf(product: PotencyFields, card = false): Potency[] {
  if (product.isCannabis === false) return []
  if (labelledInMg(product)) {
    const lines: Potency[] = []
    if (product.thcMg != null) lines.push(mgPotency('THC', product.thcMg, product.servings))
    if (product.cbdMg) lines.push(mgPotency('CBD', product.cbdMg, product.servings))
    return lines
  }
  if (card)
    return (product.thc ?? 0) > 0
      ? [{ label: 'THC', amount: percentLabel(product.thc), detail: '' }]
      : []
  return [
    { label: 'THC', amount: percentLabel(product.thc), detail: '' },
    { label: 'CBD', amount: percentLabel(product.cbd), detail: '' },
  ]
}

/** "THC 100 mg per package · 10 mg per serving", "THC 24.6%". */
export const potencyText = (line: Potency): string =>
  [line.label, line.amount, line.detail].filter(Boolean).join(' ')

/** "3.5g", "28g"; nothing when the weight is unknown. */
export function weightLabel(grams: number | null | undefined): string | null {
  if (!grams) return null
  return `${Number.isInteger(grams) ? grams : Number(grams.toFixed(2))}g`
}

/**
 * The size a shopper buys by, next to the price: the weight of flower or a concentrate; nothing
 * for a product labelled in milligrams (its weight is only the package's, shown as a net weight).
 */
export const sizeLabel = (product: Pick<ProductDoc, 'thcMg' | 'cbdMg' | 'weightGrams'>) =>
  labelledInMg(product) ? null : weightLabel(product.weightGrams)

/** "Net wt. 50 g" of a product labelled in milligrams. */
export const netWeightText = (grams: number | null | undefined): string | null =>
  grams ? `${Number(grams.toFixed(2))} g` : null

/** A card's line of facts: its potency (potencyOf's card form), then its size. */
export function cardFacts(
  product: PotencyFields & Pick<ProductDoc, 'weightGrams' | 'isCannabis'>,
): string[] {
  const size = sizeLabel(product)
  return [...potencyOf(product, true).map(potencyText), ...(size ? [size] : [])]
}

/** Pixels of a character of the card's extra-small text, on the generous side. */
const CARD_CHAR_PX = 7

/**
 * How many lines a card's facts take in `width` pixels of text: an estimate (slightly high) for
 * the menu's rows, whose height is guessed before they are laid out.
 */
export function cardFactsLines(facts: readonly string[], width: number): number {
  const perLine = Math.max(8, Math.floor(width / CARD_CHAR_PX))
  let lines = 1
  let used = 0
  for (const item of facts) {
    // Each item starts after a gap, or on a new line when it does not fit beside the last.
    if (used > 0 && used + 1 + item.length > perLine) {
      lines++
      used = 0
    } else if (used > 0) used += 1
    const total = used + item.length
    lines += Math.floor((total - 1) / perLine)
    used = total % perLine || perLine
  }
  return lines
}
