import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { reviewerName } from '../../../lib/reviews'
import { Button } from '../../../ui/button'
import { StarRating } from '../../../ui/star-rating'
import { toaster } from '../../../ui/toaster'
import { shopDateTime } from '../admin-time'
import { card, errorBox, fieldLabel, muted } from '../components/admin-styles'
import { useOnline } from '../hooks/use-online'
import {
  fetchAdminReviews,
  setReviewHidden,
  type AdminReview,
  type ReviewsCursor,
} from './reviews-api'

export const REVIEWS_OFFLINE =
  'You are offline. Reviews are read from the server (they are not kept on this device); they show again once you are back online.'

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * Admin > Reviews, for owners and managers (issue 33): every review shoppers left, newest first,
 * with its product and order; hiding one asks why (shoppers no longer see it, and the product's
 * average and count leave it out), and a hidden one can be shown again. Online only.
 */
export function ReviewsTab({ supabase }: { supabase: SupabaseClient | null }) {
  const online = useOnline()
  const [rows, setRows] = useState<AdminReview[] | null>(null)
  const [next, setNext] = useState<ReviewsCursor | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const load = useCallback(
    async (cursor: ReviewsCursor | null) => {
      if (!supabase) return
      setBusy(true)
      setError(null)
      try {
        const page = await fetchAdminReviews(supabase, cursor)
        setRows((shown) => (cursor ? [...(shown ?? []), ...page.rows] : page.rows))
        setNext(page.next)
      } catch (e) {
        setError(errorText(e))
      } finally {
        setBusy(false)
      }
    },
    [supabase],
  )

  useEffect(() => {
    if (online && supabase) void load(null)
  }, [online, supabase, load])

  const change = async (review: AdminReview, hidden: boolean, reason: string | null) => {
    if (!supabase) return false
    try {
      await setReviewHidden(supabase, review.id, hidden, reason)
      toaster.create({
        type: 'success',
        title: hidden ? 'Review hidden' : 'Review shown again',
        description: review.productName ?? undefined,
      })
      await load(null)
      return true
    } catch (e) {
      setError(errorText(e))
      return false
    }
  }

  if (!online) {
    return (
      <p role="status" className={cx(card, muted, css({ p: '5' }))}>
        {REVIEWS_OFFLINE}
      </p>
    )
  }

  return (
    <section aria-label="Reviews" className={cx(card, css({ display: 'grid', gap: '4', p: '5' }))}>
      <p className={muted}>
        Reviews left by shoppers from their picked-up or delivered orders. A hidden review is not
        shown and does not count in the product’s rating.
      </p>
      {error && (
        <p role="alert" className={errorBox}>
          {error}
        </p>
      )}
      {!rows ? (
        <p className={muted}>Loading the reviews…</p>
      ) : rows.length === 0 ? (
        <p className={muted}>No reviews yet.</p>
      ) : (
        <ul aria-label="Reviews list" className={css({ display: 'grid', gap: '3' })}>
          {rows.map((review) => (
            <ReviewItem key={review.id} review={review} onChange={change} />
          ))}
        </ul>
      )}
      {next && (
        <Button type="button" variant="outline" disabled={busy} onClick={() => void load(next)}>
          Show older reviews
        </Button>
      )}
    </section>
  )
}

function ReviewItem({
  review,
  onChange,
}: {
  review: AdminReview
  onChange: (review: AdminReview, hidden: boolean, reason: string | null) => Promise<boolean>
}) {
  const [hiding, setHiding] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const hidden = review.hiddenAt !== null
  const product = review.productName ?? 'A removed product'

  const run = async (hide: boolean) => {
    if (hide && !reason.trim()) return setProblem('Say why the review is hidden.')
    setBusy(true)
    setProblem(null)
    const done = await onChange(review, hide, hide ? reason.trim() : null)
    setBusy(false)
    if (done) setHiding(false)
  }

  return (
    <li
      aria-label={`Review of ${product} by ${reviewerName(review)}`}
      className={css({
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'md',
        display: 'grid',
        gap: '2',
        p: '4',
        opacity: hidden ? 0.75 : 1,
      })}
    >
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' })}>
        <StarRating rating={review.rating} />
        <span className={css({ fontWeight: 'semibold' })}>{product}</span>
        <span className={muted}>
          {reviewerName(review)} · {shopDateTime(review.createdAt)} · order #
          {review.orderId.slice(0, 8).toUpperCase()}
        </span>
      </div>
      {review.body ? (
        <p className={css({ whiteSpace: 'pre-line' })}>{review.body}</p>
      ) : (
        <p className={muted}>No text, stars only.</p>
      )}
      {hidden && (
        <p className={css({ color: 'danger.fg', fontSize: 'sm' })}>
          Hidden: {review.hiddenReason}
          {review.hiddenBy ? ` (by ${review.hiddenBy}, ${shopDateTime(review.hiddenAt)})` : ''}
        </p>
      )}
      {problem && (
        <p role="alert" className={errorBox}>
          {problem}
        </p>
      )}
      {hidden ? (
        <div>
          <Button type="button" variant="outline" disabled={busy} onClick={() => void run(false)}>
            Show again
          </Button>
        </div>
      ) : hiding ? (
        <form
          noValidate
          className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'end', gap: '2' })}
          onSubmit={(e) => {
            e.preventDefault()
            void run(true)
          }}
        >
          <div className={css({ flex: '1', minW: '48' })}>
            <label htmlFor={`hide-reason-${review.id}`} className={fieldLabel}>
              Why hide it?
            </label>
            <input
              id={`hide-reason-${review.id}`}
              className={input()}
              value={reason}
              maxLength={300}
              onChange={(e) => setReason(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={busy}>
            Hide review
          </Button>
          <Button type="button" variant="outline" onClick={() => setHiding(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <div>
          <Button type="button" variant="outline" onClick={() => setHiding(true)}>
            Hide
          </Button>
        </div>
      )}
    </li>
  )
}
