import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import { isApplePlatform, shortcutKeys } from '../platform-keys'
import { iconButton } from './admin-styles'

type Props = {
  email: string
  theme: 'dark' | 'light'
  onToggleTheme: () => void
  onOpenPalette: () => void
  onSignOut: () => void
  signingOut: boolean
  /** "Install app" while the browser offers installation (the pwa feature's button). */
  installSlot?: ReactNode
}

export function AdminHeader(props: Props) {
  const palette = shortcutKeys('K', isApplePlatform())
  return (
    <header
      className={css({
        alignItems: 'center',
        bg: 'bg.surface',
        borderBottomWidth: '1px',
        borderColor: 'border.default',
        display: 'flex',
        flexWrap: 'wrap',
        gap: '3',
        justifyContent: 'space-between',
        px: { base: '4', md: '8' },
        py: '3',
        position: 'sticky',
        top: '0',
        zIndex: 'sticky',
      })}
    >
      <div className={css({ alignItems: 'center', display: 'flex', gap: '3' })}>
        <h1 className={css({ fontFamily: 'heading', fontSize: 'xl', fontWeight: 'bold' })}>
          Humo Admin
        </h1>
        <span className={badge({ tone: 'accent' })}>Dashboard</span>
      </div>
      <div
        className={css({
          alignItems: 'center',
          display: 'flex',
          flexWrap: 'wrap',
          gap: '2',
          justifyContent: 'flex-end',
        })}
      >
        <span
          className={css({
            color: 'fg.muted',
            display: { base: 'none', md: 'inline' },
            fontSize: 'sm',
          })}
        >
          {props.email}
        </span>
        {props.installSlot}
        <button
          type="button"
          className={iconButton}
          onClick={props.onToggleTheme}
          aria-label={props.theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          title="Toggle theme"
        >
          {props.theme === 'dark' ? (
            <svg
              width="18"
              height="18"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              aria-hidden
            >
              <circle cx="12" cy="12" r="4" />
              <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
            </svg>
          ) : (
            <svg
              width="18"
              height="18"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              aria-hidden
            >
              <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
            </svg>
          )}
        </button>
        <Button
          variant="outline"
          size="sm"
          onClick={props.onOpenPalette}
          aria-keyshortcuts={palette.aria}
        >
          Command
          <kbd
            className={css({
              color: 'fg.subtle',
              // A phone has no keyboard shortcut to show, and needs the room.
              display: { base: 'none', md: 'inline' },
              fontFamily: 'mono',
              fontSize: 'xs',
            })}
          >
            {palette.label}
          </kbd>
        </Button>
        <Button variant="ghost" size="sm" onClick={props.onSignOut} disabled={props.signingOut}>
          Sign Out
        </Button>
      </div>
    </header>
  )
}
