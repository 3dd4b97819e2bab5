/**
 * Background warming: after each catalogue sync on a good connection, the app hands the service
 * worker the catalogue's images (each product's card image and the brand logos) so a menu opened
 * offline later shows its pictures, not only the ones the shopper happened to see; and, when the
 * catalogue changed, has it fetch the server's copies of the catalogue pages again (docs/decisions/013-starts-from-a-kept-copy.md).
 */
import {
  combineLatest,
  debounceTime,
  distinctUntilChanged,
  filter,
  map,
  merge,
  fromEvent,
} from 'rxjs'
import type { HumoData } from '../../data/humo-data'
import { primaryImage } from '../../data/product-images'
import type { BrandDoc } from '../../data/schemas/brand.schema'
import type { ProductDoc } from '../../data/schemas/product.schema'
import {
  isPublicMediaUrl,
  isVideoUrl,
  WARM_MEDIA_LIMIT,
  type WarmMediaMessage,
  type WarmMediaResult,
} from '../../lib/media-cache'
import { publicMediaUrl } from '../../lib/media-url'
import {
  catalogueKey,
  markOf,
  type WarmPagesMessage,
  type WarmPagesResult,
} from '../../lib/catalogue-pages'
import { yieldToMain } from '../../lib/yield-to-main'

/** The Network Information API where the browser has it (Chromium); all fields optional. */
export type ConnectionInfo = {
  saveData?: boolean
  effectiveType?: string
  /** 'cellular' on Chromium for Android; absent on desktop. */
  type?: string
  /** Older drafts of the API; no shipping browser sets it, but it is the honest signal. */
  metered?: boolean
}

const SLOW = new Set(['slow-2g', '2g', '3g'])

/**
 * Whether the device may spend data on pictures nobody asked for yet: online, no data saver, not
 * a slow connection, and not one the browser says is metered or cellular. Unknown means yes, as a
 * desktop browser that has no Network Information API is almost always on a fixed line.
 */
export function mayWarmMedia(online: boolean, connection: ConnectionInfo | undefined): boolean {
  if (!online) return false
  if (!connection) return true
  if (connection.saveData === true || connection.metered === true) return false
  if (connection.type === 'cellular') return false
  return !SLOW.has(connection.effectiveType ?? '')
}

type WarmProduct = Pick<ProductDoc, 'media' | 'createdAt'>

// Only the path is looked at, so a relative URL (backend on the app's origin) parses against any base.
function parseUrl(url: string): URL | null {
  try {
    return new URL(url, 'http://relative.invalid')
  } catch {
    return null
  }
}

/**
 * The URLs to warm, newest products first (as the menu lists them), then brand logos; only
 * images in the storage bucket, each once, at most `limit`.
 */
export function warmMediaUrls(
  products: readonly WarmProduct[],
  brands: readonly Pick<BrandDoc, 'logoUrl'>[],
  backendUrl: string | null | undefined,
  limit = WARM_MEDIA_LIMIT,
): string[] {
  const newestFirst = [...products].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  const paths = [
    ...newestFirst.map((p) => primaryImage(p)?.path),
    ...brands.map((b) => b.logoUrl),
  ].filter((path): path is string => Boolean(path))
  const urls = new Set<string>()
  for (const path of paths) {
    if (urls.size >= limit) break
    const url = publicMediaUrl(backendUrl, path)
    const parsed = parseUrl(url)
    if (parsed && isPublicMediaUrl(parsed) && !isVideoUrl(parsed)) urls.add(url)
  }
  return [...urls]
}

const REPLY_TIMEOUT_MS = 5 * 60_000

/** Sends a round to the active service worker and waits for its report (null if it failed). */
async function postToWorker<Result>(
  message: WarmMediaMessage | WarmPagesMessage,
): Promise<Result | null> {
  const registration = await navigator.serviceWorker.ready
  const worker = registration.active
  if (!worker) return null
  const channel = new MessageChannel()
  const reply = new Promise<Result | null>((resolve) => {
    channel.port1.onmessage = (event: MessageEvent<Result | null>) => {
      channel.port1.close()
      resolve(event.data)
    }
  })
  worker.postMessage(message, [channel.port2])
  // A worker stopped mid-round never answers; browsers give a waitUntil at most about 5 minutes.
  const gaveUp = new Promise<null>((resolve) => setTimeout(() => resolve(null), REPLY_TIMEOUT_MS))
  return Promise.race([reply, gaveUp])
}

type NavigatorWithConnection = Navigator & {
  connection?: ConnectionInfo & EventTarget
}

/**
 * Warms after every catalogue sync (settled for a second) and when the connection gets better.
 * A list already warmed in full is not sent again. Returns a stop function.
 */
export function startMediaWarming(data: HumoData): () => void {
  if (!('serviceWorker' in navigator)) return () => undefined
  const connection = (navigator as NavigatorWithConnection).connection
  let lastWarmed = ''
  let lastPages = ''
  let running = false
  let again = false

  const warm = async (backendUrl: string) => {
    if (running) {
      again = true
      return
    }
    running = true
    try {
      do {
        again = false
        if (!mayWarmMedia(navigator.onLine, connection)) return
        // Reading the whole catalogue and listing its pictures each get a task of their own,
        // not one long one right behind a sync's writes and renders.
        await yieldToMain()
        const { products, brands, categories, product_types, shop_settings } = data.db
        const catalogue = await Promise.all([
          products.find().exec(),
          brands.find().exec(),
          categories.find().exec(),
          product_types.find().exec(),
          shop_settings.find().exec(),
        ])
        await yieldToMain()
        const pagesKey = catalogueKey(catalogue.map(markOf))
        if (pagesKey !== lastPages) {
          const message: WarmPagesMessage = { type: 'WARM_PAGES', catalogueKey: pagesKey }
          const pages = await postToWorker<WarmPagesResult>(message)
          if (pages && pages.failed === 0) lastPages = pagesKey
        }
        const urls = warmMediaUrls(catalogue[0], catalogue[1], backendUrl)
        const key = urls.join('\n')
        if (urls.length === 0 || key === lastWarmed) continue
        const message: WarmMediaMessage = { type: 'WARM_MEDIA', urls }
        const result = await postToWorker<WarmMediaResult>(message)
        if (result && result.failed === 0) lastWarmed = key
      } while (again)
    } finally {
      running = false
    }
  }

  const synced$ = data.sync$.pipe(
    map((s) => s.lastSyncedAt),
    filter(Boolean),
    distinctUntilChanged(),
  )
  const connectionBetter$ = merge(
    fromEvent(window, 'online'),
    connection ? fromEvent(connection, 'change') : [],
  )
  const subscription = combineLatest([
    data.config$.pipe(filter((c) => c !== null)),
    merge(synced$, connectionBetter$),
  ])
    .pipe(debounceTime(1000))
    .subscribe(([config]) => {
      // Warming is a nicety: a failure is only logged, and the next sync tries again.
      warm(config.supabaseUrl).catch((error: unknown) => console.warn('media warming', error))
    })
  return () => subscription.unsubscribe()
}
