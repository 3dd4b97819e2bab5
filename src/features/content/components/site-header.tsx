import { Link, useRouterState } from '@tanstack/react-router'
import { useState, type ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { MENU, subcategoryParam, type MenuEntry } from '../../../lib/menu-categories'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { telUri } from '../../../lib/shop'
import { Dialog, DialogTitle } from '../../../ui/dialog'
import {
  BookmarkIcon,
  ChevronDownIcon,
  MenuIcon,
  PhoneIcon,
  ReorderIcon,
  TruckIcon,
  UserIcon,
} from '../../../ui/icons'
import { BrandLogo } from './brand-logo'
import { ThemeToggle } from './theme-toggle'
import { HeaderSearch } from './header-search'
import { OpenStatusText } from './open-status'

/** SPEC.md §2: a category is active when the path starts with its link. */
function isActive(entry: MenuEntry, pathname: string): boolean {
  if (entry.slug === 'all') return pathname === '/menu' || pathname.startsWith('/menu/all')
  return pathname.startsWith(`/menu/${entry.slug}`)
}

function CategoryLink({
  entry,
  className,
  children,
  onClick,
}: {
  entry: MenuEntry
  className?: string
  children?: ReactNode
  onClick?: () => void
}) {
  const label = children ?? entry.name
  if (entry.slug === 'all')
    return (
      <Link to="/menu" className={className} onClick={onClick}>
        {label}
      </Link>
    )
  return (
    <Link
      to="/menu/$category"
      params={{ category: entry.slug }}
      className={className}
      onClick={onClick}
    >
      {label}
    </Link>
  )
}

function SubcategoryLink({
  entry,
  name,
  className,
  onClick,
}: {
  entry: MenuEntry
  name: string
  className?: string
  onClick?: () => void
}) {
  const search = { category: subcategoryParam(name) }
  if (entry.slug === 'all')
    return (
      <Link to="/menu" search={search} className={className} onClick={onClick}>
        {name}
      </Link>
    )
  return (
    <Link
      to="/menu/$category"
      params={{ category: entry.slug }}
      search={search}
      className={className}
      onClick={onClick}
    >
      {name}
    </Link>
  )
}

const iconButton = css({
  display: 'inline-flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '0.5',
  px: '2',
  py: '1',
  borderRadius: 'md',
  fontSize: '2xs',
  fontWeight: 'semibold',
  color: 'fg.muted',
  textDecoration: 'none',
  cursor: 'pointer',
  _hover: { color: 'accent.fg', bg: 'bg.muted' },
})

const themeButton = css({
  display: 'grid',
  placeItems: 'center',
  w: '10',
  h: '10',
  borderRadius: 'full',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted', color: 'fg.default' },
})

/**
 * Reorder, My Items and Account. "Reorder" opens Your orders asking for the latest order again:
 * with exactly one order on the device it goes straight into the cart, with several the shopper
 * picks one there (the account page decides, so the header reads no orders).
 */
function AccountButtons({
  layout,
  onNavigate,
}: {
  layout: 'bar' | 'drawer'
  onNavigate?: () => void
}) {
  const className =
    layout === 'bar'
      ? iconButton
      : css({
          display: 'flex',
          alignItems: 'center',
          gap: '3',
          w: 'full',
          py: '2.5',
          fontWeight: 'medium',
          cursor: 'pointer',
          color: 'fg.default',
          textDecoration: 'none',
        })
  const size = layout === 'bar' ? 20 : 18
  return (
    <>
      <Link to="/account" search={{ reorder: 'latest' }} className={className} onClick={onNavigate}>
        <ReorderIcon size={size} />
        <span>Reorder</span>
      </Link>
      <Link to="/my-items" className={className} onClick={onNavigate}>
        <BookmarkIcon size={size} />
        <span>My Items</span>
      </Link>
      <Link to="/account" className={className} onClick={onNavigate}>
        <UserIcon size={size} />
        <span>Account</span>
      </Link>
    </>
  )
}

function DesktopNav({ pathname }: { pathname: string }) {
  return (
    <nav
      aria-label="Categories"
      className={css({
        display: { base: 'none', md: 'block' },
        borderTopWidth: '1px',
        borderColor: 'border.default',
      })}
    >
      <ul
        className={css({
          display: 'flex',
          gap: '1',
          maxW: '7xl',
          mx: 'auto',
          px: { md: '6', lg: '8' },
        })}
      >
        {MENU.map((entry) => {
          const active = isActive(entry, pathname)
          return (
            <li key={entry.slug} className={cx('group', css({ position: 'relative' }))}>
              <CategoryLink
                entry={entry}
                className={css({
                  display: 'inline-flex',
                  alignItems: 'center',
                  gap: '1',
                  px: '3',
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
                <ChevronDownIcon size={14} />
              </CategoryLink>
              <div
                className={css({
                  display: 'none',
                  position: 'absolute',
                  top: '100%',
                  left: '0',
                  w: '72',
                  bg: 'bg.surface',
                  borderRadius: 'md',
                  borderWidth: '1px',
                  borderColor: 'border.default',
                  boxShadow: 'raised',
                  p: '4',
                  zIndex: 'dropdown',
                  animation: 'slideDown 0.15s ease-out',
                  _groupHover: { display: 'block' },
                  _groupFocusWithin: { display: 'block' },
                })}
              >
                <p className={css({ fontFamily: 'heading', fontWeight: 'bold', fontSize: 'lg' })}>
                  {entry.title}
                </p>
                <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1', mb: '3' })}>
                  {entry.blurb}
                </p>
                <ul className={css({ display: 'grid', gap: '0.5', mb: '3' })}>
                  {entry.subcategories.map((name) => (
                    <li key={name}>
                      <SubcategoryLink
                        entry={entry}
                        name={name}
                        className={css({
                          display: 'block',
                          px: '2',
                          py: '1.5',
                          mx: '-2',
                          borderRadius: 'sm',
                          fontSize: 'sm',
                          textDecoration: 'none',
                          _hover: { bg: 'bg.muted', color: 'accent.fg' },
                        })}
                      />
                    </li>
                  ))}
                </ul>
                <CategoryLink
                  entry={entry}
                  className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'accent.fg' })}
                >
                  View All
                </CategoryLink>
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
    <nav
      aria-label="Categories"
      className={css({
        display: { base: 'block', md: 'none' },
        overflowX: 'auto',
        scrollbarWidth: 'none',
        borderTopWidth: '1px',
        borderColor: 'border.default',
      })}
    >
      <ul className={css({ display: 'flex', gap: '2', px: '4', py: '2', w: 'max-content' })}>
        {MENU.map((entry) => {
          const active = isActive(entry, pathname)
          return (
            <li key={entry.slug}>
              <CategoryLink
                entry={entry}
                className={css({
                  display: 'inline-block',
                  px: '3.5',
                  py: '1.5',
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

function MobileDrawer({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const close = () => onOpenChange(false)
  return (
    <Dialog open={open} onOpenChange={onOpenChange} placement="start" closeLabel="Close menu">
      <DialogTitle className={css({ fontSize: 'xl', mb: '4' })}>Menu</DialogTitle>
      <nav aria-label="Shop">
        <ul className={css({ display: 'grid', gap: '4' })}>
          {MENU.map((entry) => (
            <li key={entry.slug}>
              <CategoryLink
                entry={entry}
                onClick={close}
                className={css({ fontWeight: 'bold', fontSize: 'md', textDecoration: 'none' })}
              />
              <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '1.5', mt: '2' })}>
                {entry.subcategories.map((name) => (
                  <li key={name}>
                    <SubcategoryLink
                      entry={entry}
                      name={name}
                      onClick={close}
                      className={css({
                        display: 'inline-block',
                        px: '2.5',
                        py: '1',
                        borderRadius: 'full',
                        bg: 'bg.muted',
                        fontSize: 'xs',
                        textDecoration: 'none',
                      })}
                    />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </nav>
      <div
        className={css({ borderTopWidth: '1px', borderColor: 'border.default', mt: '6', pt: '4' })}
      >
        <AccountButtons layout="drawer" onNavigate={close} />
        <Link
          to="/contact"
          onClick={close}
          className={css({ display: 'block', py: '2.5', fontWeight: 'medium' })}
        >
          Contact Us
        </Link>
      </div>
      <p
        className={css({
          mt: '4',
          fontSize: 'sm',
          color: 'fg.muted',
          display: 'flex',
          gap: '2',
          alignItems: 'center',
        })}
      >
        <TruckIcon size={16} /> Pickup or delivery?
      </p>
    </Dialog>
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
        <div
          className={css({
            maxW: '7xl',
            mx: 'auto',
            px: { base: '4', md: '8' },
            py: '1.5',
            display: 'flex',
            flexWrap: { base: 'wrap', sm: 'nowrap' },
            justifyContent: 'space-between',
            columnGap: '4',
            rowGap: '0.5',
          })}
        >
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
              gap: '1.5',
              textDecoration: 'none',
            })}
          >
            <PhoneIcon size={14} />
            <span>
              <span className={css({ display: { base: 'none', md: 'inline' } })}>
                Order by phone 24/7:{' '}
              </span>
              {shop.phone.display}
            </span>
          </a>
        </div>
      </div>
      <div
        className={css({
          maxW: '7xl',
          mx: 'auto',
          px: { base: '4', md: '8' },
          py: { base: '2.5', md: '3' },
          display: 'grid',
          gridTemplateColumns: { base: 'auto 1fr auto', md: 'auto minmax(0, 1fr) auto' },
          gridTemplateAreas: {
            base: '"menu logo cart" "search search search"',
            md: '"logo search actions"',
          },
          alignItems: 'center',
          columnGap: { base: '2', md: '6' },
          rowGap: '2.5',
        })}
      >
        <button
          type="button"
          aria-label="Open menu"
          onClick={() => setDrawerOpen(true)}
          className={css({
            gridArea: 'menu',
            display: { base: 'inline-flex', md: 'none' },
            p: '2',
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
      <MobileDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
    </header>
  )
}
