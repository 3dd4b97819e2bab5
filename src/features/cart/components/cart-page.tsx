import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useMediaUrl } from '../../../data/hooks/use-media-url'
import type { CartLineDoc } from '../../../data/schemas/cart-line.schema'
import { formatMoney, formatThreshold, missingForFreeShipping } from '../../../lib/money'
import { receiptNotes, receiptRows } from '../../../lib/receipt'
import { decrementCartLine, incrementCartLine, removeFromCart } from '../cart.actions'
import { announce } from '../../../ui/live-region'
import { SummaryCard, SummaryRows } from '../../../ui/summary-card'
import { useCart, type CartView } from '../hooks/use-cart'

const badge = css({
  fontSize: 'xs',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  bg: 'bg.muted',
  color: 'fg.muted',
})

// Round, never squeezed into ovals by a narrow line: fixed size, no shrinking; 44 px for a thumb.
const stepperButton = css({
  w: { base: '11', md: '9' },
  h: { base: '11', md: '9' },
  flexShrink: 0,
  display: 'grid',
  placeItems: 'center',
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  cursor: 'pointer',
  fontWeight: 'bold',
  _disabled: { opacity: 0.4, cursor: 'not-allowed' },
})

function CartLine({ line }: { line: CartLineDoc }) {
  const { db } = useHumoData()
  const src = useMediaUrl(line.product.imagePath)
  const { product } = line
  const showOriginal =
    product.originalPrice !== null && (product.originalPrice ?? 0) > product.price
  return (
    <li
      aria-label={product.name}
      className={css({
        display: 'grid',
        // Phones: the line's totals go under its details, leaving the stepper room.
        gridTemplateColumns: { base: '64px minmax(0, 1fr)', sm: '88px minmax(0, 1fr) auto' },
        gap: { base: '3', sm: '4' },
        p: { base: '3', sm: '4' },
        bg: 'bg.surface',
        borderRadius: 'lg',
        boxShadow: 'card',
      })}
    >
      <img
        src={src}
        alt=""
        width={88}
        height={88}
        className={css({
          w: { base: '16', sm: '88px' },
          h: 'auto',
          borderRadius: 'md',
          objectFit: 'cover',
          aspectRatio: 'square',
          bg: 'bg.muted',
        })}
      />
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: 0 })}>
        <Link
          to="/product/$slug"
          params={{ slug: product.slug }}
          className={css({
            fontWeight: 'semibold',
            textDecoration: 'none',
            _hover: { textDecoration: 'underline' },
          })}
        >
          {product.name}
        </Link>
        {product.brandName && (
          <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{product.brandName}</span>
        )}
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {product.categoryName && <span className={badge}>{product.categoryName}</span>}
          {/* The weight of flower and concentrates, what the daily limits count; an edible counts
          by the THC it holds, so its package weight (a can's 355g) would mislead. */}
          {product.limitClass && product.limitGrams == null && product.weightGrams ? (
            <span className={badge}>{product.weightGrams}g</span>
          ) : null}
        </div>
        <div
          className={css({
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            columnGap: '3',
            rowGap: '1',
            mt: '1',
          })}
        >
          <button
            type="button"
            className={stepperButton}
            aria-label={`Decrease quantity of ${product.name}`}
            disabled={line.quantity <= 1}
            onClick={() =>
              void decrementCartLine(db, line.productId).then(() =>
                announce(`Quantity of ${product.name} changed to ${line.quantity - 1}`),
              )
            }
          >
            −
          </button>
          <span
            aria-label="Quantity"
            className={css({ minW: '6', textAlign: 'center', fontWeight: 'semibold' })}
          >
            {line.quantity}
          </span>
          <button
            type="button"
            className={stepperButton}
            aria-label={`Increase quantity of ${product.name}`}
            onClick={() =>
              void incrementCartLine(db, line.productId).then(() =>
                announce(`Quantity of ${product.name} changed to ${line.quantity + 1}`),
              )
            }
          >
            +
          </button>
          <button
            type="button"
            onClick={() =>
              void removeFromCart(db, line.productId).then(() =>
                announce(`Removed ${product.name} from cart`),
              )
            }
            className={css({
              ml: '2',
              minH: { base: '11', md: '9' },
              px: '1',
              fontSize: 'sm',
              color: 'danger.fg',
              cursor: 'pointer',
              bg: 'transparent',
            })}
            aria-label={`Remove ${product.name}`}
          >
            Remove
          </button>
        </div>
      </div>
      <div
        className={css({
          gridColumn: { base: '2', sm: 'auto' },
          textAlign: { base: 'left', sm: 'right' },
          display: 'flex',
          flexDirection: { base: 'row', sm: 'column' },
          flexWrap: 'wrap',
          alignItems: { base: 'baseline', sm: 'stretch' },
          gap: { base: '2', sm: '1' },
        })}
      >
        <span className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
          {formatMoney(product.price * line.quantity)}
        </span>
        {showOriginal && (
          <s className={css({ color: 'fg.subtle', fontSize: 'sm' })}>
            {formatMoney((product.originalPrice ?? 0) * line.quantity)}
          </s>
        )}
        <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>
          {formatMoney(product.price)} each
        </span>
      </div>
    </li>
  )
}

/** "Adult use (21+), delivery": what the cart is priced for, which checkout can change. */
function pricedFor(cart: CartView): string {
  const kind = cart.buyer.kind === 'medical' ? 'Medical patient (18+)' : 'Adult use (21+)'
  const card = cart.totals.salesTaxExempt ? ' with an MMIC' : ''
  const way = cart.handover.fulfilment === 'pickup' ? 'pickup' : 'delivery'
  return `Priced for: ${kind}${card}, ${way}. You can change this at checkout.`
}

export function OrderSummary({ cart, children }: { cart: CartView; children?: React.ReactNode }) {
  const { totals } = cart
  const standardDelivery =
    cart.handover.fulfilment === 'delivery' && cart.handover.deliveryMethod === 'standard'
  const missing = standardDelivery ? missingForFreeShipping(totals.subtotal, cart.rules) : 0
  return (
    <SummaryCard title="Order Summary">
      <SummaryRows
        rows={receiptRows(totals, cart.handover.fulfilment)}
        total={{ label: 'Total', value: formatMoney(totals.total) }}
      />
      <div className={css({ display: 'grid', gap: '1', fontSize: 'xs', color: 'fg.muted' })}>
        {receiptNotes(totals, 'preview').map((note) => (
          <p key={note}>{note}</p>
        ))}
        <p>{pricedFor(cart)}</p>
      </div>
      {missing > 0 && (
        <p
          className={css({
            fontSize: 'sm',
            color: 'accent.fg',
            bg: 'accent.subtle',
            p: '3',
            borderRadius: 'md',
          })}
        >
          Add {formatMoney(missing)} more for free delivery!
        </p>
      )}
      {children}
    </SummaryCard>
  )
}

/** The daily limits the cart passes, in place_order's words; checkout waits until none is left. */
export function LimitWarnings({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null
  return (
    <div
      role="alert"
      className={css({
        bg: 'danger.subtle',
        color: 'danger.fg',
        p: '3',
        borderRadius: 'md',
        fontSize: 'sm',
        display: 'grid',
        gap: '1',
      })}
    >
      {problems.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </div>
  )
}

export function CartPage() {
  const cart = useCart()
  if (cart === null) return null
  if (cart.lines.length === 0) {
    return (
      <main className={css({ textAlign: 'center', py: '20' })}>
        <h1
          className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold', mb: '6' })}
        >
          Your cart is empty
        </h1>
        <Link to="/menu" className={button({ size: 'lg' })}>
          Start Shopping
        </Link>
      </main>
    )
  }
  const blocked = cart.limits.problems.length > 0
  return (
    <main>
      <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold', mb: '6' })}>
        Shopping Cart ({cart.totalItems} items)
      </h1>
      <div
        className={css({
          display: 'grid',
          gap: '8',
          gridTemplateColumns: { base: '1fr', lg: '1fr 360px' },
          alignItems: 'start',
        })}
      >
        <ul
          aria-label="Cart items"
          className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
        >
          {cart.lines.map((line) => (
            <CartLine key={line.productId} line={line} />
          ))}
        </ul>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <OrderSummary cart={cart}>
            <LimitWarnings problems={cart.limits.problems} />
            {blocked ? (
              <span
                aria-disabled="true"
                className={button({ size: 'lg' })}
                style={{ opacity: 0.5 }}
              >
                Proceed to Checkout
              </span>
            ) : (
              <Link to="/checkout" className={button({ size: 'lg' })}>
                Proceed to Checkout
              </Link>
            )}
          </OrderSummary>
          <ul
            className={css({
              fontSize: 'sm',
              color: 'fg.muted',
              display: 'flex',
              flexDirection: 'column',
              gap: '1',
              px: '2',
            })}
          >
            <li>Same-day delivery when you order by 2 PM</li>
            <li>Free delivery on orders {formatThreshold(cart.rules.freeShippingThreshold)}+</li>
            <li>Delivered by our own drivers during opening hours</li>
            <li>Discreet packaging</li>
          </ul>
        </div>
      </div>
    </main>
  )
}
