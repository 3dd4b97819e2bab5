/** The home page's "Shop by Category": a tile per menu with its blurb and promotion line. */
import { Link } from '@tanstack/react-router'
import { css, cx } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import { menuEntry } from '../../../lib/menu-categories'
import { BoxIcon, FlaskIcon, LeafIcon, StoreIcon } from '../../../ui/icons'

const CATEGORY_TILES = [
  { slug: 'flower', title: 'Flower Menu', to: 'flower', icon: <LeafIcon size={28} /> },
  { slug: 'branded-bags', title: 'Branded Bags', to: 'branded-bags', icon: <BoxIcon size={28} /> },
  // SPEC.md §2: this tile links to the singular path, which redirects to /menu/concentrates.
  {
    slug: 'concentrates',
    title: 'Concentrate Menu',
    to: 'concentrate',
    icon: <FlaskIcon size={28} />,
  },
  { slug: 'wholesale', title: 'Wholesale Menu', to: 'wholesale', icon: <StoreIcon size={28} /> },
] as const

export function ShopByCategory({ sectionTitle }: { sectionTitle: string }) {
  return (
    <section aria-labelledby="categories-title">
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'end',
          mb: '5',
        })}
      >
        <h2 id="categories-title" className={sectionTitle}>
          Shop by Category
        </h2>
        <Link
          to="/menu/$category"
          params={{ category: 'flower' }}
          className={css({ color: 'accent.fg', fontWeight: 'semibold', fontSize: 'sm', py: '1' })}
        >
          View All
        </Link>
      </div>
      <ul
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
          gap: '4',
        })}
      >
        {CATEGORY_TILES.map((t) => {
          const entry = menuEntry(t.slug)
          return (
            <li key={t.slug}>
              <Link
                to="/menu/$category"
                params={{ category: t.to }}
                className={cx(
                  'group',
                  css({
                    display: 'flex',
                    flexDirection: 'column',
                    h: 'full',
                    gap: '3',
                    p: { base: '4', md: '6' },
                    bg: 'bg.surface',
                    borderRadius: 'lg',
                    boxShadow: 'card',
                    textDecoration: 'none',
                    transition: 'transform 0.2s, box-shadow 0.2s',
                    _hover: { transform: 'translateY(-2px)', boxShadow: 'raised' },
                  }),
                )}
              >
                <span
                  className={css({
                    display: 'grid',
                    placeItems: 'center',
                    w: '14',
                    h: '14',
                    borderRadius: 'full',
                    bg: 'accent.solid',
                    color: 'fg.onAccent',
                  })}
                >
                  {t.icon}
                </span>
                <span className={css({ fontWeight: 'bold', fontSize: 'lg' })}>{t.title}</span>
                <span
                  className={css({
                    fontSize: 'sm',
                    color: 'fg.muted',
                    display: { base: 'none', md: 'block' },
                  })}
                >
                  {entry.blurb}
                </span>
                <span
                  className={cx(
                    badge({ tone: 'deal' }),
                    css({ alignSelf: 'flex-start', mt: 'auto' }),
                  )}
                >
                  {entry.promotion}
                </span>
              </Link>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
