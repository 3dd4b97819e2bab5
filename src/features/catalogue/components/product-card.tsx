import { Link } from '@tanstack/react-router'
import { memo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { badge, button } from 'styled-system/recipes'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { formatMoney, roundMoney, salePercent } from '../../../lib/money'
import { HeartIcon, PlusIcon } from '../../../ui/icons'
import { StarRating } from '../../../ui/star-rating'
import { useHumoData } from '../../../data/data-context'
import type { AddToCart } from '../add-to-cart-toast'
import { useWishlist } from '../hooks/use-wishlist'
import { cardFacts } from '../potency'
import { stockLevel, stockWords } from '../product-media'
import { CardMedia, raised } from './card-media'

/** The word on the sale ribbon, after the shop's "Rollbacks" deals. */
export const SALE_CAMPAIGN = 'Rollback'

const STOCK_TONE = { unlimited: 'accent', plenty: 'accent', low: 'deal', out: 'danger' } as const

/**
 * A product on the menu (SPEC.md §2 "Product card"): media with video preview, badges, brand,
 * strain type, name, potency (THC in percent, or milligrams per package and per serving for
 * edibles and drinks) and weight, stars, price with "You save", the wishlist heart, Quick Add and
 * the round add button (only in stock, and only what fits today's daily limit), the out-of-stock
 * overlay and the sale ribbon.
 * Memoised: the lists around it re-render when the sync state changes (a pull starting or
 * ending), which must not re-render every card of the page with the same product.
 */
export const ProductCard = memo(function ProductCard({
  product,
  onAdd,
  layout = 'grid',
  priority = false,
}: {
  product: ProductDoc
  onAdd: AddToCart
  layout?: 'grid' | 'list'
  /** Above the fold on load (the grid's first row). */
  priority?: boolean
}) {
  const [wished, toggleWish] = useWishlist(product.id)
  const level = stockLevel(product)
  const available = level !== 'out'
  const percent = salePercent(product.price, product.originalPrice)
  const saving =
    product.originalPrice && product.originalPrice > product.price
      ? roundMoney(product.originalPrice - product.price)
      : 0
  const onSale = product.isOnSale || percent > 0
  // Milligrams per package for edibles and drinks, a percentage for flower (potency.ts).
  const facts = cardFacts(product)
  const { db } = useHumoData()
  // Only what fits today's daily limit (add-limits.ts), read when pressed; its code loads then.
  // Offline before the service worker holds it, the add goes ahead: the cart and the server still
  // check the limit.
  const add = () =>
    void import('../daily-room').then(
      (m) => m.addFromCard(onAdd, product, db),
      () => onAdd(product),
    )
  const [hovered, setHovered] = useState(false)

  return (
    <article
      aria-label={product.name}
      onPointerEnter={(event) => event.pointerType === 'mouse' && setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      className={cx(
        'group',
        css({
          position: 'relative',
          h: 'full',
          bg: 'bg.surface',
          borderRadius: 'lg',
          boxShadow: 'card',
          overflow: 'hidden',
          display: 'flex',
          flexDirection: layout === 'list' ? 'row' : 'column',
          gap: layout === 'list' ? '4' : '0',
          p: layout === 'list' ? '3' : '0',
          transition: 'box-shadow 0.2s, transform 0.2s',
          _hover: { boxShadow: 'raised' },
        }),
      )}
    >
      <div className={css({ position: 'relative', flexShrink: 0 })}>
        <CardMedia product={product} layout={layout} hovered={hovered} priority={priority} />
        {onSale && percent > 0 && (
          <span
            className={css({
              position: 'absolute',
              top: '3',
              left: '0',
              bg: 'deal.solid',
              color: 'fg.onAccent',
              fontSize: 'xs',
              fontWeight: 'bold',
              textTransform: 'uppercase',
              letterSpacing: 'wide',
              pl: '2.5',
              pr: '3',
              py: '1',
              borderRightRadius: 'full',
              boxShadow: 'card',
              zIndex: '1',
            })}
          >
            {SALE_CAMPAIGN}
            <span
              className={css({
                ml: '1',
                display: { base: 'inline', md: 'none' },
                _groupHover: { display: 'inline' },
                _groupFocusWithin: { display: 'inline' },
              })}
            >
              −{percent}%
            </span>
          </span>
        )}
        <button
          type="button"
          aria-pressed={wished}
          aria-label={
            wished ? `Remove ${product.name} from wishlist` : `Add ${product.name} to wishlist`
          }
          onClick={toggleWish}
          className={cx(
            raised,
            css({
              position: 'absolute',
              top: '2',
              right: '2',
              display: 'grid',
              placeItems: 'center',
              w: '9',
              h: '9',
              borderRadius: 'full',
              bg: 'bg.surface',
              boxShadow: 'card',
              cursor: 'pointer',
              color: wished ? 'danger.solid' : 'fg.muted',
              _hover: { color: 'danger.solid' },
            }),
          )}
        >
          <HeartIcon size={18} fill={wished ? 'currentColor' : 'none'} />
        </button>
        {!available && (
          <div
            className={css({
              position: 'absolute',
              inset: '0',
              display: 'grid',
              placeItems: 'center',
              bg: 'bg.overlay',
              zIndex: '1',
              pointerEvents: 'none',
            })}
          >
            <span
              className={css({
                bg: 'bg.surface',
                color: 'fg.default',
                px: '4',
                py: '1.5',
                borderRadius: 'full',
                fontWeight: 'bold',
                fontSize: 'sm',
              })}
            >
              Out of Stock
            </span>
          </div>
        )}
        {available && layout === 'grid' && (
          <button
            type="button"
            onClick={add}
            aria-label={`Quick Add ${product.name}`}
            className={cx(
              raised,
              button({ size: 'sm', variant: 'light' }),
              css({
                position: 'absolute',
                left: '50%',
                bottom: '3',
                transform: 'translate(-50%, 8px)',
                opacity: 0,
                boxShadow: 'raised',
                display: { base: 'none', md: 'inline-flex' },
                transition: 'opacity 0.2s, transform 0.2s',
                _groupHover: { opacity: 1, transform: 'translate(-50%, 0)' },
                _focusVisible: { opacity: 1, transform: 'translate(-50%, 0)' },
              }),
            )}
          >
            Quick Add
          </button>
        )}
      </div>

      <div
        className={css({
          display: 'flex',
          flexDirection: 'column',
          gap: '1.5',
          p: layout === 'list' ? '0' : '4',
          flex: '1',
          minW: '0',
        })}
      >
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })}>
          {product.isOnSale && <span className={badge({ tone: 'dealSolid' })}>Sale</span>}
          {product.isFeatured && <span className={badge({ tone: 'solid' })}>Featured</span>}
          <span className={badge({ tone: STOCK_TONE[level] })}>{stockWords(product)}</span>
        </div>
        <p
          className={css({
            fontSize: 'xs',
            color: 'fg.subtle',
            textTransform: 'uppercase',
            letterSpacing: 'wider',
            truncate: true,
          })}
        >
          {product.brand?.name ?? 'Humo'}
          {product.productType?.name && (
            <>
              {' · '}
              <span className={css({ color: 'accent.fg', fontWeight: 'semibold' })}>
                {product.productType.name}
              </span>
            </>
          )}
        </p>
        <h3
          className={css({
            fontWeight: 'semibold',
            fontSize: 'md',
            lineHeight: 'snug',
            lineClamp: '2',
          })}
        >
          <Link
            to="/product/$slug"
            params={{ slug: product.slug }}
            className={css({
              textDecoration: 'none',
              _after: { content: '""', position: 'absolute', inset: '0', zIndex: '1' },
              _focusVisible: {
                outline: 'none',
                // Drawn inside the card: the card clips what is outside it (WCAG 2.4.7).
                _after: {
                  outline: '3px solid',
                  outlineColor: 'focusRing',
                  outlineOffset: '-3px',
                  borderRadius: 'lg',
                },
              },
            })}
          >
            {product.name}
          </Link>
        </h3>
        <p
          className={css({
            display: 'flex',
            flexWrap: 'wrap',
            columnGap: '2',
            fontSize: 'xs',
            color: 'fg.muted',
          })}
        >
          {facts.map((fact) => (
            <span key={fact}>{fact}</span>
          ))}
        </p>
        {/* Only real reviews: a product with none shows no rating (docs/decisions/056-real-reviews-or-none.md). */}
        {product.reviewCount > 0 && (
          <p
            className={css({
              display: 'flex',
              alignItems: 'center',
              gap: '1.5',
              fontSize: 'xs',
              color: 'fg.muted',
            })}
          >
            <StarRating rating={product.rating} />({product.reviewCount})
          </p>
        )}
        <div
          className={css({
            mt: 'auto',
            pt: '2',
            display: 'flex',
            alignItems: 'flex-end',
            justifyContent: 'space-between',
            gap: '2',
          })}
        >
          <div>
            <p
              className={css({
                display: 'flex',
                alignItems: 'baseline',
                gap: '2',
                flexWrap: 'wrap',
              })}
            >
              <span
                className={css({
                  fontSize: 'lg',
                  fontWeight: 'bold',
                  color: saving ? 'deal.fg' : 'fg.default',
                })}
              >
                {formatMoney(product.price)}
              </span>
              {saving > 0 && (
                <s
                  className={css({ fontSize: 'sm', color: 'fg.subtle' })}
                  aria-label={`was ${formatMoney(product.originalPrice)}`}
                >
                  {formatMoney(product.originalPrice)}
                </s>
              )}
            </p>
            {saving > 0 && (
              <p className={css({ fontSize: 'xs', color: 'deal.fg', fontWeight: 'semibold' })}>
                You save {formatMoney(saving)}
              </p>
            )}
          </div>
          {available && (
            <button
              type="button"
              onClick={add}
              aria-label={`Add ${product.name} to cart`}
              className={cx(
                raised,
                css({
                  display: 'grid',
                  placeItems: 'center',
                  w: '10',
                  h: '10',
                  flexShrink: 0,
                  borderRadius: 'full',
                  bg: 'accent.solid',
                  color: 'fg.onAccent',
                  cursor: 'pointer',
                  _hover: { bg: 'accent.solidHover' },
                  _focusVisible: {
                    outline: '2px solid',
                    outlineColor: 'accent.fg',
                    outlineOffset: '2px',
                  },
                }),
              )}
            >
              <PlusIcon size={20} />
            </button>
          )}
        </div>
      </div>
    </article>
  )
})

/** The card's shape while the catalogue is still arriving. */
export function ProductCardSkeleton() {
  return (
    <div
      aria-hidden
      className={css({
        bg: 'bg.surface',
        borderRadius: 'lg',
        boxShadow: 'card',
        overflow: 'hidden',
      })}
    >
      <div
        className={css({
          aspectRatio: 'square',
          bg: 'bg.muted',
          animation: 'pulse 1.4s ease-in-out infinite',
        })}
      />
      <div className={css({ p: '4', display: 'grid', gap: '2' })}>
        {['40%', '85%', '60%', '35%'].map((w) => (
          <div
            key={w}
            className={css({
              h: '3',
              bg: 'bg.muted',
              borderRadius: 'sm',
              animation: 'pulse 1.4s ease-in-out infinite',
            })}
            style={{ width: w }}
          />
        ))}
      </div>
    </div>
  )
}
