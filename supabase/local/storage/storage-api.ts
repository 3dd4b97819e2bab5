// The stand-in's /storage/v1 writes (and authenticated reads): upload (raw body or multipart, the
// two shapes storage-js sends), remove by path list, delete one object. As in Supabase Storage,
// the object's row in storage.objects is written as the request's role inside the request's
// transaction, so the bucket's RLS policies (public.is_admin() for product_media) decide who may
// write; the file lands on disk only when that insert succeeds.
//
// Every input is hostile (issue 23, findings 2 and 8): an upload is taken only when its bytes are
// media the shop shows (media-types.ts), whatever type and name it declares; bucket and object
// names are checked before they reach the database or the disk; JSON bodies are read under a size
// and depth cap. Every answer carries storage's own nosniff and sandbox headers (storage-files.ts).
//
// Errors keep Supabase Storage's shape: the body says the real status (`statusCode: "409"`) while
// the HTTP status is 400, as Supabase Storage answers everything but 500s — except a body too large
// (413) and a type refused (415), which clients and proxies understand by their status.
import { randomUUID } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { dirname, join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import {
  BodyTooLargeError,
  formatLimit,
  JsonBodyError,
  readBody,
  readJsonBody,
  REST_WRITE_BODY_LIMIT,
} from '../http/http-body.ts'
import { ACCEPTED_MEDIA, extensionMismatch, sniffMediaType } from './media-types.ts'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files.ts'
import {
  authenticate,
  plainHeaders,
  withRequestRole,
  type RequestAuth,
} from '../request/request-context.ts'
import { PostgrestError } from '../request/postgrest-errors.ts'
import {
  applyStorageHeaders,
  bucketNameProblem,
  objectNameProblem,
  resolveObjectPath,
  servePublicObject,
} from './storage-files.ts'
import { reportServerError } from '../http/request-log.ts'

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
    readonly httpStatus = statusCode === 413 || statusCode === 415
      ? statusCode
      : statusCode >= 500
        ? 500
        : 400,
  ) {
    super(message)
  }
}

const invalidKey = (reason: string) => new StorageError(400, 'InvalidKey', reason)
const invalidRequest = (message: string) => new StorageError(400, 'invalid_request', message)
const bucketNotFound = () => new StorageError(404, 'Bucket not found', 'Bucket not found')
const tooLarge = (message = 'The object exceeded the maximum allowed size') =>
  new StorageError(413, 'Payload too large', message)

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
    throw invalidKey('The object name is not valid percent-encoded UTF-8')
  }
}

/** The bucket id and object name of a URL, decoded and checked before any use. */
function objectOf(encodedBucket: string, encodedName: string): [bucket: string, name: string] {
  const bucket = decodeSegments(encodedBucket)
  const bucketProblem = bucketNameProblem(bucket)
  if (bucketProblem) throw new StorageError(400, 'InvalidBucketName', bucketProblem)
  const name = decodeSegments(encodedName)
  const nameProblem = objectNameProblem(name)
  if (nameProblem) throw invalidKey(nameProblem)
  return [bucket, name]
}

function bucketOf(encodedBucket: string): string {
  const bucket = decodeSegments(encodedBucket)
  const problem = bucketNameProblem(bucket)
  if (problem) throw new StorageError(400, 'InvalidBucketName', problem)
  return bucket
}

/** A JSON object body under the storage cap; a bad or oversized body is a 400 or 413. */
async function readStorageJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let body: unknown
  try {
    body = await readJsonBody(req, REST_WRITE_BODY_LIMIT)
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw tooLarge(`The request body is larger than ${formatLimit(REST_WRITE_BODY_LIMIT)}`)
    if (error instanceof JsonBodyError) throw invalidRequest(`Body must be JSON: ${error.message}`)
    throw error
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequest('Body must be a JSON object')
  return body as Record<string, unknown>
}

/**
 * Throws away what is left of a request body answered before it was read (a refused upload), so
 * the client reads the answer instead of a reset; a client that keeps sending is cut off.
 */
function discardBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return
  let discarded = 0
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD) req.destroy()
  })
  req.on('error', () => {})
  req.resume()
}

// Storage's JSON endpoints the shop does not use (list, move, copy, signed URLs, buckets): their
// bodies are still read under the caps, so a bad or huge one is refused as such.
const UNAVAILABLE_JSON =
  /^\/(?:object\/(?:list\/[^/]+|move|copy|sign\/.+|upload\/sign\/.+)|bucket(?:\/.*)?)$/

export async function handleStorage(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: StorageContext,
  url: URL,
): Promise<void> {
  applyStorageHeaders(res)
  try {
    const method = req.method ?? 'GET'
    const rest = url.pathname.replace(/^\/storage\/v1/, '')
    const authed = /^\/object\/(?:authenticated\/)?([^/]+)\/(.+)$/.exec(rest)
    const bucketOnly = /^\/object\/([^/]+)\/?$/.exec(rest)
    if ((method === 'POST' || method === 'PUT') && UNAVAILABLE_JSON.test(rest)) {
      await readStorageJson(req)
    } else if (
      (method === 'POST' || method === 'PUT') &&
      authed &&
      !rest.startsWith('/object/authenticated/')
    ) {
      return await upload(req, res, ctx, url, ...objectOf(authed[1]!, authed[2]!))
    } else if (method === 'DELETE' && bucketOnly) {
      return await removeMany(req, res, ctx, url, bucketOf(bucketOnly[1]!))
    } else if (method === 'DELETE' && authed) {
      const [bucket, name] = objectOf(authed[1]!, authed[2]!)
      const removed = await removeObjects(req, ctx, url, bucket, [name])
      if (removed.length === 0) throw new StorageError(404, 'not_found', 'Object not found')
      return send(res, 200, { message: 'Successfully deleted' })
    } else if ((method === 'GET' || method === 'HEAD') && authed) {
      return await download(req, res, ctx, url, ...objectOf(authed[1]!, authed[2]!))
    }
    throw new StorageError(
      404,
      'not_found',
      `${method} /storage/v1${rest} is not available in the embedded backend`,
    )
  } catch (error) {
    // A refusal before the body was read (a bad name, no right to write) lets it pass unread;
    // an oversized body is already being drained by readBody.
    if (!(error instanceof StorageError && error.statusCode === 413)) discardBody(req)
    if (error instanceof StorageError) return sendStorageError(res, error)
    // The client went away mid-upload: nobody is left to answer.
    if (req.destroyed || (error as { code?: unknown }).code === 'ECONNRESET') {
      res.destroy()
      return
    }
    reportServerError('storage request failed', error)
    sendStorageError(res, new StorageError(500, 'internal', 'Internal Server Error'))
  }
}

interface UploadedFile {
  bytes: Buffer
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
    return { bytes: body, cacheControl: `max-age=${cache?.[1] ?? '3600'}` }
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
    throw invalidRequest('The multipart body could not be parsed (check its boundary)')
  }
  let file: File | null = null
  for (const [, value] of form) {
    if (typeof value !== 'string') {
      file = value
      break
    }
  }
  if (!file) throw invalidRequest('No file found in the multipart body')
  const bytes = Buffer.from(await file.arrayBuffer())
  if (bytes.length > limit) throw tooLarge()
  const cacheField = form.get('cacheControl')
  return {
    bytes,
    cacheControl: `max-age=${typeof cacheField === 'string' && /^\d+$/.test(cacheField) ? cacheField : '3600'}`,
  }
}

/** Raised inside a transaction to roll it back on purpose. */
class Rollback extends Error {}

function objectInsert(upsert: boolean): string {
  return `insert into storage.objects (bucket_id, name, owner, metadata, version)
         values ($1, $2, auth.uid(), $3::jsonb, $4)
         ${
           upsert
             ? `on conflict (bucket_id, name) do update
                set metadata = excluded.metadata, version = excluded.version, owner = excluded.owner,
                    updated_at = now(), last_accessed_at = now()`
             : ''
         }
         returning id`
}

/** Disk refusals that are the caller's doing: a file where a folder is needed, or the reverse. */
function fromFileSystem(error: unknown): StorageError | null {
  const code = (error as { code?: unknown }).code
  if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTEMPTY')
    return new StorageError(
      409,
      'Duplicate',
      'An object cannot have the name of a folder of other objects, nor be inside another object',
    )
  if (code === 'ENAMETOOLONG') return invalidKey('The object name is too long to be stored')
  return null
}

async function upload(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: StorageContext,
  url: URL,
  bucketId: string,
  objectName: string,
): Promise<void> {
  const target = resolveObjectPath(ctx.storageDir, bucketId, objectName)
  if (!target) throw invalidKey('The object name is invalid')
  const auth = await callerAuth(req, ctx.jwtSecret)
  const bucket = await findBucket(ctx.db, bucketId)
  // PUT (storage-js update()) replaces, like an upsert; POST replaces only with x-upsert: true.
  const upsert = req.method === 'PUT' || req.headers['x-upsert'] === 'true'

  // Whether the bucket's policies let the caller write this name (and whether it is taken), asked
  // before the body is read: otherwise anyone could make the server hold 50 MB per request only
  // to refuse it.
  try {
    await withRequestRole(ctx.db, auth, meta(req, url, false), async (tx) => {
      await tx.query(objectInsert(upsert), [bucketId, objectName, '{}', 'precheck'])
      throw new Rollback()
    })
  } catch (error) {
    if (!(error instanceof Rollback)) throw fromDatabase(error)
  }

  const limit = Math.min(bucket.file_size_limit ?? MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES)
  const file = await readUpload(req, limit)
  // What the bytes are decides, never the declared Content-Type or the name (finding 2).
  const type = await sniffMediaType(file.bytes)
  if (!type)
    throw new StorageError(
      415,
      'invalid_mime_type',
      `The file is not one of the shop's media types (${ACCEPTED_MEDIA}); SVG, HTML, text and other documents are refused`,
    )
  const mismatch = extensionMismatch(objectName, type)
  if (mismatch) throw new StorageError(400, 'invalid_extension', mismatch)
  if (bucket.allowed_mime_types?.length && !bucket.allowed_mime_types.includes(type.mime)) {
    throw new StorageError(415, 'invalid_mime_type', `mime type ${type.mime} is not supported`)
  }

  // The bytes go to a temporary file first and are renamed into place only once the row is in,
  // so a refused or failed upload never leaves (or replaces) a file. The temporary files have a
  // folder of their own (no bucket name starts with '.'), so a name of 255 bytes stays storable.
  const uploads = join(ctx.storageDir, '.uploads')
  const temp = join(uploads, randomUUID())
  await mkdir(uploads, { recursive: true, mode: PRIVATE_DIR_MODE })
  await writeSynced(temp, file.bytes)
  const version = randomUUID()
  const metadata = {
    eTag: `"${version}"`,
    size: file.bytes.length,
    mimetype: type.mime,
    cacheControl: file.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: file.bytes.length,
    httpStatusCode: 200,
  }
  let id: string
  try {
    id = await withRequestRole(ctx.db, auth, meta(req, url, false), async (tx) => {
      const { rows } = await tx.query<{ id: string }>(objectInsert(upsert), [
        bucketId,
        objectName,
        JSON.stringify(metadata),
        version,
      ])
      await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE })
      await rename(temp, target)
      return rows[0]!.id
    })
  } catch (error) {
    await rm(temp, { force: true })
    if (error instanceof StorageError) throw error
    throw fromFileSystem(error) ?? fromDatabase(error)
  }
  // The row's commit is on the disk (docs/decisions/034-durable-commits.md); the rename must be too before the answer, or a
  // power cut could leave a durable row whose bytes are gone.
  await syncDirectory(dirname(target))
  send(res, 200, { Id: id, Key: `${bucketId}/${objectName}` })
}

/** Writes a file, its user's only (docs/decisions/052-private-data-folder.md), and waits for its bytes to reach the disk. */
async function writeSynced(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'w', PRIVATE_FILE_MODE)
  try {
    await handle.writeFile(bytes)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Makes a rename into a folder durable (Linux: fsync of the folder itself). */
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } catch {
    // Some filesystems refuse fsync on a folder; the file's own bytes were synced before.
  } finally {
    await handle.close()
  }
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
  const { prefixes } = await readStorageJson(req)
  if (
    !Array.isArray(prefixes) ||
    prefixes.length === 0 ||
    prefixes.length > 1000 ||
    !prefixes.every((p) => typeof p === 'string')
  ) {
    throw invalidRequest('body/prefixes must be an array of 1 to 1000 object paths')
  }
  for (const [index, name] of prefixes.entries()) {
    const problem = objectNameProblem(name)
    if (problem) throw invalidKey(`body/prefixes/${index}: ${problem}`)
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
