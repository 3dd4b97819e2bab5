/**
 * A product's visible reviews from the server (get_product_reviews), newest first, in pages: the
 * product page's Reviews tab reads them online (issue 33, docs/decisions/056-real-reviews-or-none.md).
 */
import type { RpcClient } from '../../data/backend-client'
import { parseReviews, reviewErrorText, type Review } from '../../lib/reviews'

export type ReviewPage = {
  reviews: Review[]
  next: { before: string; beforeId: string } | null
}

/** A product's visible reviews, newest first (get_product_reviews). */
export async function fetchProductReviews(
  rpc: RpcClient,
  productId: string,
  next: ReviewPage['next'] = null,
): Promise<ReviewPage> {
  const answer = await rpc.rpc('get_product_reviews', {
    p_product_id: productId,
    ...(next ? { p_before: next.before, p_before_id: next.beforeId } : {}),
  })
  if (answer.error) throw new Error(reviewErrorText(answer.error))
  const data = answer.data as { rows?: unknown; next?: ReviewPage['next'] } | null
  const more = data?.next
  return {
    reviews: parseReviews(data?.rows),
    next:
      more && typeof more.before === 'string' && typeof more.beforeId === 'string' ? more : null,
  }
}
