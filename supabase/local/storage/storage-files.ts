// Object reads for the stand-in's storage (/storage/v1/object/public/<bucket>/<path>, and the
// authenticated variants once the caller's read is allowed), and the rules every storage answer
// and object name follow. Objects live on disk under <storageDir>/<bucket>/<path>; their rows
// (with the content type found at upload) live in storage.objects. Byte ranges matter: browsers
// fetch video in ranges and the service worker serves cached media by range.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'
import { servedType } from './media-types.ts'

// The types an object without a row is served as, by its extension (servedType then decides
// whether it may be shown inline at all).
const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
}

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * Storage answers are never documents of the shop's origin (issue 23, findings 2 and 6): whatever
 * an object turns out to be, the browser may not sniff it into another type, and opened directly
 * it runs no script, has an origin of its own (sandbox) and cannot be framed. The one document it
 * may be is the browser's own viewer of an image or video: that viewer plays the video from the
 * same URL (media-src) and styles itself inline. server.ts sets the site-wide headers first; these
 * replace its policy for storage.
 */
export const STORAGE_CSP =
  "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'"

export function applyStorageHeaders(res: ServerResponse): void {
  if (res.headersSent) return
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Content-Security-Policy', STORAGE_CSP)
}

export function storageError(
  res: ServerResponse,
  status: number,
  error: string,
  message: string,
  statusCode = status,
): void {
  // Storage API error body: statusCode is a string, and for missing objects and buckets it says
  // 404 while the HTTP status is 400, as Supabase Storage answers.
  applyStorageHeaders(res)
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify({ statusCode: String(statusCode), error, message }))
}

/** Limits of S3 keys and of the file systems objects are stored on. */
export const MAX_OBJECT_NAME_BYTES = 1024
export const MAX_SEGMENT_BYTES = 255
const MAX_BUCKET_NAME_LENGTH = 100

/** Why a bucket id is not one, or null when it is well formed. */
export function bucketNameProblem(bucket: string): string | null {
  if (
    bucket.length === 0 ||
    bucket.length > MAX_BUCKET_NAME_LENGTH ||
    !/^[A-Za-z0-9_.-]+$/.test(bucket) ||
    bucket.startsWith('.')
  ) {
    return `Invalid bucket name: 1 to ${MAX_BUCKET_NAME_LENGTH} letters, digits, '_', '-' or '.', not starting with '.'`
  }
  return null
}

// C0 and C1 control characters (NUL included: Postgres text cannot hold it), and a UTF-16
// surrogate without its pair (JSON can spell one; it is no character and no valid file name).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why an object name cannot be stored, or null when it can. */
export function objectNameProblem(name: string): string | null {
  if (name === '') return 'The object name is empty'
  if (Buffer.byteLength(name) > MAX_OBJECT_NAME_BYTES)
    return `The object name is longer than ${MAX_OBJECT_NAME_BYTES} bytes`
  if (CONTROL.test(name)) return 'The object name contains control characters'
  if (LONE_SURROGATE.test(name)) return 'The object name is not valid Unicode'
  if (name.includes('\\')) return 'The object name contains a backslash'
  for (const segment of name.split('/')) {
    if (segment === '')
      return 'The object name has an empty path segment (a leading, trailing or double /)'
    if (segment === '.' || segment === '..') return "The object name has a '.' or '..' path segment"
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      return `A path segment of the object name is longer than ${MAX_SEGMENT_BYTES} bytes`
  }
  return null
}

/** Resolves <bucket>/<object path> inside storageDir, or null when either name is invalid. */
export function resolveObjectPath(
  storageDir: string,
  bucket: string,
  objectPath: string,
): string | null {
  if (bucketNameProblem(bucket) || objectNameProblem(objectPath)) return null
  const root = resolve(storageDir, bucket)
  const full = resolve(root, ...objectPath.split('/'))
  return full.startsWith(root + sep) ? full : null
}

type ByteRange = { start: number; end: number } | 'unsatisfiable' | null

/** Parses a single `bytes=` range (multi-range requests are answered with the whole object). */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return null
  let start: number
  let end: number
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    start = Math.max(size - suffix, 0)
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  }
  if (start >= size || start > end) return 'unsatisfiable'
  return { start, end }
}

export async function servePublicObject(
  req: IncomingMessage,
  res: ServerResponse,
  storageDir: string,
  bucket: string,
  objectPath: string,
  isPublicBucket: (bucket: string) => Promise<boolean>,
  /** The content type recorded at upload, when there is one; else it follows the extension. */
  storedContentType?: (bucket: string, objectPath: string) => Promise<string | null>,
): Promise<void> {
  applyStorageHeaders(res)
  const problem = bucketNameProblem(bucket) ?? objectNameProblem(objectPath)
  const file = problem ? null : resolveObjectPath(storageDir, bucket, objectPath)
  if (!file) return storageError(res, 400, 'InvalidKey', problem ?? 'The object key is invalid')
  if (!(await isPublicBucket(bucket)))
    return storageError(res, 400, 'Bucket not found', 'Bucket not found', 404)
  const served = servedType((await storedContentType?.(bucket, objectPath)) ?? contentTypeFor(file))
  let size: number
  let mtime: Date
  try {
    const info = await stat(file)
    if (!info.isFile()) throw new Error('not a file')
    size = info.size
    mtime = info.mtime
  } catch {
    return storageError(res, 400, 'not_found', 'Object not found', 404)
  }

  const etag = `"${size.toString(16)}-${mtime.getTime().toString(16)}"`
  const headers: Record<string, string | number> = {
    'Content-Type': served.contentType,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'max-age=3600',
    ETag: etag,
    'Last-Modified': mtime.toUTCString(),
  }
  // Stored before uploads were checked (or seeded) and not plain media: never shown inline.
  if (served.attachment) headers['Content-Disposition'] = 'attachment'
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers)
    res.end()
    return
  }

  const range = parseRange(req.headers.range, size)
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}` })
    res.end()
    return
  }
  const status = range ? 206 : 200
  const start = range?.start ?? 0
  const end = range?.end ?? size - 1
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`
  headers['Content-Length'] = size === 0 ? 0 : end - start + 1
  res.writeHead(status, headers)
  if (req.method === 'HEAD' || size === 0) {
    res.end()
    return
  }
  await new Promise<void>((done) => {
    const stream = createReadStream(file, { start, end })
    stream.on('error', () => {
      res.destroy()
      done()
    })
    res.on('close', () => {
      stream.destroy()
      done()
    })
    stream.pipe(res)
  })
}
