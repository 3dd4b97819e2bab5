import { useRouterState } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
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
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return children
  return (
    <BootSplash>
      <AgeGate>
        <div className={css({ minH: '100dvh', display: 'flex', flexDirection: 'column' })}>
          <a
            href="#main"
            className={css({
              srOnly: true,
              _focus: {
                srOnly: false,
                position: 'fixed',
                top: '2',
                left: '2',
                zIndex: 'skipLink',
                bg: 'bg.surface',
                p: '2',
              },
            })}
          >
            Skip to content
          </a>
          <SiteHeader cartSlot={cartSlot} installSlot={installSlot} />
          {statusSlot}
          <div
            id="main"
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
        </div>
      </AgeGate>
    </BootSplash>
  )
}
