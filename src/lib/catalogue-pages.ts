/**
 * What the embedded backend (supabase/local/site/prerender.ts), the service worker (sw/sw.ts) and the
 * app agree on about copies of the catalogue's pages (docs/decisions/010-server-copy-of-catalogue-pages.md and docs/decisions/013-starts-from-a-kept-copy.md): which paths have
 * one, which are kept ahead of an offline start, where the service worker keeps them, and the
 * message that has it fetch them again after the catalogue changed.
 */
import { MENU_CATEGORIES } from './menu-categories'
import { APP_SCRIPTS_ID, COPY_ID, KEPT_COPY_ATTRIBUTE } from './shell-markup'

/** The paths whose page is the catalogue's, the same for every shopper. */
export function isCataloguePage(pathname: string): boolean {
  return (
    pathname === '/' ||
    pathname === '/menu' ||
    /^\/menu\/[^/]+\/?$/.test(pathname) ||
    /^\/product\/[^/]+\/?$/.test(pathname)
  )
}

/**
 * A kept copy for a start from the device: marked as kept (`data-kept`, which the benchmarks and
 * tests use to tell the two copies apart), and with the script that asks for the app's scripts
 * moved ahead of the copy. At the end of the HTML, it would wait for the whole copy to be parsed
 * (~400 ms of a busy start here); from the service worker's cache they are at hand at once.
 * Unchanged when the HTML is not a copy.
 */
export function asKeptCopy(html: string): string {
  const copyTag = `<div id="${COPY_ID}"`
  const copyAt = html.indexOf(copyTag)
  if (copyAt < 0) return html
  const marked = `${html.slice(0, copyAt)}${copyTag} ${KEPT_COPY_ATTRIBUTE}${html.slice(copyAt + copyTag.length)}`
  const scriptAt = marked.indexOf(`<script id="${APP_SCRIPTS_ID}">`)
  if (scriptAt < copyAt) return marked
  const scriptEnd = marked.indexOf('</script>', scriptAt) + '</script>'.length
  const script = marked.slice(scriptAt, scriptEnd)
  return marked.slice(0, copyAt) + script + marked.slice(copyAt, scriptAt) + marked.slice(scriptEnd)
}

/** The pages every shopper opens: rendered when the server starts, kept by every device. */
export const COMMON_PAGES: readonly string[] = [
  '/',
  '/menu',
  ...MENU_CATEGORIES.filter((slug) => slug !== 'all').map((slug) => `/menu/${slug}`),
]

/**
 * The service worker's cache of copies, one per build: a copy names the build's stylesheet and
 * scripts, so a new version must not start from an older copy.
 */
export const PAGES_CACHE_PREFIX = 'humo-pages-'

/** Copies kept at most: the common pages and the product pages most recently opened. */
export const PAGES_MAX_ENTRIES = 60

/** Asks the service worker for fresh copies, unless it has them for this catalogue already. */
export type WarmPagesMessage = { type: 'WARM_PAGES'; catalogueKey: string }
export type WarmPagesResult = {
  type: 'PAGES_WARMED'
  /** Copies fetched and kept in this round (0 when they were up to date). */
  kept: number
  failed: number
}

export function isWarmPagesMessage(data: unknown): data is WarmPagesMessage {
  if (typeof data !== 'object' || data === null) return false
  const message = data as Partial<WarmPagesMessage>
  return message.type === 'WARM_PAGES' && typeof message.catalogueKey === 'string'
}

/** The last-modified mark and size of one catalogue collection, as the device holds it. */
export type CollectionMark = { count: number; lastModified: string }

/** The mark of one collection's documents. */
export function markOf(docs: readonly { serverModified: string }[]): CollectionMark {
  let lastModified = ''
  for (const doc of docs) if (doc.serverModified > lastModified) lastModified = doc.serverModified
  return { count: docs.length, lastModified }
}

/**
 * A key that changes whenever the device's copy of the catalogue does (a row added, changed or
 * removed): the pages are fetched again only then, not after every sync.
 */
export function catalogueKey(marks: readonly CollectionMark[]): string {
  return marks.map((m) => `${m.count}@${m.lastModified}`).join('|')
}
