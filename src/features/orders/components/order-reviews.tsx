import { useEffect, useId, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import type { OrderDoc } from '../../../data/schemas/order.schema'
import { reviewerName, type Review } from '../../../lib/reviews'
import { StarRating } from '../../../ui/star-rating'
import {
  fetchOrderReviews,
  REVIEW_BODY_MAX,
  REVIEW_NAME_MAX,
  submitReview,
  type ReviewInput,
} from '../order-reviews'

const card = css({ bg: 'bg.surface', borderRadius: 'lg', boxShadow: 'card', p: '6' })
const fieldLabel = css({ display: 'grid', gap: '1', fontSize: 'sm', fontWeight: 'medium' })
const control = css({
  px: '3',
  py: '2',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  fontSize: 'md',
  fontWeight: 'normal',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' },
})

type Send = (input: Omit<ReviewInput, 'orderId' | 'secret'>) => Promise<string | null>

/**
 * "Rate your products" on the order's page once the order was picked up or delivered (issue 33):
 * one form per product, stars 1–5 with an optional text and the name shown (their first name
 * offered), sent with the order's secret. What was reviewed shows as the review.
 */
export function OrderReviews({ order, online }: { order: OrderDoc; online: boolean }) {
  const data = useHumoData()
  const [reviews, setReviews] = useState<Review[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    if (!data.live || !online) return
    let cancelled = false
    void data
      .live()
      .then(({ rpc }) => fetchOrderReviews(rpc, order.id, order.secret))
      .then(
        (found) => !cancelled && setReviews(found),
        (e: unknown) => !cancelled && setError(e instanceof Error ? e.message : String(e)),
      )
    return () => {
      cancelled = true
    }
  }, [data, order.id, order.secret, online])

  const send: Send = async (input) => {
    if (!data.live) return 'Reviews need a connection. Connect to the internet and try again.'
    const { rpc } = await data.live()
    const answer = await submitReview(rpc, { ...input, orderId: order.id, secret: order.secret })
    if (!answer.ok) {
      // Reviewed already (another tab, another try): show the review the server holds.
      void fetchOrderReviews(rpc, order.id, order.secret).then(setReviews, () => undefined)
      return answer.message
    }
    setReviews((shown) => [...(shown ?? []), answer.review])
    return null
  }

  // One form per product, however many lines name it.
  const products = [...new Map(order.items.map((item) => [item.productId, item])).values()]
  return (
    <section aria-labelledby="order-reviews-title" className={card}>
      <h2
        id="order-reviews-title"
        className={css({ fontFamily: 'heading', fontSize: 'xl', fontWeight: 'bold', mb: '1' })}
      >
        Rate your products
      </h2>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '4' })}>
        Your review shows on the product’s page with the name you choose. One review per product of
        this order.
      </p>
      {!online && (
        <p role="status" className={css({ color: 'fg.muted', mb: '4' })}>
          You’re offline: reviews are sent online. Connect to rate these products.
        </p>
      )}
      {error && (
        <p role="status" className={css({ color: 'fg.muted', mb: '4' })}>
          {error}
        </p>
      )}
      <ul className={css({ display: 'grid', gap: '6' })}>
        {products.map((item) => {
          const review = reviews?.find((r) => r.productId === item.productId)
          return (
            <li key={item.productId}>
              {review ? (
                <LeftReview name={item.name} review={review} />
              ) : (
                <ReviewForm
                  productId={item.productId}
                  name={item.name}
                  firstName={order.customer.firstName}
                  disabled={!online || reviews === null}
                  onSend={send}
                />
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function LeftReview({ name, review }: { name: string; review: Review }) {
  return (
    <div className={css({ display: 'grid', gap: '1' })}>
      <p className={css({ fontWeight: 'semibold' })}>{name}</p>
      <p className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}>
        <StarRating rating={review.rating} />
        <span>
          Your review, as {reviewerName(review)}
          {review.hidden ? ' (hidden by the shop)' : ''}
        </span>
      </p>
      {review.body && <p className={css({ whiteSpace: 'pre-line' })}>{review.body}</p>}
    </div>
  )
}

function ReviewForm(props: {
  productId: string
  name: string
  firstName: string
  disabled: boolean
  onSend: Send
}) {
  const id = useId()
  const [rating, setRating] = useState(0)
  const [body, setBody] = useState('')
  const [displayName, setDisplayName] = useState(props.firstName.slice(0, REVIEW_NAME_MAX))
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string | null>(null)

  const submit = async () => {
    if (rating < 1) return setMessage('Choose from 1 to 5 stars.')
    setBusy(true)
    setMessage(null)
    try {
      const refused = await props.onSend({ productId: props.productId, rating, body, displayName })
      if (refused) setMessage(refused)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      noValidate
      aria-label={`Review ${props.name}`}
      className={css({ display: 'grid', gap: '3' })}
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <fieldset className={css({ display: 'grid', gap: '1' })}>
        <legend className={css({ fontWeight: 'semibold', mb: '1' })}>{props.name}</legend>
        <div
          role="radiogroup"
          aria-label={`Your rating for ${props.name}`}
          className={css({ display: 'flex' })}
        >
          {[1, 2, 3, 4, 5].map((n) => (
            <label
              key={n}
              className={css({
                position: 'relative',
                display: 'grid',
                placeItems: 'center',
                w: '11',
                h: '11',
                fontSize: '2xl',
                cursor: 'pointer',
                borderRadius: 'md',
                color: n <= rating ? 'deal.solid' : 'fg.subtle',
                _focusWithin: { outline: '2px solid', outlineColor: 'accent.fg' },
              })}
            >
              <input
                type="radio"
                name={`${id}-rating`}
                value={n}
                checked={rating === n}
                aria-label={n === 1 ? '1 star' : `${n} stars`}
                onChange={() => setRating(n)}
                // Over its star, unseen: the star is what is pressed, the radio what is read.
                className={css({
                  position: 'absolute',
                  inset: '0',
                  m: '0',
                  opacity: 0,
                  cursor: 'pointer',
                })}
              />
              <span aria-hidden="true">★</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label className={fieldLabel}>
        Your review (optional)
        <textarea
          className={cx(control, css({ minH: '20' }))}
          value={body}
          maxLength={REVIEW_BODY_MAX}
          onChange={(e) => setBody(e.target.value)}
        />
      </label>
      <label className={fieldLabel}>
        Name shown (optional)
        <input
          className={cx(control, css({ h: '11' }))}
          value={displayName}
          maxLength={REVIEW_NAME_MAX}
          autoComplete="given-name"
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </label>
      {message && (
        <p role="alert" className={css({ color: 'danger.fg', fontSize: 'sm' })}>
          {message}
        </p>
      )}
      <div>
        <button type="submit" className={button({ size: 'lg' })} disabled={busy || props.disabled}>
          Submit review
        </button>
      </div>
    </form>
  )
}
