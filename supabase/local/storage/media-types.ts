// Which files the stand-in's storage takes and how it serves them (issue 23, finding 2). A file's
// type is read from its bytes (file-type's magic numbers), never from the Content-Type or the name
// the client declared: an SVG or HTML page declared as image/png would otherwise be stored and
// served from the shop's origin, where its script runs with the admin's session. Only what the
// shop shows is taken — the images and videos the admin's product form offers
// (src/features/admin/admin.validation.ts, ALLOWED_UPLOAD_TYPES) — and the name's extension must
// agree with what the bytes are. What was stored before this check (a seeded SVG, an HTML file
// stored as image/png) is served inertly: see servedType.
import { fileTypeFromBuffer } from 'file-type'

export interface MediaType {
  /** The canonical type, stored as the object's mimetype and served as its Content-Type. */
  readonly mime: string
  /** Extensions an object name of this type may end in (lower case, without the dot). */
  readonly extensions: readonly string[]
  /** How a message names it: "a JPEG image". */
  readonly label: string
}

export const MEDIA_TYPES: readonly MediaType[] = [
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], label: 'a JPEG image' },
  { mime: 'image/png', extensions: ['png'], label: 'a PNG image' },
  { mime: 'image/webp', extensions: ['webp'], label: 'a WebP image' },
  { mime: 'video/mp4', extensions: ['mp4'], label: 'an MP4 video' },
  { mime: 'video/webm', extensions: ['webm'], label: 'a WebM video' },
]

/** What refusals say the shop takes. */
export const ACCEPTED_MEDIA = 'JPEG, PNG or WebP images and MP4 or WebM videos'

/** The media type the bytes are, or null when they are anything else (SVG, HTML, text, PDF…). */
export async function sniffMediaType(bytes: Uint8Array): Promise<MediaType | null> {
  const found = await fileTypeFromBuffer(bytes)
  return MEDIA_TYPES.find((type) => type.mime === found?.mime) ?? null
}

/** Why an object name does not fit its contents' type, or null when its extension agrees. */
export function extensionMismatch(objectName: string, type: MediaType): string | null {
  const last = objectName.slice(objectName.lastIndexOf('/') + 1)
  const dot = last.lastIndexOf('.')
  const extension = dot > 0 ? last.slice(dot + 1).toLowerCase() : ''
  if (type.extensions.includes(extension)) return null
  const expected = type.extensions.map((e) => `.${e}`).join(' or ')
  return extension
    ? `The file is ${type.label} but its name ends in .${extension}; name it ${expected}`
    : `The file is ${type.label} but its name has no extension; name it ${expected}`
}

// Passive types a browser only ever displays or plays: the media types above, plus the few older
// product media could have been stored as before the check (the bucket once took QuickTime).
const INLINE_TYPES = new Set([
  ...MEDIA_TYPES.map((type) => type.mime),
  'image/gif',
  'image/avif',
  'video/quicktime',
])

/**
 * The Content-Type an object is served with, from the type it was stored with (or its extension's
 * when it has no row). Anything a browser might run or render as a document — SVG, HTML, XML,
 * text, PDF, or a type it does not know — goes out as a download of opaque bytes instead.
 */
export function servedType(stored: string | null | undefined): {
  contentType: string
  attachment: boolean
} {
  const base = (stored ?? '').split(';')[0]!.trim().toLowerCase()
  return INLINE_TYPES.has(base)
    ? { contentType: base, attachment: false }
    : { contentType: 'application/octet-stream', attachment: true }
}
