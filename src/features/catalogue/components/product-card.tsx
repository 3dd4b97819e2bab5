import { Link } from '@tanstack/react-router'
import { memo, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { badge, button } from 'styled-system/recipes'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { formatMoney, roundMoney, salePercent } from '../../../lib/money'
import { HeartIcon, PlayIcon, PlusIcon } from '../../../ui/icons'
import { StarRating } from '../../../ui/star-rating'
import { addWithToast, type AddToCart } from '../add-to-cart-toast'
import { useLowBattery } from '../hooks/use-device-conditions'
import { useMediaUrl } from '../../../data/hooks/use-media-url'
import { useWishlist } from '../hooks/use-wishlist'
import { firstVideo, percentLabel, primaryImage, stockLevel, weightLabel } from '../product-media'
import { ProductVideo } from './product-video'

/** The word on the sale ribbon, after the shop's "Rollbacks" deals. */
export const SALE_CAMPAIGN = 'Rollback'

const STOCK_BADGE = {
  unlimited: { text: 'In Stock', tone: 'accent' },
  plenty: { text: 'In Stock', tone: 'accent' },
  low: { text: 'In Stock', tone: 'deal' },
  out: { text: 'Out of Stock', tone: 'danger' },
} as const

// Buttons sit above the card-wide link overlay.
const raised = css({ position: 'relative', zIndex: '2' })

function CardMedia({
  product,
  layout,
  hovered,
  priority,
}: {
  product: ProductDoc
  layout: 'grid' | 'list'
  hovered: boolean
  priority: boolean
}) {
  const image = primaryImage(product)
  const video = firstVideo(product)
  const imageUrl = useMediaUrl(image?.path)
  const videoUrl = useMediaUrl(video?.path)
  const [failed, setFailed] = useState(false)
  const [tapped, setTapped] = useState(false)
  const lowBattery = useLowBattery()
  // A tap toggles; leaving the card stops a hover preview (SPEC.md §4).
  const wanted = tapped || (hovered && !lowBattery)
  // The player is made the first time the preview is asked for, then kept. A <video> in every
  // card, even unseen, costs the page load a media player and its controls' styles: the two in
  // the flower menu's first cards took its first style and layout from 36 to 63 ms.
  const [playerMade, setPlayerMade] = useState(false)
  if (wanted && !playerMade) setPlayerMade(true)

  return (
    <div
      className={css({
        position: 'relative',
        aspectRatio: 'square',
        bg: 'bg.muted',
        overflow: 'hidden',
        flexShrink: 0,
        w: layout === 'list' ? { base: '28', sm: '44' } : 'full',
        borderRadius: layout === 'list' ? 'md' : undefined,
      })}
    >
      {failed || (!image && !video) ? (
        <div
          className={css({
            position: 'absolute',
            inset: '0',
            display: 'grid',
            placeItems: 'center',
            color: 'fg.subtle',
            fontSize: 'sm',
          })}
        >
          Media unavailable
        </div>
      ) : (
        image && (
          <img
            src={imageUrl}
            alt={product.name}
            // The first row is the page's largest paint: fetched at once, not when scrolled to.
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : 'auto'}
            decoding="async"
            width={400}
            height={400}
            onError={() => setFailed(true)}
            className={css({
              w: 'full',
              h: 'full',
              objectFit: 'cover',
              transition: 'transform 0.4s ease',
              _groupHover: { transform: 'scale(1.04)' },
            })}
          />
        )
      )}
      {video && (
        <>
          {playerMade && (
            <ProductVideo url={videoUrl} wanted={wanted} label={`${product.name} video preview`} />
          )}
          <button
            type="button"
            aria-pressed={tapped}
            aria-label={tapped ? `Pause ${product.name} video` : `Play ${product.name} video`}
            onClick={() => setTapped((t) => !t)}
            className={cx(
              raised,
              css({
                position: 'absolute',
                right: '2',
                bottom: '2',
                display: 'grid',
                placeItems: 'center',
                w: '8',
                h: '8',
                borderRadius: 'full',
                bg: 'bg.surface',
                color: 'accent.fg',
                boxShadow: 'card',
                cursor: 'pointer',
              }),
            )}
          >
            {tapped ? '❚❚' : <PlayIcon size={14} />}
          </button>
        </>
      )}
    </div>
  )
}

/**
 * A product on the menu (SPEC.md §2 "Product card"): media with video preview, badges, brand,
 * strain type, name, THC, weight, stars, price with "You save", the wishlist heart, Quick Add and
 * the round add button (only in stock), the out-of-stock overlay and the sale ribbon.
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
  const weight = weightLabel(product.weightGrams)
  const stock = STOCK_BADGE[level]
  const add = () => void addWithToast(onAdd, product, 1)
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
          <span className={badge({ tone: stock.tone })}>{stock.text}</span>
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
        <p className={css({ display: 'flex', gap: '2', fontSize: 'xs', color: 'fg.muted' })}>
          {(product.thc ?? 0) > 0 && <span>THC {percentLabel(product.thc)}</span>}
          {weight && <span>{weight}</span>}
        </p>
        <p
          className={css({
            display: 'flex',
            alignItems: 'center',
            gap: '1.5',
            fontSize: 'xs',
            color: 'fg.muted',
          })}
        >
          <StarRating rating={product.rating} />
          <span>({product.reviewCount})</span>
        </p>
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
