import { lazy, Suspense, useState } from 'react'
import { css } from 'styled-system/css'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import { SafeHtml } from '../../../ui/safe-html'
import { Tabs } from '../../../ui/tabs'
import { ProductDetailsTab } from './product-details'

// The reviews are read from the server when their tab is chosen; their code comes with them, so a
// product page that nobody turns to the Reviews tab never loads it.
const ProductReviews = lazy(
  importWhenReachable(() =>
    import('./product-reviews').then((m) => ({ default: m.ProductReviews })),
  ),
)

const prose = css({
  color: 'fg.default',
  lineHeight: 'relaxed',
  '& p': { mb: '3' },
  '& ul': { listStyle: 'disc', pl: '5', mb: '3' },
  '& ol': { listStyle: 'decimal', pl: '5', mb: '3' },
  '& li': { mb: '1' },
  '& a': { color: 'accent.fg', textDecoration: 'underline' },
  '& h2, & h3': { fontWeight: 'bold', mt: '4', mb: '2' },
})

/**
 * "1 review", "12 reviews". Here, with the page, and handed to the lazy Reviews panel: in a
 * module of its own it came as a request of its own, and beside the stars the menu paid for it.
 */
export const reviewCountText = (count: number) => `${count} ${count === 1 ? 'review' : 'reviews'}`

/** Until the reviews' code is there (or offline before it ever came): what the catalogue knows. */
function ReviewsWaiting({ product }: { product: ProductDoc }) {
  return (
    <p className={css({ py: '6', textAlign: 'center', color: 'fg.muted' })}>
      {product.reviewCount === 0 ? 'No reviews yet.' : 'Loading the reviews…'}
    </p>
  )
}

/** The product page's Description, Details & Effects and Reviews tabs. */
export function ProductTabs({ product }: { product: ProductDoc }) {
  const [reviewsChosen, setReviewsChosen] = useState(false)
  return (
    <section
      className={css({
        mt: '12',
        bg: 'bg.surface',
        borderRadius: 'lg',
        boxShadow: 'card',
        p: { base: '4', md: '8' },
      })}
    >
      <Tabs.Root
        defaultValue="description"
        onValueChange={({ value }) => value === 'reviews' && setReviewsChosen(true)}
      >
        <Tabs.List>
          <Tabs.Trigger value="description">Description</Tabs.Trigger>
          <Tabs.Trigger value="details">Details & Effects</Tabs.Trigger>
          <Tabs.Trigger value="reviews">Reviews</Tabs.Trigger>
          <Tabs.Indicator />
        </Tabs.List>
        <Tabs.Content value="description">
          <SafeHtml className={prose} html={product.description} />
        </Tabs.Content>
        <Tabs.Content value="details">
          <ProductDetailsTab product={product} />
        </Tabs.Content>
        <Tabs.Content value="reviews">
          {reviewsChosen ? (
            <Suspense fallback={<ReviewsWaiting product={product} />}>
              <ProductReviews product={product} countText={reviewCountText(product.reviewCount)} />
            </Suspense>
          ) : (
            <ReviewsWaiting product={product} />
          )}
        </Tabs.Content>
      </Tabs.Root>
    </section>
  )
}
