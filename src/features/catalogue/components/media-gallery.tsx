import { lazy, Suspense, useState } from 'react'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import { css } from 'styled-system/css'
import type { ProductDoc } from '../../../data/schemas/product.schema'
import { ChevronLeftIcon, ChevronRightIcon, PlayIcon } from '../../../ui/icons'
import { useMediaUrl } from '../../../data/hooks/use-media-url'
import { galleryMedia, primaryImage, type MediaItem } from '../product-media'
import { serverRender } from '../../../lib/server-render'

// Loaded when a video slide is first shown (its poster shows meanwhile), not with every product
// page: most products have no video (the storefront's JavaScript budget, docs/decisions/051-california-taxes-and-daily-limits.md).
// Offline before the service worker holds it, the poster stays until the connection is back
// (import-when-reachable.ts), instead of the page falling to the error screen.
const ProductVideo = lazy(
  importWhenReachable(() => import('./product-video').then((m) => ({ default: m.ProductVideo }))),
)

function Slide({
  item,
  name,
  active,
  poster,
}: {
  item: MediaItem
  name: string
  active: boolean
  /** The product's primary image: what a video slide shows until its player is made. */
  poster: MediaItem | undefined
}) {
  const url = useMediaUrl(item.path)
  const posterUrl = useMediaUrl(poster?.path)
  const [failed, setFailed] = useState(false)
  // A video's player is made when its slide is first shown, then kept; the server's copy (inert,
  // never played) shows the poster instead. A <video> costs the page load a media player and its
  // controls' styles (see CardMedia).
  const [shown, setShown] = useState(false)
  if (active && !shown && !serverRender()) setShown(true)
  if (failed)
    return (
      <div
        className={css({
          position: 'absolute',
          inset: '0',
          display: 'grid',
          placeItems: 'center',
          color: 'fg.subtle',
        })}
      >
        Media unavailable
      </div>
    )
  const still = (
    <img
      // A video slide's poster (the placeholder for a product without a picture).
      src={item.type === 'video' ? posterUrl : url}
      alt={name}
      // The slide showing is the page's largest picture: fetched first.
      fetchPriority={active ? 'high' : 'auto'}
      onError={() => setFailed(true)}
      className={css({
        position: 'absolute',
        inset: '0',
        w: 'full',
        h: 'full',
        objectFit: 'cover',
      })}
    />
  )
  // The cover stays under the player: until the video can play (offline, a video never seen is
  // not cached; a slow network), and when it cannot, the shopper sees the product, not an empty
  // box (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md).
  if (item.type === 'video' && shown)
    return (
      <>
        {still}
        <Suspense fallback={null}>
          <ProductVideo
            url={url}
            poster={posterUrl}
            wanted={active}
            controls
            label={`${name} video`}
          />
        </Suspense>
      </>
    )
  return still
}

function Thumb({ item, name, index }: { item: MediaItem; name: string; index: number }) {
  const url = useMediaUrl(item.path)
  return item.type === 'video' ? (
    <span
      className={css({
        display: 'grid',
        placeItems: 'center',
        w: 'full',
        h: 'full',
        bg: 'accent.solid',
        color: 'fg.onAccent',
      })}
    >
      <PlayIcon size={18} />
      <span className={css({ srOnly: true })}>
        {name} video {index + 1}
      </span>
    </span>
  ) : (
    <img
      src={url}
      alt={`${name} image ${index + 1}`}
      className={css({ w: 'full', h: 'full', objectFit: 'cover' })}
    />
  )
}

const arrow = css({
  position: 'absolute',
  top: '50%',
  transform: 'translateY(-50%)',
  display: 'grid',
  placeItems: 'center',
  w: '10',
  h: '10',
  borderRadius: 'full',
  bg: 'bg.surface',
  boxShadow: 'card',
  cursor: 'pointer',
  zIndex: '3',
  _hover: { color: 'accent.fg' },
})

/** SPEC.md §2: the detail carousel — videos first, then images, at most 4, looping, with thumbnails. */
export function MediaGallery({ product }: { product: ProductDoc }) {
  const items = galleryMedia(product)
  const [index, setIndex] = useState(0)
  const count = items.length
  const go = (delta: number) => setIndex((i) => (i + delta + count) % count)

  return (
    <div
      className={css({ display: 'grid', gap: '3' })}
      role="region"
      aria-roledescription="carousel"
      aria-label={`${product.name} media`}
    >
      <div
        className={css({
          position: 'relative',
          // Shorter on a phone, below the name and price (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md).
          aspectRatio: { base: '4/3', md: 'square' },
          bg: 'bg.muted',
          borderRadius: 'lg',
          overflow: 'hidden',
          boxShadow: 'card',
        })}
      >
        {count === 0 ? (
          <div
            className={css({
              position: 'absolute',
              inset: '0',
              display: 'grid',
              placeItems: 'center',
              color: 'fg.subtle',
            })}
          >
            Media unavailable
          </div>
        ) : (
          items.map((item, i) => (
            <div
              key={item.id}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              hidden={i !== index}
              className={css({ position: 'absolute', inset: '0' })}
            >
              <Slide
                item={item}
                name={product.name}
                active={i === index}
                poster={primaryImage(product)}
              />
            </div>
          ))
        )}
        {count > 1 && (
          <>
            <button
              type="button"
              aria-label="Previous image"
              className={arrow}
              style={{ left: 12 }}
              onClick={() => go(-1)}
            >
              <ChevronLeftIcon />
            </button>
            <button
              type="button"
              aria-label="Next image"
              className={arrow}
              style={{ right: 12 }}
              onClick={() => go(1)}
            >
              <ChevronRightIcon />
            </button>
          </>
        )}
      </div>
      {count > 1 && (
        <div
          className={css({
            display: 'grid',
            gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
            gap: '3',
          })}
        >
          {items.map((item, i) => (
            <button
              key={item.id}
              type="button"
              aria-label={`Show ${item.type} ${i + 1}`}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => setIndex(i)}
              className={css({
                aspectRatio: 'square',
                borderRadius: 'md',
                overflow: 'hidden',
                cursor: 'pointer',
                borderWidth: '2px',
                borderColor: i === index ? 'accent.solid' : 'transparent',
                opacity: i === index ? 1 : 0.75,
                _hover: { opacity: 1 },
              })}
            >
              <Thumb item={item} name={product.name} index={i} />
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
