import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { videoSource } from '../product-media'
import { shouldPreloadVideo } from '../hooks/use-device-conditions'

export type VideoState = 'loading' | 'ready' | 'playing' | 'paused' | 'blocked' | 'error'

/** SPEC.md §4: two automatic retries 1 s apart, then a manual "Retry (n/3)", at most 3. */
const AUTO_RETRIES = 2
const RETRY_DELAY_MS = 1000
const MANUAL_ATTEMPTS = 3

const notice = css({
  position: 'absolute',
  left: '2',
  right: '2',
  bottom: '2',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '2',
  px: '3',
  py: '2',
  borderRadius: 'md',
  bg: 'bg.surface',
  boxShadow: 'card',
  fontSize: 'xs',
  fontWeight: 'semibold',
  zIndex: '2',
})

/**
 * A muted, looping product video over its poster image. `wanted` says whether the shopper asked
 * it to play (hover or tap); playback failures fall back to the poster, retry, and only log.
 * The player is see-through until it has a frame to show: the cover image under it shows
 * meanwhile (offline, a video never played is not on the device), not a spinner on an empty box.
 */
export function ProductVideo({
  url,
  poster,
  wanted,
  controls = false,
  label,
  onStateChange,
}: {
  url: string
  /** The cover image's URL, drawn by the player itself before its first frame. */
  poster?: string
  wanted: boolean
  controls?: boolean
  label: string
  onStateChange?: (state: VideoState) => void
}) {
  const source = videoSource(url)
  const ref = useRef<HTMLVideoElement>(null)
  const [state, setStateRaw] = useState<VideoState>('loading')
  const [autoRetries, setAutoRetries] = useState(0)
  const [manualRetries, setManualRetries] = useState(0)
  const attempt = autoRetries + manualRetries
  const setState = (next: VideoState) => {
    setStateRaw(next)
    onStateChange?.(next)
  }

  useEffect(() => {
    const video = ref.current
    if (!video || state === 'error') return
    if (wanted) {
      video.play().then(
        () => setState('playing'),
        (error: unknown) => {
          // Autoplay refused (mobile, battery saver): wait for a touch or click.
          if (error instanceof DOMException && error.name === 'NotAllowedError') setState('blocked')
        },
      )
    } else if (!video.paused) {
      video.pause()
      setState('paused')
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- replay on each new attempt
  }, [wanted, attempt])

  if (!source)
    return (
      <p role="status" className={notice}>
        Invalid video format
      </p>
    )

  const preload = shouldPreloadVideo() ? 'metadata' : 'none'
  // Nothing to show yet (or ever): the cover under the player shows through. A player that loads
  // nothing until pressed (preload none) is shown at once, over its poster, to be pressed.
  const hidden =
    state === 'error' || (!controls && !wanted) || (state === 'loading' && preload !== 'none')

  const onError = () => {
    console.warn(`video failed (attempt ${attempt + 1})`, url)
    if (autoRetries < AUTO_RETRIES) {
      setTimeout(() => setAutoRetries((n) => n + 1), RETRY_DELAY_MS)
    } else {
      setState('error')
    }
  }

  return (
    <>
      <video
        key={attempt}
        ref={ref}
        aria-label={label}
        muted
        loop
        playsInline
        controls={controls}
        poster={poster || undefined}
        preload={preload}
        onLoadedData={() => setState(wanted ? 'playing' : 'ready')}
        onError={onError}
        onClick={(event) => {
          if (state === 'blocked') void event.currentTarget.play().then(() => setState('playing'))
        }}
        className={css({
          position: 'absolute',
          inset: '0',
          w: 'full',
          h: 'full',
          objectFit: 'cover',
          transition: 'opacity 0.2s',
        })}
        style={{ opacity: hidden ? 0 : 1 }}
      >
        <source src={source.src} type={source.type} onError={onError} />
      </video>
      {state === 'error' && (
        <p role="status" className={notice}>
          <span>Video unavailable</span>
          {manualRetries < MANUAL_ATTEMPTS && (
            <button
              type="button"
              onClick={(event) => {
                event.preventDefault()
                setStateRaw('loading')
                setManualRetries((n) => n + 1)
              }}
              className={css({
                color: 'accent.fg',
                cursor: 'pointer',
                textDecoration: 'underline',
              })}
            >
              Retry ({manualRetries + 1}/{MANUAL_ATTEMPTS})
            </button>
          )}
        </p>
      )}
    </>
  )
}
