/**
 * Which of a product's pictures stands for it: the card, the cart line and the service worker's
 * warming list all show the same one, so the rule lives here, beside the product document.
 */
import type { ProductDoc } from './schemas/product.schema'

type MediaItem = ProductDoc['media'][number]

/** The primary image, else the first image by display order. */
export function primaryImage(product: Pick<ProductDoc, 'media'>): MediaItem | undefined {
  const images = product.media
    .filter((m) => m.type === 'image')
    .sort((a, b) => a.displayOrder - b.displayOrder)
  return images.find((m) => m.isPrimary) ?? images[0]
}
