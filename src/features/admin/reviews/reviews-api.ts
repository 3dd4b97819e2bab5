/**
 * Shoppers' reviews as staff read them (issue 33, docs/decisions/056-real-reviews-or-none.md): `admin_reviews`, newest
 * first, in pages, hidden ones too with why and by whom; `admin_set_review_hidden` hides one with
 * a reason or shows it again (the server keeps the products' averages and audits both). Online
 * only: reviews are not copied to staff devices.
 */
import type { SupabaseClient } from '@supabase/supabase-js'

export type AdminReview = {
  id: string
  orderId: string
  productId: string
  productName: string | null
  productSlug: string | null
  rating: number
  body: string | null
  displayName: string | null
  createdAt: string
  hiddenAt: string | null
  hiddenReason: string | null
  hiddenBy: string | null
}

export type ReviewsCursor = { before: string; beforeId: string }
export type ReviewsPage = { rows: AdminReview[]; next: ReviewsCursor | null }

export async function fetchAdminReviews(
  supabase: SupabaseClient,
  cursor: ReviewsCursor | null = null,
): Promise<ReviewsPage> {
  const response = await supabase.rpc('admin_reviews', {
    p_limit: 100,
    ...(cursor ? { p_before: cursor.before, p_before_id: cursor.beforeId } : {}),
  })
  if (response.error) throw new Error(response.error.message)
  return response.data as ReviewsPage
}

export async function setReviewHidden(
  supabase: SupabaseClient,
  id: string,
  hidden: boolean,
  reason: string | null,
): Promise<void> {
  const response = await supabase.rpc('admin_set_review_hidden', {
    p_id: id,
    p_hidden: hidden,
    p_reason: reason,
  })
  if (response.error) throw new Error(response.error.message)
}
