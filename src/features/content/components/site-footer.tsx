import { Link } from '@tanstack/react-router'
import { Suspense, lazy, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { MENU } from '../../../lib/menu-categories'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { mailtoUri, telUri } from '../../../lib/shop'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import { MessageIcon, TruckIcon } from '../../../ui/icons'
import { BrandLogo } from './brand-logo'
import { OpenStatusText } from './open-status'

// Opened by a tap only: its QR code and form are fetched then, not with every page.
const loadTextUpdates = importWhenReachable(() => import('./text-updates-dialog'))
const TextUpdatesDialog = lazy(() =>
  loadTextUpdates().then((module) => ({ default: module.TextUpdatesDialog })),
)

const heading = css({
  fontSize: 'sm',
  fontWeight: 'bold',
  textTransform: 'uppercase',
  letterSpacing: 'wider',
  color: 'fg.onInverse',
  mb: '3',
})
const linkClass = css({
  display: 'inline-block',
  py: '1',
  fontSize: 'sm',
  color: 'fg.onInverseMuted',
  textDecoration: 'none',
  _hover: { color: 'fg.onInverse', textDecoration: 'underline' },
})

/** SPEC.md §2: footer links with no target yet (placeholders); Track Order is real (issue 22). */
function Placeholder({ children }: { children: ReactNode }) {
  return (
    <a role="link" aria-disabled="true" className={linkClass} style={{ cursor: 'default' }}>
      {children}
    </a>
  )
}

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className={heading}>{title}</h2>
      <ul>{children}</ul>
    </div>
  )
}

/**
 * The storefront footer (SPEC.md §2 and DESIGN.md §9): Shop, Customer Care, Our Company and
 * Get Connected columns, "Pickup or delivery?", then the FDA disclaimer, the licence number, the
 * California government warning and the Prop 65 notice.
 */
export function SiteFooter() {
  const { facts: shop } = useShopSettings()
  const [textOpen, setTextOpen] = useState(false)
  const [textOpened, setTextOpened] = useState(false)
  if (textOpen && !textOpened) setTextOpened(true)
  const year = new Date().getFullYear()
  return (
    <footer
      className={css({
        bg: 'bg.inverse',
        color: 'fg.onInverseMuted',
        mt: '16',
        // Below the first screen on every page: laid out and painted when scrolled near.
        contentVisibility: 'auto',
        containIntrinsicSize: 'auto 56rem',
      })}
    >
      <div
        className={css({
          maxW: '7xl',
          mx: 'auto',
          px: { base: '4', md: '8' },
          pt: '12',
          pb: '8',
          display: 'grid',
          gap: '8',
          gridTemplateColumns: {
            base: '1fr 1fr',
            md: 'repeat(3, 1fr)',
            lg: '1.4fr repeat(4, 1fr)',
          },
        })}
      >
        <div className={css({ gridColumn: { base: '1 / -1', md: '1 / -1', lg: 'auto' } })}>
          <BrandLogo tone="inverse" />
          <p className={css({ mt: '3', fontStyle: 'italic', color: 'fg.onInverse' })}>
            {shop.slogan}
          </p>
          <p className={css({ mt: '2', fontSize: 'sm' })}>
            California-grown cannabis, direct from farms. No middleman.
          </p>
          <p
            className={css({
              mt: '4',
              display: 'inline-flex',
              alignItems: 'center',
              gap: '2',
              fontWeight: 'semibold',
              color: 'fg.onInverse',
            })}
          >
            <TruckIcon size={18} /> Pickup or delivery?
          </p>
          <p className={css({ fontSize: 'sm', mt: '1' })}>
            <OpenStatusText phone />:{' '}
            {/* Underlined: inside a sentence, colour alone would not set it apart (WCAG 1.4.1). */}
            <a
              href={telUri(shop)}
              className={css({ color: 'fg.onInverse', textDecoration: 'underline' })}
            >
              {shop.phone.display}
            </a>
          </p>
        </div>
        <Column title="Shop">
          {MENU.map((entry) => (
            <li key={entry.slug}>
              {entry.slug === 'all' ? (
                <Link to="/menu" className={linkClass}>
                  {entry.name}
                </Link>
              ) : (
                <Link to="/menu/$category" params={{ category: entry.slug }} className={linkClass}>
                  {entry.name}
                </Link>
              )}
            </li>
          ))}
          <li>
            <Link to="/marketplace" className={linkClass}>
              Marketplace
            </Link>
          </li>
        </Column>
        <Column title="Customer Care">
          <li>
            <Link to="/contact" className={linkClass}>
              Contact Us
            </Link>
          </li>
          {['FAQs', 'Delivery Info'].map((label) => (
            <li key={label}>
              <Placeholder>{label}</Placeholder>
            </li>
          ))}
          <li>
            <Link to="/track" className={linkClass}>
              Track Order
            </Link>
          </li>
          {['Returns', 'Admin Login'].map((label) => (
            <li key={label}>
              <Placeholder>{label}</Placeholder>
            </li>
          ))}
        </Column>
        <Column title="Our Company">
          {['About Us', 'Careers', 'Press', 'Privacy Policy', 'Terms of Use', 'Accessibility'].map(
            (label) => (
              <li key={label}>
                <Placeholder>{label}</Placeholder>
              </li>
            ),
          )}
        </Column>
        <div>
          <h2 className={heading}>Get Connected</h2>
          <p className={css({ fontSize: 'sm', mb: '3' })}>
            Drops, restocks and deals, straight to your phone.
          </p>
          <button
            type="button"
            onClick={() => setTextOpen(true)}
            className={button({ variant: 'deal' })}
          >
            <MessageIcon size={16} /> Get Text Updates
          </button>
          <p className={css({ fontSize: 'sm', mt: '4' })}>
            <a href={mailtoUri(shop)} className={css({ color: 'fg.onInverse' })}>
              {shop.email}
            </a>
          </p>
        </div>
      </div>
      <div className={css({ borderTopWidth: '1px', borderColor: 'accent.solidHover' })}>
        <div
          className={css({
            maxW: '7xl',
            mx: 'auto',
            px: { base: '4', md: '8' },
            py: '6',
            display: 'grid',
            gap: '3',
            fontSize: 'xs',
            lineHeight: 'relaxed',
          })}
        >
          <p>
            <strong className={css({ color: 'fg.onInverse' })}>FDA disclaimer:</strong> Cannabis
            products have not been evaluated by the FDA. They are not intended to diagnose, treat,
            cure or prevent any disease.
          </p>
          <p>
            <strong className={css({ color: 'fg.onInverse' })}>GOVERNMENT WARNING:</strong> THIS
            PRODUCT CONTAINS CANNABIS, A SCHEDULE I CONTROLLED SUBSTANCE. KEEP OUT OF REACH OF
            CHILDREN AND ANIMALS. CANNABIS MAY ONLY BE POSSESSED OR CONSUMED BY PERSONS 21 YEARS OF
            AGE OR OLDER UNLESS THE PERSON IS A QUALIFIED PATIENT. THE INTOXICATING EFFECTS OF
            CANNABIS MAY BE DELAYED UP TO TWO HOURS. CANNABIS USE WHILE PREGNANT MAY BE HARMFUL.
            CONSUMPTION OF CANNABIS IMPAIRS YOUR ABILITY TO DRIVE AND OPERATE MACHINERY. PLEASE USE
            EXTREME CAUTION.
          </p>
          <p>
            <strong className={css({ color: 'fg.onInverse' })}>⚠ WARNING:</strong> Consuming
            cannabis products can expose you to chemicals, including delta-9-THC and cannabis smoke,
            which are known to the State of California to cause cancer and birth defects or other
            reproductive harm. For more information go to{' '}
            <a
              href="https://www.p65warnings.ca.gov"
              target="_blank"
              rel="noreferrer"
              className={css({ textDecoration: 'underline' })}
            >
              www.P65Warnings.ca.gov
            </a>
            .
          </p>
          <p
            className={css({
              display: 'flex',
              flexWrap: 'wrap',
              justifyContent: 'space-between',
              gap: '2',
              pt: '3',
              color: 'fg.onInverse',
            })}
          >
            <span>
              © {year} {shop.name}. Adults 21+ only. California DCC License {shop.licenceNumber}
            </span>
            <span>
              {shop.address.street}, {shop.address.city}, {shop.address.state} {shop.address.zip}
            </span>
          </p>
        </div>
      </div>
      {textOpened && (
        <Suspense fallback={null}>
          <TextUpdatesDialog open={textOpen} onOpenChange={setTextOpen} />
        </Suspense>
      )}
    </footer>
  )
}
