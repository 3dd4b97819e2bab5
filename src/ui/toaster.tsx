import { Suspense, lazy, useEffect, useState } from 'react'
import { importWhenReachable } from '../lib/import-when-reachable'
import type { ToastOptions } from './ark-toaster'

// Toasts follow a tap (Add to cart, Save), so Ark UI's toast machinery is fetched with the
// first one instead of with the page; toasts asked for meanwhile wait in a queue.
// Offline before the service worker holds it, it arrives with the connection (the queue waits).
const loadToaster = importWhenReachable(() => import('./ark-toaster'))
const ArkToaster = lazy(() => loadToaster().then((module) => ({ default: module.Toaster })))

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
