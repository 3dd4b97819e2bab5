import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from '@tanstack/react-router'
import './index.css'
import { DataProvider } from './data/data-context'
import { startHumoData } from './data/humo-data'
import { startInstallPrompt } from './features/pwa/install-prompt'
import { serviceWorkerEnabled, startServiceWorker } from './features/pwa/service-worker'
import { prerendered } from './lib/splash-hold'
import { whenSettled } from './lib/when-settled'
import { yieldToMain } from './lib/yield-to-main'
import { createHumoRouter } from './router'
import { warmToaster } from './ui/toaster'

declare global {
  interface Window {
    /** index.html's message, in the splash's place, for a start that failed (docs/decisions/040-https-on-the-shops-network.md). */
    humoStartFailed?: (error: unknown) => void
  }
}

/**
 * The built index.html loads the app's stylesheet without holding the first paint (only the
 * splash shows until then); nothing of the app may render before it applies.
 */
function stylesheetApplied(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[data-app-css]')
  return new Promise((resolve) => {
    const applied = () => !link || (link.rel === 'stylesheet' && link.sheet !== null)
    if (applied()) return resolve()
    // The preload's load switches it to a stylesheet, which loads (from memory) once more.
    const onLoad = () => {
      if (!applied()) return
      link?.removeEventListener('load', onLoad)
      resolve()
    }
    link?.addEventListener('load', onLoad)
    link?.addEventListener('error', () => resolve(), { once: true })
  })
}

// Marks for tests/bench/offline-start-bench.ts: where a start's time goes.
performance.mark('humo:scripts-ready')
startInstallPrompt()
// The start is cut into tasks (evaluating the scripts; the router; opening the database; the
// first render) so that none holds the main thread for long on a slow phone.
await yieldToMain()
// With a copy of the page on screen (the server's, on a first visit, or one this device kept,
// docs/decisions/013-starts-from-a-kept-copy.md) nobody waits on the start: it goes in shorter slices. Behind the splash, the
// shopper waits for the page: it goes as fast as it can.
const unhurried = prerendered()
const router = createHumoRouter()
// Asking for the route's code starts its modules' fetches and compiles (~10 ms).
if (unhurried) await yieldToMain()
// The page's own code (the route's lazy chunks) loads while the device database opens, so both
// are ready together behind the start-up splash.
// RouterProvider loads again when it mounts (cheap then); a failure here surfaces there.
router.load().catch(() => undefined)
await yieldToMain()
const [data] = await Promise.all([
  startHumoData({ unhurried }).then(
    (ready) => {
      performance.mark('humo:data-ready')
      return ready
    },
    // The device database did not open (no crypto.subtle, a private window's storage, a full
    // disk): a message and "Try again", not a splash that never ends.
    (error: unknown) => {
      window.humoStartFailed?.(error)
      throw error
    },
  ),
  stylesheetApplied(),
])
// The back office's tabs are staff devices whose shift may go offline at any moment, and no first
// visit there is measured for speed: their worker registers at load, as it used to.
startServiceWorker(location.pathname.startsWith('/admin') ? Promise.resolve() : data.firstSync)
void whenSettled(data.firstSync).then(warmToaster)
// Warming only ever follows a sync, so its code comes once the page has settled, not at boot.
if (serviceWorkerEnabled())
  void whenSettled(data.firstSync)
    .then(() => import('./features/pwa/media-warming'))
    .then(({ startMediaWarming }) => startMediaWarming(data))
    .catch((error: unknown) => console.warn('media warming', error))
await yieldToMain()

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')
// A transition, so React renders the first page in slices that leave the main thread free
// between them (the splash keeps counting; a slow phone's input is not blocked for long).
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <DataProvider data={data}>
        <RouterProvider router={router} />
      </DataProvider>
    </StrictMode>,
  ),
)
