import { Link } from '@tanstack/react-router'
import { useDeferredValue, useMemo, useState, type ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { menuEntry, subcategoryParam, type MenuCategory } from '../../../lib/menu-categories'
import { Dialog, DialogTitle } from '../../../ui/dialog'
import { FilterIcon, GridIcon, ListIcon } from '../../../ui/icons'
import { SelectField, type SelectOption } from '../../../ui/select'
import type { AddToCart } from '../add-to-cart-toast'
import type { MenuSearch, SortKey } from '../catalogue.validation'
import { useDeferredCatalogue } from '../hooks/use-deferred-catalogue'
import { useMediaQuery } from '../hooks/use-media-query'
import { useMenuProducts } from '../hooks/use-menu-products'
import { useProductSearch } from '../../../data/search/use-product-search'
import {
  activeFilterCount,
  facetsOf,
  filterProducts,
  normalizeSearch,
  priceBounds,
  sortProducts,
  withValue,
} from '../menu-filter'
import { MenuFilters, type FilterPatch } from './menu-filters'
import { ProductCardSkeleton } from './product-card'
import { ProductGrid } from './product-grid'
import { useSplashHold } from '../../../lib/splash-hold'

const SORT_OPTIONS: readonly SelectOption<SortKey>[] = [
  { value: 'relevance', label: 'Relevance' },
  { value: 'price-asc', label: 'Price: Low to High' },
  { value: 'price-desc', label: 'Price: High to Low' },
  { value: 'name', label: 'Name: A to Z' },
  { value: 'thc', label: 'THC: High to Low' },
  { value: 'rating', label: 'Top Rated' },
]

const EFFECT_MENUS: readonly MenuCategory[] = ['flower', 'concentrates', 'edibles']

/** Panda's `md` breakpoint, from which the filters show beside the products. */
const SIDEBAR_SHOWN = 'screen and (min-width: 48rem)'

/**
 * A chip is on when its filter is, not when its link is a part of the address (the router's
 * default, which would mark an "on" chip, whose link turns it off, as the current page).
 */
const EXACT = { exact: true } as const

const chipClass = (on: boolean) =>
  css({
    display: 'inline-block',
    px: '3.5',
    py: '1.5',
    borderRadius: 'full',
    fontSize: 'sm',
    fontWeight: 'semibold',
    textDecoration: 'none',
    whiteSpace: 'nowrap',
    borderWidth: '1px',
    borderColor: on ? 'accent.solid' : 'border.default',
    bg: on ? 'accent.solid' : 'bg.surface',
    color: on ? 'fg.onAccent' : 'fg.default',
    _hover: { borderColor: 'accent.solid' },
  })

/**
 * The subcategory chips. On Shop All they are views (`category`), "All Categories" being no
 * category filter at all; on a menu each is a product type and toggles that type in the same
 * `types` filter as the drawer's Types list (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md).
 */
function Subcategories({ category, search }: { category: MenuCategory; search: MenuSearch }) {
  const entry = menuEntry(category)
  return (
    <nav
      aria-label={`${entry.name} subcategories`}
      className={css({ overflowX: 'auto', mt: '4', scrollbarWidth: 'none' })}
    >
      <ul className={css({ display: 'flex', gap: '2', w: 'max-content' })}>
        {entry.subcategories.map((name) => {
          if (category === 'all') {
            // "All Categories" is the Categories filter off, not a filter of its own.
            const value = subcategoryParam(name)
            const everything = value === 'all-categories'
            const on = everything
              ? !search.category && !search.categories?.length
              : search.category === value
            return (
              <li key={name}>
                <Link
                  to="/menu"
                  search={{
                    ...search,
                    category: on || everything ? undefined : value,
                    categories: everything ? undefined : search.categories,
                  }}
                  className={chipClass(on)}
                  activeOptions={EXACT}
                  aria-current={on ? 'true' : undefined}
                >
                  {name}
                </Link>
              </li>
            )
          }
          const on = search.types?.includes(name) ?? false
          return (
            <li key={name}>
              <Link
                to="/menu/$category"
                params={{ category }}
                search={{ ...search, types: withValue(search.types, name, !on) }}
                className={chipClass(on)}
                activeOptions={EXACT}
                aria-current={on ? 'true' : undefined}
              >
                {name}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

function StateMessage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div
      role="status"
      className={css({
        textAlign: 'center',
        py: '16',
        px: '6',
        bg: 'bg.surface',
        borderRadius: 'lg',
        boxShadow: 'card',
        display: 'grid',
        gap: '4',
        justifyItems: 'center',
      })}
    >
      <p className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>{title}</p>
      {children}
    </div>
  )
}

/**
 * A menu (SPEC.md §2 "Menu listing"): title and blurb, "Showing X of Y products", filters in a
 * sidebar (a drawer below 768 px), sort, grid/list, and the loading, error and empty states.
 * All filter state lives in the URL; this page only reads it and asks for changes.
 */
export function MenuPage({
  category,
  search: urlSearch,
  onSearchChange,
  onAdd,
}: {
  category: MenuCategory
  search: MenuSearch
  onSearchChange: (next: MenuSearch) => void
  onAdd: AddToCart
}) {
  const entry = menuEntry(category)
  const { value: result, sync } = useDeferredCatalogue(useMenuProducts(category))
  const [drawerOpen, setDrawerOpen] = useState(false)
  // A phone never shows the sidebar (its filters are in the drawer): not rendering it there keeps
  // a fifth of the menu's elements out of the first commit. The server's copy is for any screen.
  const sidebarShown = useMediaQuery(SIDEBAR_SHOWN, true)
  const all = useMemo(() => (result.status === 'ready' ? result.products : []), [result])
  const search = useMemo(() => normalizeSearch(urlSearch), [urlSearch])
  const deferredSearch = useDeferredValue(search)
  const prices = useMemo(() => priceBounds(all), [all])
  // The search index loads only once there is a search text (docs/decisions/038-product-search.md).
  const index = useProductSearch(Boolean(search.q))
  const q = deferredSearch.q
  const ranking = useMemo(() => (q && index?.rank(q)) || null, [index, q])
  const facets = useMemo(
    () => facetsOf(all, deferredSearch, ranking),
    [all, deferredSearch, ranking],
  )
  const shown = useMemo(
    () =>
      sortProducts(
        filterProducts(all, deferredSearch, ranking),
        deferredSearch.sort,
        deferredSearch.category,
        ranking,
      ),
    [all, deferredSearch, ranking],
  )
  const view = search.view ?? 'grid'
  const filterCount = activeFilterCount(search)
  const loading = result.status === 'loading' || (all.length === 0 && !sync.done)
  useSplashHold(result.status === 'loading', loading)
  const failed = result.status === 'error' || (all.length === 0 && sync.done && sync.error !== null)

  const patch = (changes: FilterPatch) => onSearchChange({ ...search, ...changes })
  const clear = () => onSearchChange({ sort: search.sort, view: search.view })

  const filters = (
    <MenuFilters
      search={search}
      facets={facets}
      prices={prices}
      count={filterCount}
      showCategories={category === 'all'}
      showEffects={EFFECT_MENUS.includes(category)}
      onChange={patch}
      onClear={clear}
    />
  )

  return (
    <main>
      <header className={css({ mb: '6' })}>
        <nav
          aria-label="Breadcrumb"
          className={css({ fontSize: 'sm', color: 'fg.muted', mb: '2' })}
        >
          <Link to="/" className={css({ _hover: { color: 'accent.fg' } })}>
            Home
          </Link>{' '}
          / <span>Menu</span>
        </nav>
        <h1
          className={css({
            fontFamily: 'heading',
            fontSize: { base: '3xl', md: '5xl' },
            fontWeight: 'bold',
            lineHeight: 'tight',
          })}
        >
          {entry.title}
        </h1>
        <p className={css({ color: 'fg.muted', mt: '2', maxW: '2xl' })}>{entry.blurb}</p>
        <Subcategories category={category} search={search} />
      </header>

      {/* "Skip to filters" lands here: the next Tab reaches the sidebar's filters on desktop
          and the Filters button, which opens the drawer, on phones. */}
      <div
        id="filters"
        tabIndex={-1}
        className={css({
          display: 'grid',
          gridTemplateColumns: {
            base: 'minmax(0, 1fr)',
            md: '240px minmax(0, 1fr)',
            lg: '260px minmax(0, 1fr)',
          },
          gap: '8',
          alignItems: 'start',
        })}
      >
        <aside
          aria-label="Filters"
          className={css({
            display: { base: 'none', md: 'block' },
            position: 'sticky',
            top: '36',
            maxH: 'calc(100dvh - 10rem)',
            overflowY: 'auto',
            bg: 'bg.surface',
            borderRadius: 'lg',
            boxShadow: 'card',
            p: '5',
          })}
        >
          {sidebarShown && filters}
        </aside>

        <section aria-label={`${entry.title} products`}>
          <div
            className={css({
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: '3',
              mb: '4',
            })}
          >
            {/* The results' heading: the cards' h3s follow it, not the h1 (on a phone the
                filters' h2 is in a closed drawer; axe's heading-order). */}
            <h2 className={css({ color: 'fg.muted', fontSize: 'sm' })} aria-live="polite">
              {loading ? 'Loading products…' : `Showing ${shown.length} of ${all.length} products`}
            </h2>
            <div
              className={css({
                display: 'flex',
                alignItems: 'center',
                gap: '2',
                w: { base: 'full', sm: 'auto' },
              })}
            >
              <button
                type="button"
                onClick={() => setDrawerOpen(true)}
                className={cx(
                  button({ variant: 'outline', size: 'md' }),
                  css({ display: { base: 'inline-flex', md: 'none' } }),
                )}
              >
                <FilterIcon size={16} /> Filters{filterCount > 0 && ` (${filterCount})`}
              </button>
              <SelectField
                label="Sort by"
                hideLabel
                options={SORT_OPTIONS}
                value={search.sort ?? 'relevance'}
                onValueChange={(sort) => patch({ sort: sort === 'relevance' ? undefined : sort })}
              />
              <div
                role="group"
                aria-label="View"
                className={css({
                  display: 'flex',
                  borderWidth: '1px',
                  borderColor: 'border.strong',
                  borderRadius: 'md',
                  overflow: 'hidden',
                })}
              >
                {(
                  [
                    ['grid', 'Grid view', GridIcon],
                    ['list', 'List view', ListIcon],
                  ] as const
                ).map(([mode, label, Icon]) => (
                  <button
                    key={mode}
                    type="button"
                    aria-label={label}
                    aria-pressed={view === mode}
                    onClick={() => patch({ view: mode === 'grid' ? undefined : mode })}
                    className={css({
                      display: 'grid',
                      placeItems: 'center',
                      w: '10',
                      h: '10',
                      cursor: 'pointer',
                      bg: view === mode ? 'accent.solid' : 'bg.surface',
                      color: view === mode ? 'fg.onAccent' : 'fg.muted',
                    })}
                  >
                    <Icon size={18} />
                  </button>
                ))}
              </div>
            </div>
          </div>

          {failed ? (
            <StateMessage title="Error loading products. Please try again.">
              <button type="button" className={button()} onClick={() => window.location.reload()}>
                Try again
              </button>
            </StateMessage>
          ) : loading ? (
            <div
              aria-busy="true"
              aria-label="Loading products"
              className={css({
                display: 'grid',
                gap: '4',
                gridTemplateColumns: {
                  base: 'repeat(2, minmax(0, 1fr))',
                  lg: 'repeat(3, minmax(0, 1fr))',
                  xl: 'repeat(4, minmax(0, 1fr))',
                },
              })}
            >
              {Array.from({ length: 8 }, (_, i) => (
                <ProductCardSkeleton key={i} />
              ))}
            </div>
          ) : shown.length === 0 ? (
            <StateMessage title="No products found matching your criteria">
              <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
                Try fewer filters or a different search.
              </p>
              <button type="button" className={button()} onClick={clear}>
                Clear filters
              </button>
            </StateMessage>
          ) : (
            <div id="products" tabIndex={-1}>
              <ProductGrid products={shown} onAdd={onAdd} layout={view} />
            </div>
          )}
        </section>
      </div>

      <Dialog
        open={drawerOpen}
        onOpenChange={setDrawerOpen}
        placement="start"
        closeLabel="Close filters"
      >
        <DialogTitle className={css({ srOnly: true })}>Filters</DialogTitle>
        {filters}
        {/* Sticky at the drawer's foot: on a phone the filters are taller than the screen, and
            the way back to the products must not scroll away. */}
        <button
          type="button"
          className={cx(
            button({ size: 'lg' }),
            css({ w: 'full', mt: '6', position: 'sticky', bottom: '0', boxShadow: 'raised' }),
          )}
          onClick={() => setDrawerOpen(false)}
        >
          Show {shown.length} products
        </button>
      </Dialog>
    </main>
  )
}
