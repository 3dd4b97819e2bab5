import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { MENU } from '../../../lib/menu-categories'
import { Dialog, DialogTitle } from '../../../ui/dialog'
import { TruckIcon } from '../../../ui/icons'
import { AccountButtons, CategoryLink, SubcategoryLink } from './header-links'

// The phone's side drawer menu: opened by a tap on "Open menu", so it is fetched then
// (site-header.tsx), not with every page.

export function MobileDrawer({
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
                className={css({
                  display: 'block',
                  py: '2',
                  fontWeight: 'bold',
                  fontSize: 'md',
                  textDecoration: 'none',
                })}
              />
              <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '1.5', mt: '2' })}>
                {entry.subcategories.map((name) => (
                  <li key={name}>
                    <SubcategoryLink
                      entry={entry}
                      name={name}
                      onClick={close}
                      className={css({
                        display: 'inline-flex',
                        alignItems: 'center',
                        minH: '8',
                        px: '3',
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
