// Object reads for the stand-in's storage (/storage/v1/object/public/<bucket>/<path>, and the
// authenticated variants once the caller's read is allowed). Objects live on disk under
// <storageDir>/<bucket>/<path>; their rows (with the content type given at upload) live in
// storage.objects. Byte ranges matter: browsers fetch video in ranges and the service worker
// serves cached media by range.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'

// The types product media may have (SPEC.md §5 uploads, plus SVG covers of generated products).
const CONTENT_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
}

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
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
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify({ statusCode: String(statusCode), error, message }))
}

/** Resolves <bucket>/<object path> inside storageDir, or null when it would escape it. */
export function resolveObjectPath(
  storageDir: string,
  bucket: string,
  objectPath: string,
): string | null {
  if (!/^[A-Za-z0-9_.-]+$/.test(bucket) || bucket.startsWith('.')) return null
  const segments = objectPath.split('/')
  if (
    segments.some(
      (s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'),
    )
  )
    return null
  const root = resolve(storageDir, bucket)
  const full = resolve(root, ...segments)
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
  const file = resolveObjectPath(storageDir, bucket, objectPath)
  if (!file) return storageError(res, 400, 'Invalid Key', 'The object key is invalid')
  if (!(await isPublicBucket(bucket)))
    return storageError(res, 400, 'Bucket not found', 'Bucket not found', 404)
  const contentType = (await storedContentType?.(bucket, objectPath)) ?? contentTypeFor(file)
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
    'Content-Type': contentType,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'max-age=3600',
    ETag: etag,
    'Last-Modified': mtime.toUTCString(),
  }
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
