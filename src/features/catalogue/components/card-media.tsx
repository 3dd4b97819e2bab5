import { lazy, Suspense, useState } from 'react'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import { css, cx } from 'styled-system/css'
import { useMediaUrl } from '../../../data/hooks/use-media-url'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { PlayIcon } from '../../../ui/icons'
import { useLowBattery } from '../hooks/use-device-conditions'
import { firstVideo, primaryImage } from '../product-media'

// The player is made only when a preview is asked for (hover or tap, below), so its code loads
// then, not with every menu (the storefront's JavaScript budget, docs/decisions/051-california-taxes-and-daily-limits.md).
// Offline before the service worker holds it, the poster stays until the connection is back
// (import-when-reachable.ts), instead of the page falling to the error screen.
const ProductVideo = lazy(
  importWhenReachable(() => import('./product-video').then((m) => ({ default: m.ProductVideo }))),
)

// Buttons sit above the card-wide link overlay.
export const raised = css({ position: 'relative', zIndex: '2' })

/** A product card's still image, with its video preview (SPEC.md §4) played on hover or tap. */
export function CardMedia({
  product,
  layout,
  hovered,
  priority,
}: {
  product: ProductDoc
  layout: 'grid' | 'list'
  hovered: boolean
  priority: boolean
}) {
  const image = primaryImage(product)
  const video = firstVideo(product)
  const imageUrl = useMediaUrl(image?.path)
  const videoUrl = useMediaUrl(video?.path)
  const [failed, setFailed] = useState(false)
  const [tapped, setTapped] = useState(false)
  const lowBattery = useLowBattery()
  // A tap toggles; leaving the card stops a hover preview (SPEC.md §4).
  const wanted = tapped || (hovered && !lowBattery)
  // The player is made the first time the preview is asked for, then kept. A <video> in every
  // card, even unseen, costs the page load a media player and its controls' styles: the two in
  // the flower menu's first cards took its first style and layout from 36 to 63 ms.
  const [playerMade, setPlayerMade] = useState(false)
  if (wanted && !playerMade) setPlayerMade(true)

  return (
    <div
      className={css({
        position: 'relative',
        aspectRatio: 'square',
        bg: 'bg.muted',
        overflow: 'hidden',
        flexShrink: 0,
        w: layout === 'list' ? { base: '28', sm: '44' } : 'full',
        borderRadius: layout === 'list' ? 'md' : undefined,
      })}
    >
      {failed || (!image && !video) ? (
        <div
          className={css({
            position: 'absolute',
            inset: '0',
            display: 'grid',
            placeItems: 'center',
            color: 'fg.subtle',
            fontSize: 'sm',
          })}
        >
          Media unavailable
        </div>
      ) : (
        image && (
          <img
            src={imageUrl}
            alt={product.name}
            // The first row is the page's largest paint: fetched at once, not when scrolled to.
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : 'auto'}
            decoding="async"
            width={400}
            height={400}
            onError={() => setFailed(true)}
            className={css({
              w: 'full',
              h: 'full',
              objectFit: 'cover',
              transition: 'transform 0.4s ease',
              _groupHover: { transform: 'scale(1.04)' },
            })}
          />
        )
      )}
      {video && (
        <>
          {playerMade && (
            <Suspense fallback={null}>
              <ProductVideo
                url={videoUrl}
                wanted={wanted}
                label={`${product.name} video preview`}
              />
            </Suspense>
          )}
          <button
            type="button"
            aria-pressed={tapped}
            aria-label={tapped ? `Pause ${product.name} video` : `Play ${product.name} video`}
            onClick={() => setTapped((t) => !t)}
            className={cx(
              raised,
              css({
                position: 'absolute',
                right: '2',
                bottom: '2',
                display: 'grid',
                placeItems: 'center',
                w: '8',
                h: '8',
                borderRadius: 'full',
                bg: 'bg.surface',
                color: 'accent.fg',
                boxShadow: 'card',
                cursor: 'pointer',
              }),
            )}
          >
            {tapped ? '❚❚' : <PlayIcon size={14} />}
          </button>
        </>
      )}
    </div>
  )
}
