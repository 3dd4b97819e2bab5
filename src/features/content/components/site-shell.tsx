import { useRouterState } from '@tanstack/react-router'
import { useEffect, useRef, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { LiveRegion } from '../../../ui/live-region'
import { AgeGate } from './age-gate'
import { BootSplash } from './boot-splash'
import { SiteFooter } from './site-footer'
import { SiteHeader } from './site-header'

/**
 * The storefront frame: the boot splash, then the 21+ gate, then header, page and footer.
 * Pages render inside one centred column (max 7xl) with the shell's padding.
 * The back office (/admin) brings its own frame and skips all three.
 */
export function SiteShell({
  cartSlot,
  statusSlot,
  installSlot,
  children,
}: {
  cartSlot: ReactNode
  /** Shown under the header: the connection and sync status. */
  statusSlot?: ReactNode
  /** In the header's actions: the "Install app" button while the browser offers it. */
  installSlot?: ReactNode
  children: ReactNode
}) {
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  // After a move to another page, focus starts at its content (as after "Skip to main content"),
  // not somewhere in the middle where the link that was pressed used to be. Not on first load.
  const shown = useRef('')
  useEffect(() => {
    if (shown.current) document.getElementById('main')?.focus({ preventScroll: true })
    shown.current = pathname
  }, [pathname])
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return children
  return (
    <BootSplash>
      <AgeGate>
        <div className={css({ minH: '100dvh', display: 'flex', flexDirection: 'column' })}>
          {/* Skip links (WCAG 2.4.1): plain in-page links, styled in panda.config.ts; the browser
              moves focus to the target (tabIndex -1) and the next Tab goes on from there. */}
          <div data-skip-links>
            <a href="#main">Skip to main content</a>
            {(pathname === '/' || pathname.startsWith('/menu')) && (
              <a href="#products">Skip to products</a>
            )}
            {pathname.startsWith('/menu') && <a href="#filters">Skip to filters</a>}
          </div>
          <SiteHeader cartSlot={cartSlot} installSlot={installSlot} />
          {statusSlot}
          <div
            id="main"
            tabIndex={-1}
            className={css({
              flex: '1',
              w: 'full',
              maxW: '7xl',
              mx: 'auto',
              px: { base: '4', md: '8' },
              py: { base: '5', md: '8' },
            })}
          >
            {children}
          </div>
          <SiteFooter />
          <LiveRegion />
        </div>
      </AgeGate>
    </BootSplash>
  )
}
