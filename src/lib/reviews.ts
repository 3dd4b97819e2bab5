/**
 * Reviews as the shop shows them (issue 33, docs/decisions/056-real-reviews-or-none.md): the server's review objects checked
 * field by field, and the words for a product's rating. A product shows a rating only when it has
 * at least one visible review; its average and count come with the catalogue (products.rating and
 * review_count, kept by the server).
 */
export type Review = {
  id: string
  productId: string
  rating: number
  body: string | null
  displayName: string | null
  createdAt: string
  /** Only on the order's own page: staff hid it (the shopper still sees what they wrote). */
  hidden?: boolean
}

/** Whose review it is, as shown: the name they chose, or that they bought it. */
export const reviewerName = (review: Pick<Review, 'displayName'>) =>
  review.displayName ?? 'Verified buyer'

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/** The reviews in an answer, leaving out anything that is not one. */
export function parseReviews(value: unknown): Review[] {
  if (!Array.isArray(value)) return []
  const reviews: Review[] = []
  for (const item of value as unknown[]) {
    if (!item || typeof item !== 'object') continue
    const r = item as Record<string, unknown>
    const id = text(r.id)
    const productId = text(r.productId)
    const createdAt = text(r.createdAt)
    const rating = typeof r.rating === 'number' ? r.rating : NaN
    if (!id || !productId || !createdAt || !(rating >= 1 && rating <= 5)) continue
    reviews.push({
      id,
      productId,
      rating,
      body: text(r.body),
      displayName: text(r.displayName),
      createdAt,
      ...(typeof r.hidden === 'boolean' ? { hidden: r.hidden } : {}),
    })
  }
  return reviews
}

/** A refused or failed call in words: the server's own message, or what the shopper can do. */
export function reviewErrorText(error: { message?: string; code?: string } | null): string {
  const message = error?.message ?? ''
  if (!error?.code && /fetch|network/i.test(message))
    return 'Reviews need a connection. Connect to the internet and try again.'
  return message || 'Something went wrong. Please try again.'
}
