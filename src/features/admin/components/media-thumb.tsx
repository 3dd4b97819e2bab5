import { css } from 'styled-system/css'
import { useMediaUrl } from '../../../data/hooks/use-media-url'

const box = css({ bg: 'bg.muted', borderRadius: 'md', h: '24', objectFit: 'cover', w: 'full' })

/** A stored media file (storage path) or a picked file (object URL), image or video. */
export function MediaThumb({
  path,
  src,
  type,
  alt,
}: {
  path?: string
  src?: string
  type: 'image' | 'video'
  alt: string
}) {
  const stored = useMediaUrl(path ?? null)
  const url = src ?? stored
  if (type === 'video')
    return (
      <video src={`${url}#t=0.001`} muted preload="metadata" className={box} aria-label={alt} />
    )
  return <img src={url} alt={alt} className={box} />
}
