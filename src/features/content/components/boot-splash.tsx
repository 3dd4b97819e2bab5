import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import {
  HOLD_LIMIT_MS,
  onSplashHoldsChange,
  PRERENDER_LIMIT_MS,
  prerendered,
  prerenderHeld,
  splashHeld,
  startingUp,
  startUpDone,
} from '../../../lib/splash-hold'
import { COPY_ID, PAGE_READY_ATTRIBUTE, SPLASH_ID } from '../../../lib/shell-markup'

/** SPEC.md §1/§9: +4 % every 30 ms to 100 %, then the routes appear after 200 ms. */
const STEP = 4
const TICK_MS = 30
const REVEAL_DELAY_MS = 200

/** When the routes may show, counted from navigation start: 100 % after 25 ticks, then 200 ms. */
const REVEAL_AT_MS = (100 / STEP) * TICK_MS + REVEAL_DELAY_MS

/**
 * Takes index.html's splash away, and the server's copy of the page if it came with one (once
 * the count is over and the page is ready, or when an error page must show).
 */
export function removeBootSplash() {
  document.getElementById(SPLASH_ID)?.remove()
  const copy = document.getElementById(COPY_ID)
  if (copy) {
    // Hidden at once; its thousands of nodes are taken out of the document in a task of their
    // own, not in the commit that shows the page.
    copy.removeAttribute('id')
    copy.hidden = true
    setTimeout(() => copy.remove(), 500)
  }
  startUpDone()
}

const PAGE_READY_MARK = 'humo:page-ready'

// Out of the flow, so a server copy showing meanwhile keeps its own height and scroll.
const hiddenPage = css({ visibility: 'hidden', position: 'fixed', inset: '0', overflow: 'hidden' })

/**
 * Holds the storefront behind SPEC.md's start-up splash. index.html draws the splash (logo,
 * tagline, "Loading your cannabis experience..." and the counter) over the page at the first
 * paint and ticks it from navigation start (docs/decisions/006-splash-from-navigation-start.md). The page renders underneath from the
 * start, hidden and inert, so its chunks, its queries of the device database and its first
 * layout are done while the count runs; when the count is over the splash is taken away and the
 * page is there in the same frame. A page still reading its first data from the device holds the
 * splash a little longer (src/lib/splash-hold.ts), so it does not leave onto skeletons.
 * A storefront reached after the page started on /admin (which removes the splash at once) has
 * no splash: the start is over.
 * A first visit through the network may come with the server's copy of the page (docs/decisions/010-server-copy-of-catalogue-pages.md),
 * which index.html shows when the count is over. The app's page then takes its place once it has
 * its content as well: its first sync done, no skeletons (PRERENDER_LIMIT_MS at most).
 */
export function BootSplash({ children }: { children: ReactNode }) {
  const [done, setDone] = useState(() => !startingUp())

  useEffect(() => {
    if (done) return
    // The copy stays until this effect's reveal takes it away.
    const serverCopy = prerendered()
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    // SPEC's count first; then, for a little longer at most, the page's first read of the device
    // (with a server copy showing: until the page has its content).
    const revealWhenDue = () => {
      if (!live) return
      clearTimeout(timer)
      const now = performance.now()
      const held = serverCopy ? prerenderHeld() : splashHeld()
      const limit = serverCopy ? PRERENDER_LIMIT_MS : HOLD_LIMIT_MS
      // For tests/bench/offline-start-bench.ts: when the page had its content, splash or not.
      if (!held && performance.getEntriesByName(PAGE_READY_MARK).length === 0)
        performance.mark(PAGE_READY_MARK)
      const splash = document.getElementById(SPLASH_ID)
      // With a copy under the splash: a page ready when the count is over takes the splash away
      // itself (index.html's timer leaves it then), so the copy is not shown for the moment
      // before this commit, nor styled and laid out for it. A page still held lets the copy show.
      if (serverCopy) splash?.toggleAttribute(PAGE_READY_ATTRIBUTE, !held)
      if (now < REVEAL_AT_MS) timer = setTimeout(revealWhenDue, REVEAL_AT_MS - now)
      else if (held && now < limit) {
        if (serverCopy) splash?.remove()
        timer = setTimeout(revealWhenDue, limit - now)
      } else setDone(true)
    }
    // After the commit's effects have all run: a page trading its device-read hold for a skeleton
    // hold releases one before it takes the other.
    const unsubscribe = onSplashHoldsChange(() => queueMicrotask(revealWhenDue))
    revealWhenDue()
    return () => {
      live = false
      clearTimeout(timer)
      unsubscribe()
    }
  }, [done])
  // Taken away in the commit that unhides the page, so no frame shows neither (the timer only
  // asks React for that commit, which may come a moment later).
  useLayoutEffect(() => {
    if (done) removeBootSplash()
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
