import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { subcategoryParam, type MenuEntry } from '../../../lib/menu-categories'
import { BookmarkIcon, ReorderIcon, UserIcon } from '../../../ui/icons'

// The header's links, shared by its bar, its desktop dropdowns and the phone drawer (which is
// fetched on its first opening, mobile-drawer.tsx).

/** A menu item of the desktop dropdowns: reached with the arrow keys, not Tab. */
export const MENU_ITEM = { role: 'menuitem', tabIndex: -1 } as const

export function CategoryLink({
  entry,
  className,
  children,
  onClick,
  item,
}: {
  entry: MenuEntry
  className?: string
  children?: ReactNode
  onClick?: () => void
  item?: boolean
}) {
  const label = children ?? entry.name
  const extra = item ? MENU_ITEM : {}
  if (entry.slug === 'all')
    return (
      <Link to="/menu" className={className} onClick={onClick} {...extra}>
        {label}
      </Link>
    )
  return (
    <Link
      to="/menu/$category"
      params={{ category: entry.slug }}
      className={className}
      onClick={onClick}
      {...extra}
    >
      {label}
    </Link>
  )
}

export function SubcategoryLink({
  entry,
  name,
  className,
  onClick,
  item,
}: {
  entry: MenuEntry
  name: string
  className?: string
  onClick?: () => void
  item?: boolean
}) {
  const search = { category: subcategoryParam(name) }
  const extra = item ? MENU_ITEM : {}
  if (entry.slug === 'all')
    return (
      <Link to="/menu" search={search} className={className} onClick={onClick} {...extra}>
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
      {...extra}
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

/**
 * Reorder, My Items and Account. "Reorder" opens Your orders asking for the latest order again:
 * with exactly one order on the device it goes straight into the cart, with several the shopper
 * picks one there (the account page decides, so the header reads no orders).
 */
export function AccountButtons({
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
