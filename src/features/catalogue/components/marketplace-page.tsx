import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import type { AddToCart } from '../add-to-cart-toast'
import { useBrandDirectory } from '../hooks/use-brand-directory'
import { useFirstSync } from '../hooks/use-first-sync'
import { ProductCard, ProductCardSkeleton } from './product-card'

const NEW_ARRIVALS_PER_BRAND = 4

/**
 * /marketplace: SPEC.md leaves its content open; it is the shop's brand directory — every brand
 * with its story and its newest arrivals — read from the local catalogue.
 */
export function MarketplacePage({ onAdd }: { onAdd: AddToCart }) {
  const shelves = useBrandDirectory(NEW_ARRIVALS_PER_BRAND)
  const sync = useFirstSync()
  const loading = !shelves || (shelves.length === 0 && !sync.done)
  return (
    <main>
      <header className={css({ mb: '8', maxW: '3xl' })}>
        <p
          className={css({
            color: 'accent.fg',
            fontWeight: 'semibold',
            fontSize: 'sm',
            textTransform: 'uppercase',
            letterSpacing: 'wider',
          })}
        >
          Marketplace
        </p>
        <h1
          className={css({
            fontFamily: 'heading',
            fontSize: { base: '3xl', md: '5xl' },
            fontWeight: 'bold',
            lineHeight: 'tight',
          })}
        >
          The farms and makers behind the menu
        </h1>
        <p className={css({ color: 'fg.muted', mt: '3' })}>
          Every brand we carry, straight from California growers, extractors and kitchens — with
          what just arrived from each.
        </p>
        {shelves && shelves.length > 0 && (
          <nav aria-label="Brands" className={css({ mt: '5' })}>
            <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
              {shelves.map(({ brand }) => (
                <li key={brand.id}>
                  <a
                    href={`#brand-${brand.id}`}
                    className={css({
                      display: 'inline-block',
                      px: '3',
                      py: '1.5',
                      borderRadius: 'full',
                      bg: 'bg.surface',
                      boxShadow: 'card',
                      fontSize: 'sm',
                      fontWeight: 'semibold',
                      textDecoration: 'none',
                      _hover: { color: 'accent.fg' },
                    })}
                  >
                    {brand.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>

      {loading ? (
        <div
          className={css({
            display: 'grid',
            gap: '4',
            gridTemplateColumns: { base: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
          })}
        >
          {Array.from({ length: 8 }, (_, i) => (
            <ProductCardSkeleton key={i} />
          ))}
        </div>
      ) : shelves.length === 0 ? (
        <p role="status" className={css({ color: 'fg.muted', textAlign: 'center', py: '16' })}>
          No brands yet.{' '}
          <Link to="/menu" className={css({ color: 'accent.fg' })}>
            Browse Products
          </Link>
        </p>
      ) : (
        <div className={css({ display: 'grid', gap: '12' })}>
          {shelves.map(({ brand, total, newest }) => (
            <section
              key={brand.id}
              id={`brand-${brand.id}`}
              aria-labelledby={`brand-title-${brand.id}`}
              className={css({ scrollMarginTop: '40' })}
            >
              <div
                className={css({
                  display: 'flex',
                  flexWrap: 'wrap',
                  alignItems: 'end',
                  justifyContent: 'space-between',
                  gap: '3',
                  mb: '4',
                  pb: '3',
                  borderBottomWidth: '1px',
                  borderColor: 'border.default',
                })}
              >
                <div className={css({ maxW: '2xl' })}>
                  <h2
                    id={`brand-title-${brand.id}`}
                    className={css({ fontFamily: 'heading', fontSize: '2xl', fontWeight: 'bold' })}
                  >
                    {brand.name}
                  </h2>
                  {brand.description && (
                    <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
                      {brand.description}
                    </p>
                  )}
                </div>
                <div className={css({ display: 'flex', gap: '2' })}>
                  {brand.foundedYear && (
                    <span className={badge({ tone: 'neutral' })}>Since {brand.foundedYear}</span>
                  )}
                  <span className={badge({ tone: 'accent' })}>
                    {total} {total === 1 ? 'product' : 'products'}
                  </span>
                </div>
              </div>
              <h3
                className={css({ fontSize: 'sm', fontWeight: 'bold', color: 'fg.muted', mb: '3' })}
              >
                New arrivals
              </h3>
              <ul
                className={css({
                  display: 'grid',
                  gap: '4',
                  gridTemplateColumns: {
                    base: 'repeat(2, minmax(0, 1fr))',
                    lg: 'repeat(4, minmax(0, 1fr))',
                  },
                })}
              >
                {newest.map((product) => (
                  <li key={product.id}>
                    <ProductCard product={product} onAdd={onAdd} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </main>
  )
}
