import { useRouterState } from '@tanstack/react-router'
import {
  Suspense,
  lazy,
  useEffect,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { flushSync } from 'react-dom'
import { css } from 'styled-system/css'
import { MENU, type MenuEntry } from '../../../lib/menu-categories'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import { telUri } from '../../../lib/shop'
// Kept in this chunk: menus and product pages open dialogs too (a chunk of its own costs more).
import '../../../ui/dialog'
import { ChevronDownIcon, MenuIcon, PhoneIcon, TruckIcon } from '../../../ui/icons'
import { BrandLogo } from './brand-logo'
import { AccountButtons, CategoryLink, SubcategoryLink } from './header-links'
import { ThemeToggle } from './theme-toggle'
import { HeaderSearch } from './header-search'
import { OpenStatusText } from './open-status'

// Opened by a tap only (phones): fetched then, not with every page.
const loadDrawer = importWhenReachable(() => import('./mobile-drawer'))
const MobileDrawer = lazy(() => loadDrawer().then((module) => ({ default: module.MobileDrawer })))

/** SPEC.md §2: a category is active when the path starts with its link. */
function isActive(entry: MenuEntry, pathname: string): boolean {
  if (entry.slug === 'all') return pathname === '/menu' || pathname.startsWith('/menu/all')
  return pathname.startsWith(`/menu/${entry.slug}`)
}

// Header controls are 44 × 44 px: thumbs on phones and the staff tablet (WCAG 2.5.5).
const themeButton = css({
  display: 'grid',
  placeItems: 'center',
  w: '11',
  h: '11',
  borderRadius: 'full',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted', color: 'fg.default' },
})

/**
 * The desktop dropdowns as WAI-ARIA menu buttons: each category's link stays a link, and the
 * chevron beside it opens the menu (Enter, Space, ArrowDown: first item; ArrowUp: last). Arrows,
 * Home and End move, Escape closes and returns to the button, Tab leaves (and closes). Hover still
 * shows the panel. Plain DOM focus: the storefront's JS budget has no room for a menu machine.
 */
function DesktopNav({ pathname }: { pathname: string }) {
  const [open, setOpen] = useState<string | null>(null)
  useEffect(() => setOpen(null), [pathname])
  const items = (li: Element) => [...li.querySelectorAll<HTMLElement>('[role=menuitem]')]
  // Opens the menu of `li` and focuses its item `at` (-1: the last; wraps around).
  const openAt = (li: Element, slug: string, at: number) => {
    flushSync(() => setOpen(slug))
    const list = items(li)
    list[(at + list.length) % list.length]?.focus()
  }
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, slug: string) => {
    const li = event.currentTarget
    const at = items(li).indexOf(event.target as HTMLElement)
    const key = event.key
    if (key === 'Escape' && open === slug) {
      setOpen(null)
      li.querySelector('button')?.focus()
    } else if (key === 'ArrowDown') openAt(li, slug, at + 1)
    else if (key === 'ArrowUp') openAt(li, slug, at < 0 ? -1 : at - 1)
    else if (at >= 0 && (key === 'Home' || key === 'End')) openAt(li, slug, key === 'Home' ? 0 : -1)
    else return
    event.preventDefault()
  }
  const onBlur = (event: FocusEvent<HTMLLIElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setOpen(null)
  }
  return (
    <nav aria-label="Categories" data-desktop-nav>
      <ul>
        {MENU.map((entry) => {
          const active = isActive(entry, pathname)
          return (
            <li
              key={entry.slug}
              className="group"
              onKeyDown={(event) => onKeyDown(event, entry.slug)}
              onBlur={onBlur}
            >
              <CategoryLink
                entry={entry}
                className={css({
                  display: 'inline-flex',
                  alignItems: 'center',
                  gap: '1',
                  pl: '3',
                  pr: '1',
                  py: '3',
                  fontSize: 'sm',
                  fontWeight: 'semibold',
                  textDecoration: 'none',
                  color: active ? 'accent.fg' : 'fg.default',
                  borderBottomWidth: '2px',
                  borderColor: active ? 'accent.solid' : 'transparent',
                  _hover: { color: 'accent.fg' },
                })}
              >
                {entry.name}
              </CategoryLink>
              <button
                type="button"
                aria-haspopup="menu"
                aria-expanded={open === entry.slug}
                aria-controls={`menu-${entry.slug}`}
                aria-label={`${entry.name} subcategories`}
                data-nav-menu-button
                onClick={(event) =>
                  open === entry.slug
                    ? setOpen(null)
                    : openAt(event.currentTarget.parentElement!, entry.slug, 0)
                }
              >
                <ChevronDownIcon size={14} />
              </button>
              {/* Styled by panda.config.ts's [data-nav-menu] (CSS, not the page's script). */}
              <div data-nav-menu data-open={open === entry.slug || undefined}>
                <p>{entry.title}</p>
                <p>{entry.blurb}</p>
                <ul role="menu" id={`menu-${entry.slug}`} aria-label={entry.name}>
                  {entry.subcategories.map((name) => (
                    <li key={name} role="none">
                      <SubcategoryLink entry={entry} name={name} item />
                    </li>
                  ))}
                  <li role="none">
                    <CategoryLink entry={entry} item>
                      View All
                    </CategoryLink>
                  </li>
                </ul>
              </div>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

function MobileStrip({ pathname }: { pathname: string }) {
  return (
    <nav aria-label="Categories" data-phone-nav>
      <ul>
        {MENU.map((entry) => {
          const active = isActive(entry, pathname)
          return (
            <li key={entry.slug}>
              <CategoryLink
                entry={entry}
                className={css({
                  display: 'inline-flex',
                  alignItems: 'center',
                  minH: '11',
                  px: '4',
                  borderRadius: 'full',
                  fontSize: 'sm',
                  fontWeight: 'semibold',
                  textDecoration: 'none',
                  whiteSpace: 'nowrap',
                  bg: active ? 'accent.solid' : 'bg.muted',
                  color: active ? 'fg.onAccent' : 'fg.default',
                })}
              />
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

/**
 * The storefront header (SPEC.md §2): a strip with "Pickup or delivery?", whether the shop is open
 * now and phone ordering, the logo, the search box, Reorder / My Items / Account, the cart (a slot: the cart feature's
 * button), and the category navigation — hover dropdowns on desktop, a side drawer and a
 * scrolling strip below 768 px.
 */
export function SiteHeader({
  cartSlot,
  installSlot,
}: {
  cartSlot: ReactNode
  installSlot?: ReactNode
}) {
  const { facts: shop } = useShopSettings()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const [drawerOpen, setDrawerOpen] = useState(false)
  const [drawerWanted, setDrawerWanted] = useState(false)
  if (drawerOpen && !drawerWanted) setDrawerWanted(true)
  return (
    <header
      className={css({
        bg: 'bg.surface',
        // NOTE: on phones the whole header (~190 px) would cover a quarter of the screen if it
        // stayed; it scrolls away there and sticks from tablet width up.
        position: { base: 'relative', md: 'sticky' },
        top: '0',
        zIndex: 'sticky',
        boxShadow: 'card',
      })}
    >
      <div className={css({ bg: 'bg.inverse', color: 'fg.onInverse', fontSize: 'xs' })}>
        {/* Styled by panda.config.ts's [data-header-strip]. */}
        <div data-header-strip>
          <span
            className={css({
              display: 'inline-flex',
              alignItems: 'center',
              gap: '1.5',
              fontWeight: 'semibold',
            })}
          >
            <TruckIcon size={14} /> Pickup or delivery?
          </span>
          <OpenStatusText
            className={css({
              // Phones: a line of its own under the strip (kept, empty, until mounted).
              order: { base: 1, sm: 0 },
              flexBasis: { base: 'full', sm: 'auto' },
              minH: '1lh',
              textAlign: 'center',
              fontWeight: 'semibold',
            })}
          />
          <span
            className={css({
              display: { base: 'none', lg: 'inline' },
              color: 'fg.onInverseMuted',
              fontStyle: 'italic',
            })}
          >
            {shop.slogan}
          </span>
          <a
            href={telUri(shop)}
            className={css({
              display: 'inline-flex',
              alignItems: 'center',
              minH: '6',
              gap: '1.5',
              textDecoration: 'none',
            })}
          >
            <PhoneIcon size={14} />
            <span>
              <span className={css({ display: { base: 'none', md: 'inline' } })}>
                <OpenStatusText phone />:{' '}
              </span>
              {shop.phone.display}
            </span>
          </a>
        </div>
      </div>
      {/* Styled by panda.config.ts's [data-header-row]. */}
      <div data-header-row>
        <button
          type="button"
          aria-label="Open menu"
          onClick={() => setDrawerOpen(true)}
          className={css({
            gridArea: 'menu',
            display: { base: 'inline-flex', md: 'none' },
            alignItems: 'center',
            justifyContent: 'center',
            minW: '11',
            minH: '11',
            borderRadius: 'md',
            cursor: 'pointer',
            _hover: { bg: 'bg.muted' },
          })}
        >
          <MenuIcon />
        </button>
        <div className={css({ gridArea: 'logo' })}>
          <BrandLogo />
        </div>
        <div className={css({ gridArea: 'search', display: 'flex', justifyContent: 'center' })}>
          <HeaderSearch />
        </div>
        <div
          className={css({
            gridArea: { base: 'cart', md: 'actions' },
            display: 'flex',
            alignItems: 'center',
            gap: '1',
            justifySelf: 'end',
          })}
        >
          <div className={css({ display: { base: 'none', lg: 'flex' }, gap: '1', mr: '2' })}>
            <AccountButtons layout="bar" />
          </div>
          {installSlot}
          <ThemeToggle className={themeButton} />
          {cartSlot}
        </div>
      </div>
      <DesktopNav pathname={pathname} />
      <MobileStrip pathname={pathname} />
      {drawerWanted && (
        <Suspense fallback={null}>
          <MobileDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
        </Suspense>
      )}
    </header>
  )
}
