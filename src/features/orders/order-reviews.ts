/**
 * Reviews from the shopper's order page (issue 33, docs/decisions/056-real-reviews-or-none.md): the order's secret, which only
 * the device that placed it holds, proves the purchase. The server checks the handoff, that the
 * product is in the order and that it is reviewed once; its refusals are shown as it words them.
 * Online only: nothing is queued on the device.
 */
import type { RpcClient } from '../../data/backend-client'
import { parseReviews, reviewErrorText, type Review } from '../../lib/reviews'

export const REVIEW_BODY_MAX = 1000
export const REVIEW_NAME_MAX = 40

/** The reviews this order's shopper left (hidden ones marked). */
export async function fetchOrderReviews(
  rpc: RpcClient,
  orderId: string,
  secret: string,
): Promise<Review[]> {
  const answer = await rpc.rpc('get_order_reviews', { p_order_id: orderId, p_secret: secret })
  if (answer.error) throw new Error(reviewErrorText(answer.error))
  return parseReviews(answer.data)
}

export type ReviewInput = {
  orderId: string
  secret: string
  productId: string
  rating: number
  body: string
  displayName: string
}

export type ReviewAnswer = { ok: true; review: Review } | { ok: false; message: string }

export async function submitReview(rpc: RpcClient, input: ReviewInput): Promise<ReviewAnswer> {
  let answer
  try {
    answer = await rpc.rpc('submit_product_review', {
      p_order_id: input.orderId,
      p_secret: input.secret,
      p_product_id: input.productId,
      p_rating: input.rating,
      p_body: input.body.trim() || null,
      p_display_name: input.displayName.trim() || null,
    })
  } catch (error) {
    return { ok: false, message: reviewErrorText(error as { message?: string }) }
  }
  if (answer.error) return { ok: false, message: reviewErrorText(answer.error) }
  const [review] = parseReviews([answer.data])
  return review
    ? { ok: true, review }
    : { ok: false, message: 'Something went wrong. Please try again.' }
}
