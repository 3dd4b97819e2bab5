import { useEffect, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'

/** SPEC.md §1/§9: +4 % every 30 ms to 100 %, then the routes appear after 200 ms. */
const STEP = 4
const TICK_MS = 30
const REVEAL_DELAY_MS = 200

/** When the routes may show, counted from navigation start: 100 % after 25 ticks, then 200 ms. */
export const REVEAL_AT_MS = (100 / STEP) * TICK_MS + REVEAL_DELAY_MS

/** Takes index.html's splash away (once the count is over, or when an error page must show). */
export function removeBootSplash() {
  document.getElementById('boot-splash')?.remove()
}

const hiddenPage = css({ visibility: 'hidden', h: '100dvh', overflow: 'hidden' })

/**
 * Holds the storefront behind SPEC.md's start-up splash. index.html draws the splash (logo,
 * tagline, "Loading your cannabis experience..." and the counter) over the page at the first
 * paint and ticks it from navigation start (decision 006). The page renders underneath from the
 * start, hidden and inert, so its chunks, its queries of the device database and its first
 * layout are done while the count runs; when the count is over the splash is taken away and the
 * page is there in the same frame.
 * A storefront reached after the page started on /admin (which removes the splash at once) has
 * no splash: the start is over.
 */
export function BootSplash({ children }: { children: ReactNode }) {
  const [done, setDone] = useState(() => document.getElementById('boot-splash') === null)

  useEffect(() => {
    if (done) return
    const timer = setTimeout(
      () => {
        removeBootSplash()
        setDone(true)
      },
      Math.max(0, REVEAL_AT_MS - performance.now()),
    )
    return () => clearTimeout(timer)
  }, [done])

  return (
    <div
      className={done ? undefined : hiddenPage}
      inert={!done}
      aria-hidden={done ? undefined : true}
    >
      {children}
    </div>
  )
}
