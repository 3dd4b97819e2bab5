/**
 * Humo's service worker (vite-plugin-pwa, injectManifest). It precaches the app shell so the shop
 * opens with no signal, answers navigations with the shell, and keeps product media it has seen.
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
import { clientsClaim } from 'workbox-core'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] }

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

const API = /^\/(rest|auth|realtime)\/v1\//

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [API, /^\/storage\/v1\//],
  }),
)

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    url.pathname.startsWith('/storage/v1/object/public/') &&
    request.method === 'GET',
  new CacheFirst({
    cacheName: 'humo-media',
    plugins: [
      new CacheableResponsePlugin({ statuses: [0, 200] }),
      new ExpirationPlugin({
        maxEntries: 800,
        maxAgeSeconds: 30 * 24 * 3600,
        purgeOnQuotaError: true,
      }),
    ],
  }),
)

// The backend's address for builds served by the embedded backend; the app also remembers it.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/humo-config.json',
  new NetworkFirst({ cacheName: 'humo-config', networkTimeoutSeconds: 3 }),
)

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})

// The first install takes control at once so the first visit is already offline-ready.
clientsClaim()
