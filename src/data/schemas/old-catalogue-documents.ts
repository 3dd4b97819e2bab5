/**
 * Documents a device stored before issue 31's fields (docs/decisions/051-california-taxes-and-daily-limits.md), carried over to today's
 * schemas with what the server's backfill (migration 20261128100100_cannabis_product_facts) gives
 * them: whether a product is cannabis and which daily limit it counts toward, by its category
 * and type, until the next pull brings the shop's own facts. Loaded only when there is such a
 * document to carry over.
 */

/** A product of schema version 0 as version 1. */
export function productVersion1(old: Record<string, unknown>): Record<string, unknown> {
  const category = typeof old.categorySlug === 'string' ? old.categorySlug : ''
  const type = String((old.productType as { name?: string } | null)?.name ?? '')
  const merchandise = category === 'branded-bags' || type === 'Packaging'
  const limitClass = merchandise
    ? null
    : category === 'flower' || type === 'Bulk Flower'
      ? 'flower'
      : category === 'concentrates' || type === 'Bulk Concentrates'
        ? 'concentrate'
        : null
  return {
    ...old,
    isCannabis: !merchandise,
    limitClass,
    limitGrams: limitClass ? (old.weightGrams ?? null) : null,
    thcMg: null,
    cbdMg: null,
    servings: null,
  }
}

/** A cart line of schema version 0 as version 1. */
export function cartLineVersion1(
  old: { product?: Record<string, unknown> } & Record<string, unknown>,
): Record<string, unknown> {
  const product = old.product ?? {}
  const category = typeof product.categorySlug === 'string' ? product.categorySlug : ''
  const limitClass =
    category === 'flower' ? 'flower' : category === 'concentrates' ? 'concentrate' : null
  return {
    ...old,
    product: {
      ...product,
      isCannabis: category !== 'branded-bags',
      limitClass,
      limitGrams: limitClass ? ((product.weightGrams as number | null) ?? null) : null,
    },
  }
}
