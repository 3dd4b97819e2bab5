/**
 * What the service worker (sw/sw.ts) and the app (src/features/pwa/media-warming.ts) agree on
 * about cached product media: the cache names, which URLs are storage media, and the message the
 * app sends to have the catalogue's images fetched ahead of an offline visit.
 */

export const MEDIA_CACHE = 'humo-media'
export const VIDEO_CACHE = 'humo-media-video'
export const MEDIA_MAX_ENTRIES = 800
/** Warming stops short of the cache's bound so it never evicts images it has just stored. */
export const WARM_MEDIA_LIMIT = 600

const PUBLIC_STORAGE = '/storage/v1/object/public/'
const VIDEO_EXTENSION = /\.(mp4|webm|mov)$/i

/** A file of a public storage bucket, on whichever host the backend is (hosted or embedded). */
export const isPublicMediaUrl = (url: URL): boolean => url.pathname.startsWith(PUBLIC_STORAGE)

/** SPEC.md §7 "Storage": video is recognised by its extension. */
export const isVideoUrl = (url: URL): boolean => VIDEO_EXTENSION.test(url.pathname)

export type WarmMediaMessage = { type: 'WARM_MEDIA'; urls: string[] }
export type WarmMediaResult = {
  type: 'MEDIA_WARMED'
  /** URLs accepted for warming (storage images, within the limit). */
  accepted: number
  /** Of those, already in the cache before this round. */
  alreadyCached: number
  fetched: number
  failed: number
}

export function isWarmMediaMessage(data: unknown): data is WarmMediaMessage {
  if (typeof data !== 'object' || data === null) return false
  const message = data as Partial<WarmMediaMessage>
  return (
    message.type === 'WARM_MEDIA' &&
    Array.isArray(message.urls) &&
    message.urls.every((u) => typeof u === 'string')
  )
}
