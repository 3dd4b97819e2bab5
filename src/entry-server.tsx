/**
 * Renders a storefront page to HTML on the server (built apart by `vite build --ssr`, used by
 * supabase/local/site/prerender.ts): the same route components the browser renders, reading a
 * catalogue snapshot instead of the device database. The shop sends it with the page so that a
 * first visit paints the page itself, not only the splash, before the app's scripts arrive
 * (docs/decisions/010-server-copy-of-catalogue-pages.md). The browser does not hydrate it: src/main.tsx renders its own page and swaps it
 * in (BootSplash).
 */
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { prerenderToNodeStream } from 'react-dom/static'
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router'
import type { BackendConfig } from './data/backend-config'
import { DataProvider } from './data/data-context'
import { createSnapshotData, type CatalogueSnapshot } from './data/snapshot-data'
import { createHumoRouter } from './router'

export { snapshotOf, type CatalogueRows, type CatalogueSnapshot } from './data/snapshot-data'

/** React's mark of a boundary drawn as its fallback (it suspended or failed), left to the browser. */
const SUSPENDED = '<!--$!-->'

export type RenderedPage = { html: string; status: 200 | 404 }

/**
 * The page at `url` (path and query), or null when it is not one to render here (a redirect:
 * the browser's router follows it).
 */
export async function renderPage(
  url: string,
  snapshot: CatalogueSnapshot,
  config: BackendConfig,
): Promise<RenderedPage | null> {
  const router = createHumoRouter(createMemoryHistory({ initialEntries: [url] }))
  await router.load()
  // What the router's server load concluded (it keeps it for its own SSR, which this is not).
  const result = (router as { _serverResult?: { type: string; status?: number } })._serverResult
  if (result?.type !== 'render') return null
  const status = result.status === 404 ? 404 : 200
  const page = (
    <StrictMode>
      <DataProvider data={createSnapshotData(snapshot, config)}>
        <RouterProvider router={router} />
      </DataProvider>
    </StrictMode>
  )
  let html = renderToString(page)
  const errors: unknown[] = []
  if (html.includes(SUSPENDED)) {
    // A part was still loading (or failed): wait for it (a static render waits for everything),
    // then draw the page again in one piece. (The static render's own HTML reveals late parts
    // with scripts, which the copy does not run.)
    const { prelude } = await prerenderToNodeStream(page, {
      onError: (error) => void errors.push(error),
    })
    for await (const chunk of prelude) void chunk
    html = renderToString(page)
  }
  // A part that failed, or never loaded, would be its fallback or error page: no copy then.
  if (html.includes(SUSPENDED)) throw new AggregateError(errors, `rendering ${url} failed`)
  return { html, status }
}
