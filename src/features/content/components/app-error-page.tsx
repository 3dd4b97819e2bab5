import { Link, type ErrorComponentProps } from '@tanstack/react-router'
import { useEffect } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { removeBootSplash } from './boot-splash'

function describe(error: unknown): string {
  if (error && typeof error === 'object') {
    const { status, statusText, message } = error as {
      status?: number
      statusText?: string
      message?: string
    }
    if (status) return [status, statusText].filter(Boolean).join(' ')
    if (message) return message
  }
  return String(error)
}

/** SPEC.md §8: an unexpected routing failure shows this fallback with the status or message. */
export function AppErrorPage({ error, reset }: ErrorComponentProps) {
  // The root's error page replaces the shell, and with it the splash's timer.
  useEffect(removeBootSplash, [])
  return (
    <main
      className={css({
        minH: '60dvh',
        display: 'grid',
        placeItems: 'center',
        textAlign: 'center',
        px: '6',
        py: '12',
      })}
    >
      <div className={css({ maxW: 'lg', display: 'grid', gap: '4', justifyItems: 'center' })}>
        <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}>
          Unexpected Application Error!
        </h1>
        <pre
          className={css({
            fontSize: 'sm',
            color: 'danger.fg',
            bg: 'danger.subtle',
            px: '4',
            py: '3',
            borderRadius: 'md',
            whiteSpace: 'pre-wrap',
            maxW: 'full',
          })}
        >
          {describe(error)}
        </pre>
        <div className={css({ display: 'flex', gap: '3' })}>
          <button type="button" className={button()} onClick={reset}>
            Try again
          </button>
          <Link to="/" className={button({ variant: 'outline' })}>
            Return to Home
          </Link>
        </div>
      </div>
    </main>
  )
}
