import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { formatMoney } from '../../../lib/money'
import { useCartSummary } from '../hooks/use-cart-summary'

/** Header cart button: the running total with two decimals and a badge when items > 0. */
export function CartButton() {
  const cart = useCartSummary()
  const count = cart?.totalItems ?? 0
  const total = cart?.subtotal ?? 0
  // The count badge sits beside the link, over its corner: inside, its number would be visible
  // text missing from the link's name (WCAG 2.5.3, axe's label-content-name-mismatch).
  return (
    <span className={css({ position: 'relative', display: 'inline-flex' })}>
      <Link
        to="/cart"
        aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}, ${formatMoney(total)}`}
        className={css({
          position: 'relative',
          display: 'inline-flex',
          alignItems: 'center',
          gap: '2',
          h: '11',
          px: '4',
          borderRadius: 'full',
          bg: 'accent.solid',
          color: 'fg.onAccent',
          fontWeight: 'semibold',
          fontSize: 'sm',
          textDecoration: 'none',
          _hover: { bg: 'accent.solidHover' },
        })}
      >
        <svg
          aria-hidden="true"
          width="18"
          height="18"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M6 6h15l-1.5 9h-12z" />
          <path d="M6 6 5 3H2" />
          <circle cx="9" cy="20" r="1.5" />
          <circle cx="18" cy="20" r="1.5" />
        </svg>
        <span>{formatMoney(total)}</span>
      </Link>
      {count > 0 && (
        // The link's name says the count; a click on it goes through to the link.
        <span
          aria-hidden="true"
          data-testid="cart-count"
          className={css({
            pointerEvents: 'none',
            position: 'absolute',
            top: '-1',
            right: '-1',
            minW: '5',
            h: '5',
            px: '1',
            borderRadius: 'full',
            bg: 'deal.solid',
            color: 'fg.onAccent',
            fontSize: 'xs',
            display: 'grid',
            placeItems: 'center',
          })}
        >
          {count}
        </span>
      )}
    </span>
  )
}
