import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { reviewerName } from '../../../lib/reviews'
import { fetchProductReviews, type ReviewPage } from '../product-reviews'
import { StarRating } from '../../../ui/star-rating'

/**
 * The reviews read this session, by product, with the count they were read at: a product page
 * opened again shows them at once, and reads them again only when the count has changed.
 */
const cache = new Map<string, { count: number; page: ReviewPage }>()

const when = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(iso))

/**
 * The product page's Reviews tab (issue 33, docs/decisions/056-real-reviews-or-none.md): the average and count of the visible
 * reviews (from the catalogue, so offline too) and the reviews themselves, read from the server
 * once the tab is on screen. No review: says so, and how one is left.
 */
export function ProductReviews({ product, countText }: { product: ProductDoc; countText: string }) {
  const data = useHumoData()
  const count = product.reviewCount
  // Another copy of this panel (the tabs' markup swapped for Ark UI's remounts it) may have read
  // them already: the cache is read at every render, not only the first.
  const cached = cache.get(product.id)
  const [loaded, setLoaded] = useState<{ count: number; page: ReviewPage } | null>(null)
  const page = loaded?.count === count ? loaded.page : cached?.count === count ? cached.page : null
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [visible, setVisible] = useState(false)
  const anchor = useRef<HTMLDivElement>(null)

  // The panel is hidden until its tab is chosen: read the reviews only once it is shown.
  useEffect(() => {
    const element = anchor.current
    if (!element || count === 0) return
    if (typeof IntersectionObserver === 'undefined') return setVisible(true)
    // A hidden panel never intersects; a shown one is read though it starts below the fold.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setVisible(true)
      },
      { rootMargin: '0px 0px 300% 0px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [count])

  const load = async (next: ReviewPage['next']) => {
    if (!data.live) return
    setBusy(true)
    setError(null)
    try {
      const { rpc } = await data.live()
      const more = await fetchProductReviews(rpc, product.id, next)
      const merged = next && page ? { ...more, reviews: [...page.reviews, ...more.reviews] } : more
      cache.set(product.id, { count, page: merged })
      setLoaded({ count, page: merged })
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  const missing = page === null
  useEffect(() => {
    if (!visible || count === 0 || !missing) return
    if (!navigator.onLine) {
      setError('You’re offline: the reviews are read online. Connect to see them.')
      return
    }
    void load(null)
    // `load` is this render's; the reviews are read again when the count changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [visible, count, missing, product.id])

  if (count === 0) {
    return (
      <div className={css({ py: '6', display: 'grid', gap: '2', textAlign: 'center' })}>
        <p className={css({ fontWeight: 'semibold' })}>No reviews yet.</p>
        <p className={css({ color: 'fg.muted' })}>
          Shoppers who picked up or received this product can review it from their order’s page.
        </p>
      </div>
    )
  }

  return (
    <div ref={anchor} className={css({ display: 'grid', gap: '4', py: '2' })}>
      <p
        className={css({ display: 'flex', alignItems: 'center', gap: '2', fontWeight: 'semibold' })}
      >
        <StarRating rating={product.rating} size={22} />
        {product.rating.toFixed(1)} out of 5 · {countText}
      </p>
      {error && (
        <p role="status" className={css({ color: 'fg.muted' })}>
          {error}
        </p>
      )}
      {!page && !error && <p className={css({ color: 'fg.muted' })}>Loading the reviews…</p>}
      {page && (
        <ul aria-label="Reviews" className={css({ display: 'grid', gap: '4' })}>
          {page.reviews.map((review) => (
            <li
              key={review.id}
              className={css({ borderTopWidth: '1px', borderColor: 'border.subtle', pt: '3' })}
            >
              <p
                className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}
              >
                <StarRating rating={review.rating} />
                <span className={css({ fontWeight: 'semibold' })}>{reviewerName(review)}</span>
                <span className={css({ color: 'fg.muted' })}>{when(review.createdAt)}</span>
              </p>
              {review.body && (
                <p className={css({ mt: '1', whiteSpace: 'pre-line' })}>{review.body}</p>
              )}
            </li>
          ))}
        </ul>
      )}
      {page?.next && (
        <button
          type="button"
          className={button({ variant: 'outline' })}
          disabled={busy}
          onClick={() => void load(page.next)}
        >
          Show more reviews
        </button>
      )}
    </div>
  )
}
