// The stand-in's /storage/v1 writes (and authenticated reads): upload (raw body or multipart, the
// two shapes storage-js sends), remove by path list, delete one object. As in Supabase Storage,
// the object's row in storage.objects is written as the request's role inside the request's
// transaction, so the bucket's RLS policies (public.is_admin() for product_media) decide who may
// write; the file lands on disk only when that insert succeeds.
//
// Errors keep Supabase Storage's shape: the body says the real status (`statusCode: "409"`) while
// the HTTP status is 400, as Supabase Storage answers everything but 500s.
import { randomUUID } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { dirname } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { BodyTooLargeError, readBody } from './http-body.ts'
import { authenticate, plainHeaders, withRequestRole, type RequestAuth } from './request-context.ts'
import { PostgrestError } from './rest/postgrest-errors.ts'
import { resolveObjectPath, servePublicObject } from './storage-files.ts'

export interface StorageContext {
  db: PGlite
  jwtSecret: Uint8Array
  storageDir: string
}

/** Supabase's default global upload limit, and SPEC.md §9's per-file maximum. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024
// A multipart envelope around a file at the limit is a little larger than the file.
const MULTIPART_OVERHEAD = 64 * 1024

class StorageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    readonly httpStatus = statusCode >= 500 ? 500 : 400,
  ) {
    super(message)
  }
}

const invalidKey = (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`)
const bucketNotFound = () => new StorageError(404, 'Bucket not found', 'Bucket not found')
const tooLarge = () =>
  new StorageError(413, 'Payload too large', 'The object exceeded the maximum allowed size')

function send(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers })
  res.end(JSON.stringify(body))
}

function sendStorageError(res: ServerResponse, error: StorageError): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  send(
    res,
    error.httpStatus,
    { statusCode: String(error.statusCode), error: error.error, message: error.message },
    // An oversized upload is not read to its end: close the connection after answering.
    error.statusCode === 413 ? { Connection: 'close' } : {},
  )
}

/** Postgres errors from the object row, in Storage's words. */
function fromDatabase(error: unknown): StorageError {
  const code = (error as { code?: unknown }).code
  const message = (error as { message?: unknown }).message
  if (code === '23505') return new StorageError(409, 'Duplicate', 'The resource already exists')
  if (code === '42501')
    return new StorageError(403, 'Unauthorized', 'new row violates row-level security policy')
  if (code === '23503') return bucketNotFound()
  return new StorageError(500, 'internal', typeof message === 'string' ? message : 'Internal error')
}

async function callerAuth(req: IncomingMessage, secret: Uint8Array): Promise<RequestAuth> {
  try {
    return await authenticate(req, secret)
  } catch (error) {
    if (error instanceof PostgrestError) {
      // No key at all is refused by Supabase's gateway; a bad JWT by Storage itself.
      if (/No API key/.test(error.message))
        throw new StorageError(401, 'Unauthorized', error.message, 401)
      throw new StorageError(400, 'InvalidJWT', error.message)
    }
    throw error
  }
}

interface Bucket {
  id: string
  public: boolean
  file_size_limit: number | null
  allowed_mime_types: string[] | null
}

async function findBucket(db: PGlite, id: string): Promise<Bucket> {
  const { rows } = await db.query<Bucket>(
    'select id, public, file_size_limit::float8 as file_size_limit, allowed_mime_types from storage.buckets where id = $1',
    [id],
  )
  if (!rows[0]) throw bucketNotFound()
  return rows[0]
}

const meta = (req: IncomingMessage, url: URL, readOnly: boolean) => ({
  method: req.method ?? 'GET',
  path: url.pathname,
  headers: plainHeaders(req),
  readOnly,
})

function decodeSegments(encoded: string): string {
  try {
    return decodeURIComponent(encoded)
  } catch {
    throw invalidKey(encoded)
  }
}

export async function handleStorage(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: StorageContext,
  url: URL,
): Promise<void> {
  try {
    const method = req.method ?? 'GET'
    const rest = url.pathname.replace(/^\/storage\/v1/, '')
    const authed = /^\/object\/(?:authenticated\/)?([^/]+)\/(.+)$/.exec(rest)
    const bucketOnly = /^\/object\/([^/]+)\/?$/.exec(rest)
    if (
      (method === 'POST' || method === 'PUT') &&
      authed &&
      !rest.startsWith('/object/authenticated/')
    ) {
      return await upload(
        req,
        res,
        ctx,
        url,
        decodeSegments(authed[1]!),
        decodeSegments(authed[2]!),
      )
    }
    if (method === 'DELETE' && bucketOnly) {
      return await removeMany(req, res, ctx, url, decodeSegments(bucketOnly[1]!))
    }
    if (method === 'DELETE' && authed) {
      const removed = await removeObjects(req, ctx, url, decodeSegments(authed[1]!), [
        decodeSegments(authed[2]!),
      ])
      if (removed.length === 0) throw new StorageError(404, 'not_found', 'Object not found')
      return send(res, 200, { message: 'Successfully deleted' })
    }
    if ((method === 'GET' || method === 'HEAD') && authed) {
      return await download(
        req,
        res,
        ctx,
        url,
        decodeSegments(authed[1]!),
        decodeSegments(authed[2]!),
      )
    }
    throw new StorageError(
      404,
      'not_found',
      `${method} /storage/v1${rest} is not available in the embedded backend`,
    )
  } catch (error) {
    if (error instanceof StorageError) return sendStorageError(res, error)
    console.error('[humo-backend] storage request failed:', error)
    sendStorageError(res, new StorageError(500, 'internal', 'Internal Server Error'))
  }
}

interface UploadedFile {
  bytes: Buffer
  contentType: string
  cacheControl: string
}

const baseType = (contentType: string): string => contentType.split(';')[0]!.trim().toLowerCase()

async function readUpload(req: IncomingMessage, limit: number): Promise<UploadedFile> {
  const contentType = req.headers['content-type'] ?? 'application/octet-stream'
  const multipart = baseType(contentType) === 'multipart/form-data'
  let body: Buffer
  try {
    body = await readBody(req, multipart ? limit + MULTIPART_OVERHEAD : limit)
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge()
    throw error
  }
  if (!multipart) {
    const cache = /max-age=(\d+)/.exec(String(req.headers['cache-control'] ?? ''))
    return { bytes: body, contentType, cacheControl: `max-age=${cache?.[1] ?? '3600'}` }
  }
  // Node's own fetch implementation (undici) parses the multipart body storage-js sends: the file
  // in the first file field (storage-js names it ""), cacheControl as a plain field.
  let form: FormData
  try {
    form = await new Request('http://multipart.local/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    }).formData()
  } catch {
    throw new StorageError(400, 'invalid_request', 'The multipart body could not be parsed')
  }
  let file: File | null = null
  for (const [, value] of form) {
    if (typeof value !== 'string') {
      file = value
      break
    }
  }
  if (!file) throw new StorageError(400, 'invalid_request', 'No file found in the request')
  const bytes = Buffer.from(await file.arrayBuffer())
  if (bytes.length > limit) throw tooLarge()
  const cacheField = form.get('cacheControl')
  return {
    bytes,
    contentType: file.type || 'application/octet-stream',
    cacheControl: `max-age=${typeof cacheField === 'string' && /^\d+$/.test(cacheField) ? cacheField : '3600'}`,
  }
}

async function upload(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: StorageContext,
  url: URL,
  bucketId: string,
  objectName: string,
): Promise<void> {
  const auth = await callerAuth(req, ctx.jwtSecret)
  const bucket = await findBucket(ctx.db, bucketId)
  const target = resolveObjectPath(ctx.storageDir, bucketId, objectName)
  if (!target) throw invalidKey(objectName)
  const limit = Math.min(bucket.file_size_limit ?? MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES)
  const file = await readUpload(req, limit)
  const mimetype = baseType(file.contentType)
  if (bucket.allowed_mime_types?.length && !bucket.allowed_mime_types.includes(mimetype)) {
    throw new StorageError(415, 'invalid_mime_type', `mime type ${mimetype} is not supported`)
  }
  // PUT (storage-js update()) replaces, like an upsert; POST replaces only with x-upsert: true.
  const upsert = req.method === 'PUT' || req.headers['x-upsert'] === 'true'

  // The bytes go to a temporary file first and are renamed into place only once the row is in,
  // so a refused or failed upload never leaves (or replaces) a file.
  const temp = `${target}.upload-${randomUUID()}`
  await mkdir(dirname(target), { recursive: true })
  await writeFile(temp, file.bytes)
  const version = randomUUID()
  const metadata = {
    eTag: `"${version}"`,
    size: file.bytes.length,
    mimetype: file.contentType,
    cacheControl: file.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: file.bytes.length,
    httpStatusCode: 200,
  }
  let id: string
  try {
    id = await withRequestRole(ctx.db, auth, meta(req, url, false), async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `insert into storage.objects (bucket_id, name, owner, metadata, version)
         values ($1, $2, auth.uid(), $3::jsonb, $4)
         ${
           upsert
             ? `on conflict (bucket_id, name) do update
                set metadata = excluded.metadata, version = excluded.version, owner = excluded.owner,
                    updated_at = now(), last_accessed_at = now()`
             : ''
         }
         returning id`,
        [bucketId, objectName, JSON.stringify(metadata), version],
      )
      await rename(temp, target)
      return rows[0]!.id
    })
  } catch (error) {
    await rm(temp, { force: true })
    throw error instanceof StorageError ? error : fromDatabase(error)
  }
  send(res, 200, { Id: id, Key: `${bucketId}/${objectName}` })
}

async function removeObjects(
  req: IncomingMessage,
  ctx: StorageContext,
  url: URL,
  bucketId: string,
  names: string[],
): Promise<Record<string, unknown>[]> {
  const auth = await callerAuth(req, ctx.jwtSecret)
  await findBucket(ctx.db, bucketId)
  let removed: Record<string, unknown>[]
  try {
    // RLS filters the delete: rows the caller may not delete are simply not removed (and not
    // listed), as Supabase Storage answers.
    removed = await withRequestRole(ctx.db, auth, meta(req, url, false), async (tx) => {
      const { rows } = await tx.query<Record<string, unknown>>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
         returning id, name, bucket_id, owner, created_at, updated_at, last_accessed_at, metadata, version`,
        [bucketId, names],
      )
      return rows
    })
  } catch (error) {
    throw fromDatabase(error)
  }
  for (const row of removed) {
    const file = resolveObjectPath(ctx.storageDir, bucketId, String(row.name))
    if (file) await rm(file, { force: true })
  }
  return removed
}

async function removeMany(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: StorageContext,
  url: URL,
  bucketId: string,
): Promise<void> {
  let body: unknown
  try {
    body = JSON.parse((await readBody(req, 1024 * 1024)).toString('utf8'))
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge()
    throw new StorageError(400, 'invalid_request', 'Body must be JSON')
  }
  const prefixes = (body as { prefixes?: unknown } | null)?.prefixes
  if (
    !Array.isArray(prefixes) ||
    prefixes.length === 0 ||
    prefixes.length > 1000 ||
    !prefixes.every((p) => typeof p === 'string')
  ) {
    throw new StorageError(
      400,
      'invalid_request',
      'body/prefixes must be an array of 1 to 1000 object paths',
    )
  }
  const removed = await removeObjects(req, ctx, url, bucketId, prefixes)
  send(res, 200, removed)
}

async function download(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: StorageContext,
  url: URL,
  bucketId: string,
  objectName: string,
): Promise<void> {
  const auth = await callerAuth(req, ctx.jwtSecret)
  await findBucket(ctx.db, bucketId)
  const row = await withRequestRole(ctx.db, auth, meta(req, url, true), async (tx) => {
    const { rows } = await tx.query<{ mimetype: string | null }>(
      `select metadata->>'mimetype' as mimetype from storage.objects where bucket_id = $1 and name = $2`,
      [bucketId, objectName],
    )
    return rows[0]
  })
  if (!row) throw new StorageError(404, 'not_found', 'Object not found')
  await servePublicObject(
    req,
    res,
    ctx.storageDir,
    bucketId,
    objectName,
    () => Promise.resolve(true),
    () => Promise.resolve(row.mimetype),
  )
}
