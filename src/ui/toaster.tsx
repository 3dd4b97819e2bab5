import { Suspense, lazy, useEffect, useState } from 'react'
import { importWhenReachable } from '../lib/import-when-reachable'
import type { ToastOptions } from './ark-toaster'

// Toasts follow a tap (Add to cart, Save), so Ark UI's toast machinery is not among the page's
// scripts: it is fetched once the page has settled (warmToaster), or with the first toast if
// that comes sooner; toasts asked for meanwhile wait in a queue.
const loadToaster = importWhenReachable(() => import('./ark-toaster'))
const ArkToaster = lazy(() => loadToaster().then((module) => ({ default: module.Toaster })))

/**
 * Fetches the toasts' code ahead of the first one, once the page has settled and while online.
 * A first visit whose signal goes before the service worker holds the code still says "added to
 * your cart": Chromium keeps a failed module fetch as failed for the page's life (150 does; the
 * retry in importWhenReachable cannot get it back), so code first asked for offline would never
 * come in that page.
 */
export function warmToaster(): void {
  if (navigator.onLine) void loadToaster()
}

const queued: ToastOptions[] = []
let show: ((options: ToastOptions) => void) | undefined
let wake: (() => void) | undefined

function ready(create: ((options: ToastOptions) => void) | undefined) {
  show = create
  if (create) for (const options of queued.splice(0)) create(options)
}

/** The app's one toaster (SPEC.md §9): bottom-right, 4000 ms, 3 visible, 14 px gap, Alt+T. */
export const toaster = {
  create(options: ToastOptions): void {
    if (show) return show(options)
    queued.push(options)
    wake?.()
  },
}

/** Mount once, at the root of the app. */
export function Toaster() {
  const [wanted, setWanted] = useState(false)
  useEffect(() => {
    wake = () => setWanted(true)
    if (queued.length) setWanted(true)
    return () => {
      wake = undefined
    }
  }, [])
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <ArkToaster onReady={ready} />
    </Suspense>
  )
}
