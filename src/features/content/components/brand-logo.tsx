import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { SHOP } from '../../../lib/shop'
import { LeafIcon } from '../../../ui/icons'

/** The wordmark: a leaf in a disc and the shop's name, linking home. */
export function BrandLogo({ tone = 'default' }: { tone?: 'default' | 'inverse' }) {
  return (
    <Link
      to="/"
      aria-label={`${SHOP.name} home`}
      className={css({
        display: 'inline-flex',
        alignItems: 'center',
        gap: '2',
        textDecoration: 'none',
        flexShrink: 0,
        color: tone === 'inverse' ? 'fg.onInverse' : 'accent.solid',
      })}
    >
      <span
        className={css({
          display: 'grid',
          placeItems: 'center',
          w: '9',
          h: '9',
          borderRadius: 'full',
          bg: tone === 'inverse' ? 'accent.solidHover' : 'accent.solid',
          color: 'fg.onAccent',
        })}
      >
        <LeafIcon size={20} />
      </span>
      <span
        className={css({
          fontFamily: 'heading',
          fontSize: '2xl',
          fontWeight: 'bold',
          letterSpacing: 'tight',
        })}
      >
        {SHOP.name}
      </span>
    </Link>
  )
}
