/**
 * The ids and attributes that the built index.html (vite.config.ts, which imports this file and
 * so it imports nothing), the server's copy of a page (supabase/local/site/prerender.ts), the service
 * worker and the app agree on (docs/decisions/010-server-copy-of-catalogue-pages.md and docs/decisions/013-starts-from-a-kept-copy.md).
 */

/** index.html's start-up splash (SPEC.md §1), over the copy and the app's page. */
export const SPLASH_ID = 'boot-splash'

/**
 * Set on the splash by the app while its page is ready underneath (with a copy of the page there
 * too): index.html then leaves the splash for the app to take away when the count is over, rather
 * than showing the copy for the moment before (docs/decisions/013-starts-from-a-kept-copy.md).
 */
export const PAGE_READY_ATTRIBUTE = 'data-page-ready'

/** The element a page's copy is in (index.html shows it; the app takes it away). */
export const COPY_ID = 'prerendered-page'

/**
 * The attribute the service worker puts on a copy it kept from an earlier visit (docs/decisions/013-starts-from-a-kept-copy.md):
 * the app then knows a start from the device, not a first visit through the network.
 */
export const KEPT_COPY_ATTRIBUTE = 'data-kept'

/** The built index.html's script that asks for the app's scripts (vite.config.ts, splashFirst). */
export const APP_SCRIPTS_ID = 'humo-scripts'
