/**
 * Humo's service worker (vite-plugin-pwa, injectManifest). It precaches the app shell so the shop
 * opens with no signal, answers navigations with the shell (or, for a catalogue page, with the
 * server's copy of it kept from an earlier visit: docs/decisions/013-starts-from-a-kept-copy.md), keeps product media it has seen
 * (and the catalogue's images the app asks it to warm), and answers video byte ranges from the
 * cache. It never caches the backend's API: RxDB holds the data.
 */
/// <reference lib="webworker" />
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  matchPrecache,
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
import {
  asKeptCopy,
  COMMON_PAGES,
  isCataloguePage,
  isWarmPagesMessage,
  PAGES_CACHE_PREFIX,
  PAGES_MAX_ENTRIES,
  type WarmPagesResult,
} from '../src/lib/catalogue-pages'
import { COPY_ID } from '../src/lib/shell-markup'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] }

const manifest = self.__WB_MANIFEST
precacheAndRoute(manifest)
cleanupOutdatedCaches()

// NOTE: no route ever matches the backend's API (/rest, /auth, /realtime, rpc under /rest), so
// those requests go straight to the network; the navigation fallback must not swallow them either.
const API = /^\/(rest|auth|realtime)\/v1\//

const shell = createHandlerBoundToURL('/index.html')

/** Copies of this build's pages: a copy names the build's stylesheet and scripts. */
const shellEntry = manifest.find(
  (entry): entry is PrecacheEntry => typeof entry !== 'string' && entry.url.endsWith('index.html'),
)
const PAGES_CACHE = `${PAGES_CACHE_PREFIX}${shellEntry?.revision ?? 'unversioned'}`
/** Where the catalogue key of the last round of copies is kept, beside them. */
const PAGES_KEY_URL = new URL('/.humo-pages-key', self.location.origin).href
/** The server's copy of a page is in this element (supabase/local/site/prerender.ts). */
const COPY_MARK = `id="${COPY_ID}"`

/** The headers of the server's answer a kept copy of a page keeps (supabase/local/http/security-headers.ts). */
const KEPT_HEADERS = [
  'Content-Security-Policy',
  'X-Content-Type-Options',
  'X-Frame-Options',
  'Referrer-Policy',
  'Permissions-Policy',
]

const pageKey = (url: URL) => `${url.origin}${url.pathname}${url.search}`

/** The shell's own files (its stylesheet and scripts), which a copy to keep must name too. */
let shellAssets: Promise<string[]> | null = null
const assetsOfShell = () =>
  (shellAssets ??= (async () => {
    const html = (await (await matchPrecache('/index.html'))?.text()) ?? ''
    return [...new Set(html.match(/\/assets\/[^"'\s]+\.(?:js|css)/g) ?? [])]
  })())

/**
 * Fetches a page's copy from the server and keeps it, when it is one (a server without copies
 * sends the shell, which the precache has already) and of this build (a deployment newer than
 * this worker names files this worker has not precached: that copy would not start offline).
 * A page the server no longer has (a product taken off sale) loses its copy; any other answer
 * leaves the copy kept before, which still starts this build.
 */
async function keepPage(key: string): Promise<boolean> {
  const response = await fetch(key, { cache: 'no-store', credentials: 'same-origin' })
  const cache = await caches.open(PAGES_CACHE)
  if (response.status === 404 || response.status === 410) {
    await cache.delete(key)
    return false
  }
  const html = response.ok ? await response.text() : ''
  const assets = await assetsOfShell()
  if (!html.includes(COPY_MARK) || assets.length === 0 || !assets.every((a) => html.includes(a)))
    return false
  // The copy keeps the server's policy and security headers: the page the copy starts is held
  // to them as the one from the network is (docs/decisions/028-content-security-policy.md). Its inline scripts are the server's,
  // unchanged (asKeptCopy only moves one), so their hashes in the policy still hold.
  const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8' })
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name)
    if (value) headers.set(name, value)
  }
  await cache.put(key, new Response(asKeptCopy(html), { headers }))
  // Oldest first (a page kept again moves to the end); the key entry is not a page.
  const pages = (await cache.keys()).filter((request) => request.url !== PAGES_KEY_URL)
  for (const old of pages.slice(0, Math.max(0, pages.length - PAGES_MAX_ENTRIES)))
    await cache.delete(old)
  return true
}

registerRoute(
  new NavigationRoute(
    async (options) => {
      const { url, event } = options
      if (isCataloguePage(url.pathname)) {
        const key = pageKey(url)
        const copy = await (await caches.open(PAGES_CACHE)).match(key)
        if (copy) return copy
        // This start goes through the shell; the next one from this page starts with its copy.
        // Filtered views (a search) are not kept: there are too many of them.
        if (self.navigator.onLine && url.search === '')
          event.waitUntil(keepPage(key).catch(() => false))
      }
      return shell(options)
    },
    { denylist: [API, /^\/storage\/v1\//] },
  ),
)

/**
 * The copies again, after the device's catalogue changed (`catalogueKey`): the common pages and
 * every page kept so far. Nothing is fetched when the copies already show that catalogue.
 */
async function warmPages(catalogueKey: string): Promise<WarmPagesResult> {
  const cache = await caches.open(PAGES_CACHE)
  const keptKey = await (await cache.match(PAGES_KEY_URL))?.text()
  const kept = (await cache.keys()).map((r) => r.url).filter((u) => u !== PAGES_KEY_URL)
  const common = COMMON_PAGES.map((path) => new URL(path, self.location.origin).href)
  const all = [...new Set([...common, ...kept])]
  if (keptKey === catalogueKey && common.every((u) => kept.includes(u)))
    return { type: 'PAGES_WARMED', kept: 0, failed: 0 }
  let done = 0
  let failed = 0
  for (const url of all) {
    try {
      if (await keepPage(url)) done++
    } catch {
      failed++
    }
  }
  // Only a complete round is remembered: a failed one is tried again after the next sync.
  if (failed === 0) await cache.put(PAGES_KEY_URL, new Response(catalogueKey))
  return { type: 'PAGES_WARMED', kept: done, failed }
}

// Copies of an earlier build would start its scripts, which this build's precache no longer has.
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(PAGES_CACHE_PREFIX) && name !== PAGES_CACHE)
            .map((name) => caches.delete(name)),
        ),
      ),
  )
})

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
  if (event.origin !== self.location.origin) return
  if (isWarmPagesMessage(data)) {
    const round = warming.then(() => warmPages(data.catalogueKey))
    warming = round.catch(() => undefined)
    event.waitUntil(
      round.then(
        (result) => event.ports[0]?.postMessage(result),
        () => event.ports[0]?.postMessage(null),
      ),
    )
    return
  }
  if (!isWarmMediaMessage(data)) return
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
