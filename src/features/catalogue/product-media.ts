/**
 * How a product's media is chosen and played (SPEC.md §4 "Video media", §7 "Storage"): the
 * card's still image, the detail gallery's order (videos first, then images, by display order,
 * at most 4), and the video source with a start fragment so the first frame shows as a poster.
 */
import type { ProductDoc } from '../../data/schemas/product.schema'

export type MediaItem = ProductDoc['media'][number]

export const MAX_GALLERY_ITEMS = 4
const byOrder = (a: MediaItem, b: MediaItem) => a.displayOrder - b.displayOrder

/** The still shown on cards and in the cart (one rule for the whole app, in src/data). */
export { primaryImage } from '../../data/product-images'

export function firstVideo(product: Pick<ProductDoc, 'media'>): MediaItem | undefined {
  return product.media.filter((m) => m.type === 'video').sort(byOrder)[0]
}

export function galleryMedia(product: Pick<ProductDoc, 'media'>): MediaItem[] {
  const videos = product.media.filter((m) => m.type === 'video').sort(byOrder)
  const images = product.media.filter((m) => m.type === 'image').sort(byOrder)
  return [...videos, ...images].slice(0, MAX_GALLERY_ITEMS)
}

export type VideoSource = { src: string; type: string }

/**
 * The playable source of a video URL, or null when its format is not one the shop plays
 * ("Invalid video format"). `.mov` is served as mp4; `#t=0.001` makes browsers paint the first
 * frame as a poster.
 */
export function videoSource(url: string, withPosterFrame = true): VideoSource | null {
  const path = url.split(/[?#]/)[0]!.toLowerCase()
  const fragment = withPosterFrame ? '#t=0.001' : ''
  if (path.endsWith('.mp4') || path.endsWith('.mov'))
    return { src: url + fragment, type: 'video/mp4' }
  if (path.endsWith('.webm')) return { src: url + fragment, type: 'video/webm' }
  return null
}

export type StockLevel = 'unlimited' | 'plenty' | 'low' | 'out'

/** SPEC.md §4 "Stock badge": above 10, 1 to 10 and 0 are styled apart. */
export function stockLevel(product: Pick<ProductDoc, 'stock' | 'unlimited'>): StockLevel {
  if (product.unlimited) return 'unlimited'
  const stock = product.stock ?? 0
  if (stock <= 0) return 'out'
  return stock > 10 ? 'plenty' : 'low'
}

/**
 * The card's stock badge in words, never by colour alone (WCAG 1.4.1, docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md): "In Stock",
 * "Only 3 left" for the low band (1 to 10, the band the colour marks), "Out of Stock".
 */
export function stockWords(product: Pick<ProductDoc, 'stock' | 'unlimited'>): string {
  const level = stockLevel(product)
  return level === 'out'
    ? 'Out of Stock'
    : level === 'low'
      ? `Only ${product.stock} left`
      : 'In Stock'
}

export const inStock = (product: Pick<ProductDoc, 'stock' | 'unlimited'>): boolean =>
  stockLevel(product) !== 'out'
