import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { badge, button } from 'styled-system/recipes'
import { ChevronLeftIcon, ChevronRightIcon } from '../../../ui/icons'
import type { AddToCart } from '../add-to-cart-toast'
import { useDeferredCatalogue } from '../hooks/use-deferred-catalogue'
import { useHighlightedProducts } from '../hooks/use-highlighted-products'
import { ProductCard, ProductCardSkeleton } from './product-card'
import { useSplashHold } from '../../../lib/splash-hold'

/** SPEC.md §9: 4 per page, pages move by 2, page count = ceil(products / 2), wrapping. */
const PER_PAGE = 4
const STEP = 2

const sectionHead = css({
  display: 'flex',
  alignItems: 'end',
  justifyContent: 'space-between',
  gap: '4',
  mb: '5',
  flexWrap: 'wrap',
})
const sectionTitle = css({
  fontFamily: 'heading',
  fontSize: { base: '2xl', md: '3xl' },
  fontWeight: 'bold',
})
const grid = css({
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
})
const arrow = css({
  display: 'grid',
  placeItems: 'center',
  w: '10',
  h: '10',
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  cursor: 'pointer',
  _hover: { bg: 'accent.solid', color: 'fg.onAccent', borderColor: 'accent.solid' },
})

function Skeletons() {
  return (
    <div className={grid} aria-busy="true" aria-label="Loading products">
      {Array.from({ length: 4 }, (_, i) => (
        <ProductCardSkeleton key={i} />
      ))}
    </div>
  )
}

// Both sections render from useDeferredCatalogue: a first visit's cards arrive in slices.

/** Home: "Featured Products", the catalogue's featured products in a wrapping carousel. */
export function FeaturedProducts({ onAdd }: { onAdd: AddToCart }) {
  const { value: products, sync } = useDeferredCatalogue(useHighlightedProducts('featured', 12))
  useSplashHold(!products, products?.length === 0 && !sync.done)
  const [page, setPage] = useState(0)
  const count = products?.length ?? 0
  const pages = Math.ceil(count / STEP)
  const paged = count > PER_PAGE
  const visible = products
    ? paged
      ? Array.from({ length: PER_PAGE }, (_, k) => products[(page * STEP + k) % count]!)
      : products
    : []

  return (
    <section aria-labelledby="featured-title" id="products" tabIndex={-1}>
      <div className={sectionHead}>
        <div>
          <h2 id="featured-title" className={sectionTitle}>
            Featured Products
          </h2>
          <p className={css({ color: 'fg.muted' })}>Hand-picked by our buyers this week.</p>
        </div>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
          {paged && (
            <>
              <button
                type="button"
                className={arrow}
                aria-label="Previous products"
                onClick={() => setPage((p) => (p - 1 + pages) % pages)}
              >
                <ChevronLeftIcon />
              </button>
              <span
                className={css({
                  fontSize: 'sm',
                  color: 'fg.muted',
                  minW: '12',
                  textAlign: 'center',
                })}
                aria-live="polite"
              >
                {page + 1} / {pages}
              </span>
              <button
                type="button"
                className={arrow}
                aria-label="Next products"
                onClick={() => setPage((p) => (p + 1) % pages)}
              >
                <ChevronRightIcon />
              </button>
            </>
          )}
        </div>
      </div>
      {!products || (count === 0 && !sync.done) ? (
        <Skeletons />
      ) : (
        <ul className={grid} aria-label="Featured products">
          {visible.map((product, k) => (
            <li key={`${product.id}-${k}`}>
              <ProductCard product={product} onAdd={onAdd} />
            </li>
          ))}
        </ul>
      )}
      <div className={css({ textAlign: 'center', mt: '6' })}>
        <Link
          to="/menu/$category"
          params={{ category: 'flower' }}
          className={button({ variant: 'outline' })}
        >
          View All Products
        </Link>
      </div>
    </section>
  )
}

/** Home: "Flash Deals", up to 4 products that are featured or on sale (SPEC.md §2, variant two). */
export function FlashDeals({ onAdd }: { onAdd: AddToCart }) {
  const { value: products, sync } = useDeferredCatalogue(useHighlightedProducts('deals', 4))
  useSplashHold(!products, products?.length === 0 && !sync.done)
  return (
    <section aria-labelledby="deals-title">
      <div className={sectionHead}>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
          <h2 id="deals-title" className={sectionTitle}>
            Flash Deals
          </h2>
          <span className={badge({ tone: 'dealSolid' })}>Limited time</span>
        </div>
        <Link
          to="/menu/$category"
          params={{ category: 'concentrates' }}
          className={css({ color: 'accent.fg', fontWeight: 'semibold', fontSize: 'sm', py: '1' })}
        >
          View all deals <span aria-hidden>→</span>
        </Link>
      </div>
      {!products || (products.length === 0 && !sync.done) ? (
        <Skeletons />
      ) : (
        <ul className={grid} aria-label="Flash deals">
          {products.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} onAdd={onAdd} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
