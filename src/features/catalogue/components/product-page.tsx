import { Link, useCanGoBack, useRouter } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { badge, button } from 'styled-system/recipes'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { formatMoney, formatThreshold, roundMoney, salePercent } from '../../../lib/money'
import { ArrowLeftIcon, ClockIcon, FlaskIcon, TruckIcon } from '../../../ui/icons'
import { StarRating } from '../../../ui/star-rating'
import type { AddToCart } from '../add-to-cart-toast'
import { useFirstSync } from '../hooks/use-first-sync'
import { useProduct } from '../hooks/use-product'
import { sizeLabel } from '../potency'
import { SALE_CAMPAIGN } from './product-card'
import { MediaGallery } from './media-gallery'
import { ProductBuyBox } from './product-buy-box'
import { ProductTabs, reviewCountText } from './product-tabs'
import { PotencyStats } from './product-details'
import { useSplashHold } from '../../../lib/splash-hold'

function Spinner() {
  return (
    <div
      role="status"
      aria-label="Loading product"
      // A screen tall, so the footer does not jump down when the product arrives (CLS).
      className={css({ display: 'grid', placeItems: 'center', py: '24', minH: '100dvh' })}
    >
      <span
        className={css({
          w: '10',
          h: '10',
          borderRadius: 'full',
          borderWidth: '3px',
          borderColor: 'accent.subtle',
          borderTopColor: 'accent.solid',
          animation: 'spin 0.8s linear infinite',
        })}
      />
    </div>
  )
}

function NotFound() {
  return (
    <main
      className={css({
        textAlign: 'center',
        py: '20',
        display: 'grid',
        gap: '4',
        justifyItems: 'center',
      })}
    >
      <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}>
        Product not found
      </h1>
      <p className={css({ color: 'fg.muted' })}>
        It may have sold out for good or moved to another menu.
      </p>
      <Link to="/menu" className={button()}>
        Browse Products
      </Link>
    </main>
  )
}

function Perk({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <li className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
      <span
        className={css({
          display: 'grid',
          placeItems: 'center',
          w: '10',
          h: '10',
          borderRadius: 'full',
          bg: 'accent.subtle',
          color: 'accent.fg',
          flexShrink: 0,
        })}
      >
        {icon}
      </span>
      <span>
        <span className={css({ display: 'block', fontWeight: 'semibold', fontSize: 'sm' })}>
          {title}
        </span>
        <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{text}</span>
      </span>
    </li>
  )
}

function ProductDetail({ product, onAdd }: { product: ProductDoc; onAdd: AddToCart }) {
  const router = useRouter()
  const canGoBack = useCanGoBack()
  const { money } = useShopSettings()
  const percent = salePercent(product.price, product.originalPrice)
  const saving =
    percent > 0 && product.originalPrice ? roundMoney(product.originalPrice - product.price) : 0
  // The weight of flower or a concentrate; a product labelled in milligrams has none to show here.
  const weight = sizeLabel(product)

  return (
    <main>
      <nav aria-label="Breadcrumb" className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>
        <ol
          className={css({
            display: 'flex',
            flexWrap: 'wrap',
            gap: '1.5',
            '& a:hover': { color: 'accent.fg' },
          })}
        >
          <li>
            <Link to="/">Home</Link> /
          </li>
          <li>
            <Link to="/menu">Menu</Link> /
          </li>
          {product.category && (
            <li>
              <Link to="/menu/$category" params={{ category: product.categorySlug }}>
                {product.category.name}
              </Link>{' '}
              /
            </li>
          )}
          <li aria-current="page" className={css({ color: 'fg.default', fontWeight: 'semibold' })}>
            {product.name}
          </li>
        </ol>
      </nav>
      <button
        type="button"
        onClick={() => (canGoBack ? router.history.back() : void router.navigate({ to: '/menu' }))}
        className={cx(button({ variant: 'ghost', size: 'sm' }), css({ mb: '4', ml: '-3' }))}
      >
        <ArrowLeftIcon size={16} /> Back
      </button>

      {/* Phones: the name, potency and price come first, then a shorter gallery, so they and
          the fixed Add to Cart show without scrolling (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md); from a tablet up, the
          gallery on the left beside them. */}
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
          gridTemplateAreas: {
            base: '"head" "gallery" "rest"',
            md: '"gallery head" "gallery rest"',
          },
          gridTemplateRows: { md: 'auto 1fr' },
          columnGap: { base: '6', lg: '12' },
          rowGap: '5',
          alignItems: 'start',
        })}
      >
        <div className={css({ gridArea: 'gallery' })}>
          <MediaGallery product={product} />
        </div>

        <div className={css({ display: 'grid', gap: { base: '3', md: '5' }, gridArea: 'head' })}>
          <div>
            <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '1.5', mb: '3' })}>
              {product.isOnSale && (
                <span className={badge({ tone: 'dealSolid' })}>{SALE_CAMPAIGN} · Sale</span>
              )}
              {product.isFeatured && <span className={badge({ tone: 'solid' })}>Featured</span>}
              {product.productType && (
                <span className={badge({ tone: 'accent' })}>{product.productType.name}</span>
              )}
            </div>
            <p
              className={css({
                fontSize: 'sm',
                color: 'fg.subtle',
                textTransform: 'uppercase',
                letterSpacing: 'wider',
              })}
            >
              {product.brand?.name}
            </p>
            <h1
              className={css({
                fontFamily: 'heading',
                fontSize: { base: '3xl', md: '4xl' },
                fontWeight: 'bold',
                lineHeight: 'tight',
              })}
            >
              {product.name}
            </h1>
            {product.reviewCount > 0 && (
              <p
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: '2',
                  mt: '2',
                  fontSize: 'sm',
                  color: 'fg.muted',
                })}
              >
                <StarRating rating={product.rating} size={16} /> {product.rating.toFixed(1)} (
                {reviewCountText(product.reviewCount)})
              </p>
            )}
          </div>

          <div
            className={css({ display: 'flex', alignItems: 'baseline', gap: '3', flexWrap: 'wrap' })}
          >
            <span
              data-testid="product-price"
              className={css({
                fontSize: '3xl',
                fontWeight: 'bold',
                color: saving ? 'deal.fg' : 'fg.default',
              })}
            >
              {formatMoney(product.price)}
            </span>
            {saving > 0 && (
              <>
                <s className={css({ fontSize: 'lg', color: 'fg.subtle' })}>
                  {formatMoney(product.originalPrice)}
                </s>
                <span className={badge({ tone: 'deal' })}>
                  You save {formatMoney(saving)} ({percent}%)
                </span>
              </>
            )}
            {weight && <span className={css({ color: 'fg.muted' })}>/ {weight}</span>}
          </div>

          <PotencyStats product={product} />
        </div>

        <div className={css({ display: 'grid', gap: '5', gridArea: 'rest' })}>
          {product.effects.length > 0 && (
            <div>
              <h2 className={css({ fontSize: 'sm', fontWeight: 'bold', mb: '2' })}>Effects</h2>
              <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
                {product.effects.map((effect) => (
                  <li key={effect} className={badge({ tone: 'neutral' })}>
                    {effect}
                  </li>
                ))}
              </ul>
            </div>
          )}

          <ProductBuyBox product={product} onAdd={onAdd} />

          <ul
            className={css({
              display: 'grid',
              gridTemplateColumns: { base: '1fr', sm: 'repeat(3, 1fr)' },
              gap: '4',
              bg: 'bg.surface',
              borderRadius: 'lg',
              p: '4',
              boxShadow: 'card',
            })}
          >
            <Perk
              icon={<TruckIcon size={18} />}
              title="Free Delivery"
              text={`On orders over ${formatThreshold(money.freeShippingThreshold)}`}
            />
            <Perk icon={<FlaskIcon size={18} />} title="Lab Tested" text="Third-party tested" />
            <Perk
              icon={<ClockIcon size={18} />}
              title="Pickup"
              text="Choose a window at checkout"
            />
          </ul>
        </div>
      </div>

      <ProductTabs product={product} />
    </main>
  )
}

/** SPEC.md §2 "Product detail": reads the product by slug from the device database. */
export function ProductPage({ slug, onAdd }: { slug: string; onAdd: AddToCart }) {
  const product = useProduct(slug)
  const sync = useFirstSync()
  useSplashHold(product === undefined, product === null && !sync.done)
  if (product === undefined || (product === null && !sync.done)) return <Spinner />
  if (product === null) return <NotFound />
  return <ProductDetail product={product} onAdd={onAdd} />
}
