import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

/** The skeleton's header and page frame; the storefront issue replaces it with SPEC.md's header. */
export function SiteShell({ children }: { children: ReactNode }) {
  return (
    <div className={css({ minH: '100dvh', display: 'flex', flexDirection: 'column' })}>
      <header
        className={css({
          bg: 'accent.solid',
          color: 'fg.onAccent',
          px: { base: '4', md: '8' },
          h: '16',
          display: 'flex',
          alignItems: 'center',
          gap: '6',
        })}
      >
        <Link
          to="/"
          className={css({
            fontFamily: 'heading',
            fontSize: '2xl',
            fontWeight: 'bold',
            textDecoration: 'none',
          })}
        >
          Humo
        </Link>
        <nav className={css({ display: 'flex', gap: '4', fontSize: 'sm' })}>
          <Link
            to="/menu"
            className={css({ textDecoration: 'none', _hover: { textDecoration: 'underline' } })}
          >
            Shop All
          </Link>
        </nav>
      </header>
      <div
        className={css({
          flex: '1',
          w: 'full',
          maxW: '7xl',
          mx: 'auto',
          px: { base: '4', md: '8' },
          py: '8',
        })}
      >
        {children}
      </div>
    </div>
  )
}
