/**
 * Humo's service worker (vite-plugin-pwa, injectManifest). It precaches the app shell so the shop
 * opens with no signal, answers navigations with the shell, keeps product media it has seen (and
 * the catalogue's images the app asks it to warm), and answers video byte ranges from the cache.
 * It never caches the backend's API: RxDB holds the data.
 */
/// <reference lib="webworker" />
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkFirst } from 'workbox-strategies'
import { ExpirationPlugin } from 'workbox-expiration'
import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { createPartialResponse, RangeRequestsPlugin } from 'workbox-range-requests'
import { clientsClaim, type WorkboxPlugin } from 'workbox-core'
import {
  isPublicMediaUrl,
  isVideoUrl,
  isWarmMediaMessage,
  MEDIA_CACHE,
  MEDIA_MAX_ENTRIES,
  VIDEO_CACHE,
  WARM_MEDIA_LIMIT,
  type WarmMediaResult,
} from '../src/lib/media-cache'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] }

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

// NOTE: no route ever matches the backend's API (/rest, /auth, /realtime, rpc under /rest), so
// those requests go straight to the network; the navigation fallback must not swallow them either.
const API = /^\/(rest|auth|realtime)\/v1\//

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [API, /^\/storage\/v1\//],
  }),
)

const MONTH = 30 * 24 * 3600

const withoutFragment = (url: string) => url.split('#')[0]!

/**
 * Media is fetched whole and in CORS mode: a hosted backend is on another origin, and an opaque
 * answer to an <img> would be cached at a padded size that fills the quota. Dropping Range means
 * the network gives the complete file (200), which is what gets cached; ranges are cut from it.
 * Cache keys leave out the fragment (`#t=0.001` on video posters): one entry per file.
 */
const wholeFileRequest: WorkboxPlugin = {
  requestWillFetch: ({ request }) =>
    Promise.resolve(
      new Request(withoutFragment(request.url), { mode: 'cors', credentials: 'omit' }),
    ),
  cacheKeyWillBeUsed: ({ request }) =>
    Promise.resolve(request.url.includes('#') ? withoutFragment(request.url) : request),
}

/**
 * A range asked while the file was not cached yet gets its slice of the complete answer. `bytes=0-`
 * (how Chromium opens a video) may take the whole 200 as it streams, which HTTP allows.
 */
const rangeOfWholeFile: WorkboxPlugin = {
  handlerWillRespond: async ({ request, response }) => {
    const range = request.headers.get('range')
    if (!range || response.status !== 200 || /^bytes=0-$/i.test(range.trim())) return response
    return createPartialResponse(request, response)
  },
}

const isMedia = (url: URL, request: Request) => request.method === 'GET' && isPublicMediaUrl(url)

const videoStrategy = new CacheFirst({
  cacheName: VIDEO_CACHE,
  plugins: [
    wholeFileRequest,
    new CacheableResponsePlugin({ statuses: [200] }),
    new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: MONTH, purgeOnQuotaError: true }),
    new RangeRequestsPlugin(),
    rangeOfWholeFile,
  ],
})

const imageStrategy = new CacheFirst({
  cacheName: MEDIA_CACHE,
  plugins: [
    wholeFileRequest,
    new CacheableResponsePlugin({ statuses: [200] }),
    new ExpirationPlugin({
      maxEntries: MEDIA_MAX_ENTRIES,
      maxAgeSeconds: MONTH,
      purgeOnQuotaError: true,
    }),
  ],
})

registerRoute(({ url, request }) => isMedia(url, request) && isVideoUrl(url), videoStrategy)
registerRoute(({ url, request }) => isMedia(url, request) && !isVideoUrl(url), imageStrategy)

// The backend's address for builds served by the embedded backend; the app also remembers it.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/humo-config.json',
  new NetworkFirst({ cacheName: 'humo-config', networkTimeoutSeconds: 3 }),
)

const WARM_CONCURRENCY = 3

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw, self.location.origin)
  } catch {
    return null
  }
}

/** Fetches the images the cache lacks, a few at a time, through the same strategy as <img>. */
async function warmMedia(event: ExtendableEvent, urls: string[]): Promise<WarmMediaResult> {
  const accepted = [
    ...new Set(
      urls.filter((raw) => {
        const url = parseUrl(raw)
        return url !== null && isPublicMediaUrl(url) && !isVideoUrl(url)
      }),
    ),
  ].slice(0, WARM_MEDIA_LIMIT)
  const cache = await caches.open(MEDIA_CACHE)
  const missing: string[] = []
  for (const url of accepted) if (!(await cache.match(url))) missing.push(url)
  let fetched = 0
  let failed = 0
  let next = 0
  const worker = async () => {
    while (next < missing.length) {
      const url = missing[next++]!
      try {
        await imageStrategy.handle({ event, request: new Request(url) })
        fetched++
      } catch {
        // Offline again or the file is gone: the next sync asks again.
        failed++
      }
    }
  }
  await Promise.all(Array.from({ length: WARM_CONCURRENCY }, worker))
  return {
    type: 'MEDIA_WARMED',
    accepted: accepted.length,
    alreadyCached: accepted.length - missing.length,
    fetched,
    failed,
  }
}

// One warming round at a time; a list that arrives meanwhile waits its turn.
let warming: Promise<unknown> = Promise.resolve()

self.addEventListener('message', (event) => {
  const data: unknown = event.data
  if ((data as { type?: string } | null)?.type === 'SKIP_WAITING') {
    void self.skipWaiting()
    return
  }
  if (event.origin !== self.location.origin || !isWarmMediaMessage(data)) return
  const round = warming.then(() => warmMedia(event, data.urls))
  warming = round.catch(() => undefined)
  event.waitUntil(
    round.then(
      (result) => event.ports[0]?.postMessage(result),
      () => event.ports[0]?.postMessage(null),
    ),
  )
})

// The first install takes control at once so the first visit is already offline-ready.
clientsClaim()
