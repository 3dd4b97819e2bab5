import { useEffect, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { SHOP } from '../../../lib/shop'
import { LeafIcon } from '../../../ui/icons'

/** SPEC.md §1/§9: +4 % every 30 ms to 100 %, then the routes appear after 200 ms. */
const STEP = 4
const TICK_MS = 30
const REVEAL_DELAY_MS = 200

// NOTE: module state, so the splash shows once per page load, not on every navigation.
let booted = false

/**
 * The counter as it stands now: it starts at navigation, when index.html draws the same splash,
 * so the opening of the device database runs behind it instead of before it.
 */
const progressNow = () => Math.min(100, Math.floor(performance.now() / TICK_MS) * STEP)

/** The start-up splash: logo, tagline, "Loading your cannabis experience..." and a counter. */
export function BootSplash({ children }: { children: ReactNode }) {
  const [progress, setProgress] = useState(() => (booted ? 100 : progressNow()))
  const [done, setDone] = useState(booted)

  useEffect(() => {
    if (done) return
    const timer = setInterval(() => setProgress(progressNow()), TICK_MS)
    return () => clearInterval(timer)
  }, [done])

  useEffect(() => {
    if (done || progress < 100) return
    const timer = setTimeout(() => {
      booted = true
      setDone(true)
    }, REVEAL_DELAY_MS)
    return () => clearTimeout(timer)
  }, [done, progress])

  if (done) return children
  return (
    <div
      role="status"
      aria-live="polite"
      className={css({
        minH: '100dvh',
        display: 'grid',
        placeItems: 'center',
        bg: 'bg.inverse',
        color: 'fg.onInverse',
        textAlign: 'center',
        px: '6',
      })}
    >
      <div
        className={css({
          display: 'grid',
          gap: '4',
          justifyItems: 'center',
          w: 'full',
          maxW: 'xs',
        })}
      >
        <span
          className={css({
            display: 'grid',
            placeItems: 'center',
            w: '20',
            h: '20',
            borderRadius: 'full',
            bg: 'accent.solidHover',
            animation: 'pulse 1.6s ease-in-out infinite',
          })}
        >
          <LeafIcon size={44} />
        </span>
        <p className={css({ fontFamily: 'heading', fontSize: '4xl', fontWeight: 'bold' })}>
          {SHOP.name}
        </p>
        <p className={css({ fontStyle: 'italic', color: 'fg.onInverseMuted' })}>{SHOP.slogan}</p>
        <p className={css({ fontSize: 'sm', mt: '2' })}>Loading your cannabis experience...</p>
        <div
          role="progressbar"
          aria-label="Loading"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          className={css({
            w: 'full',
            h: '1.5',
            bg: 'accent.solid',
            borderRadius: 'full',
            overflow: 'hidden',
          })}
        >
          <div
            className={css({ h: 'full', bg: 'fg.onInverse', transition: 'width 30ms linear' })}
            style={{ width: `${progress}%` }}
          />
        </div>
        <p
          className={css({
            fontSize: 'xs',
            fontVariantNumeric: 'tabular-nums',
            color: 'fg.onInverseMuted',
          })}
        >
          {progress}%
        </p>
      </div>
    </div>
  )
}
