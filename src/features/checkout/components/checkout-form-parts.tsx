import { useEffect, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'

export const field = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
  fontSize: 'sm',
  fontWeight: 'medium',
})
export const input = css({
  h: '11',
  px: '3',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  fontSize: 'md',
  fontWeight: 'normal',
  _disabled: { bg: 'bg.muted', color: 'fg.muted' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' },
})
export const grid = css({
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
})
export const choice = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'md',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
})
export const hint = css({ fontSize: 'sm', color: 'fg.muted' })
export const problem = css({ color: 'danger.fg', fontSize: 'sm' })

/** One of checkout's sections (SPEC.md §3: several may be open; a check once filled). */
export function Section({
  title,
  done,
  children,
}: {
  title: string
  done: boolean
  children: ReactNode
}) {
  return (
    <details
      open
      className={css({ bg: 'bg.surface', borderRadius: 'lg', boxShadow: 'card', p: '5' })}
    >
      <summary
        className={css({
          cursor: 'pointer',
          fontWeight: 'bold',
          fontSize: 'lg',
          display: 'flex',
          alignItems: 'center',
          gap: '2',
        })}
      >
        {title}
        {done && (
          <span aria-label={`${title} complete`} className={css({ color: 'accent.fg' })}>
            ✓
          </span>
        )}
      </summary>
      <div className={css({ mt: '4', display: 'flex', flexDirection: 'column', gap: '4' })}>
        {children}
      </div>
    </details>
  )
}

/** The clock the pickup windows and the day's rules are read from, moved on every minute. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000)
    return () => clearInterval(timer)
  }, [])
  return now
}
