// The stand-in's /rest/v1: the PostgREST subset supabase-js needs. Parses the request
// (query-parser), builds SQL (sql-builder) and runs it as the caller's role; answers with
// PostgREST's headers (Content-Range, content types) and error bodies.
//
// NOTE: reads, update, delete and rpc for now; insert and upsert answer 501 until the admin
// work needs them.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PGlite } from '@electric-sql/pglite'
import {
  authenticate,
  plainHeaders,
  withRequestRole,
  type RequestAuth,
} from '../request-context.ts'
import { PostgrestError, toPostgrestError } from './postgrest-errors.ts'
import { parseReadRequest } from './query-parser.ts'
import { EXPOSED_SCHEMA, type SchemaCache } from './schema-cache.ts'
import { buildRead, buildRpc, buildWrite, findTable } from './sql-builder.ts'

export interface RestContext {
  db: PGlite
  cache: SchemaCache
  jwtSecret: Uint8Array
}

const MAX_BODY_BYTES = 10 * 1024 * 1024
const SINGLE_OBJECT = 'application/vnd.pgrst.object+json'

export async function handleRest(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RestContext,
  url: URL,
): Promise<void> {
  let auth: RequestAuth | null = null
  try {
    auth = await authenticate(req, ctx.jwtSecret)
    checkProfile(req)
    const resource = decodePath(url.pathname.replace(/^\/rest\/v1\/?/, ''))
    const method = req.method ?? 'GET'
    if (resource.startsWith('rpc/')) {
      await handleRpc(req, res, ctx, auth, resource.slice(4), url)
    } else if (resource === '' || resource.includes('/')) {
      throw new PostgrestError(404, 'PGRST125', `Invalid path specified in request URL`)
    } else if (method === 'GET' || method === 'HEAD') {
      await handleRead(req, res, ctx, auth, resource, url)
    } else if (method === 'PATCH' || method === 'DELETE') {
      await handleWrite(req, res, ctx, auth, resource, url)
    } else {
      findTable(ctx.cache, resource)
      throw new PostgrestError(
        501,
        'PGRST000',
        `${method} on tables is not supported by the embedded backend yet`,
      )
    }
  } catch (error) {
    sendError(res, toPostgrestError(error, auth?.role ?? 'anon'))
  }
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    throw new PostgrestError(400, 'PGRST125', 'Invalid path specified in request URL')
  }
}

function checkProfile(req: IncomingMessage): void {
  for (const header of ['accept-profile', 'content-profile'] as const) {
    const profile = req.headers[header]
    if (typeof profile === 'string' && profile !== EXPOSED_SCHEMA) {
      throw new PostgrestError(
        406,
        'PGRST106',
        `The schema must be one of the following: ${EXPOSED_SCHEMA}`,
      )
    }
  }
}

interface Negotiated {
  single: boolean
  stripNulls: boolean
  contentType: string
}

function negotiate(req: IncomingMessage): Negotiated {
  const accept = (req.headers.accept ?? '').toLowerCase()
  const single = accept.startsWith(SINGLE_OBJECT)
  return {
    single,
    stripNulls: /nulls=stripped/.test(accept),
    contentType: `${single ? SINGLE_OBJECT : 'application/json'}; charset=utf-8`,
  }
}

function preferences(req: IncomingMessage): Set<string> {
  const header = req.headers.prefer
  const values = Array.isArray(header) ? header.join(',') : (header ?? '')
  return new Set(
    values
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  )
}

async function handleRead(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RestContext,
  auth: RequestAuth,
  table: string,
  url: URL,
): Promise<void> {
  const prefer = preferences(req)
  const wantsCount = ['count=exact', 'count=planned', 'count=estimated'].some((p) => prefer.has(p))
  const shape = negotiate(req)
  const request = parseReadRequest(url.searchParams)
  const built = buildRead(ctx.cache, table, request, {
    count: wantsCount,
    single: shape.single,
    stripNulls: shape.stripNulls,
  })

  const result = await withRequestRole(ctx.db, auth, requestMeta(req, url, true), async (tx) => {
    const page = await tx.query<{ body: string; row_count: number }>(
      built.read.sql,
      built.read.params,
    )
    const total = built.count
      ? ((await tx.query<{ total: number }>(built.count.sql, built.count.params)).rows[0]?.total ??
        0)
      : null
    return { body: page.rows[0]?.body ?? '[]', rowCount: page.rows[0]?.row_count ?? 0, total }
  })

  if (shape.single && result.rowCount !== 1) {
    throw new PostgrestError(
      406,
      'PGRST116',
      'Cannot coerce the result to a single JSON object',
      `The result contains ${result.rowCount} rows`,
    )
  }
  const offset = request.options.get('')?.offset ?? 0
  const range = result.rowCount === 0 ? '*' : `${offset}-${offset + result.rowCount - 1}`
  res.writeHead(200, {
    'Content-Type': shape.contentType,
    'Content-Range': `${range}/${result.total ?? '*'}`,
  })
  res.end(req.method === 'HEAD' ? undefined : result.body)
}

async function handleWrite(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RestContext,
  auth: RequestAuth,
  table: string,
  url: URL,
): Promise<void> {
  const prefer = preferences(req)
  const shape = negotiate(req)
  const representation = prefer.has('return=representation')
  const request = parseReadRequest(url.searchParams)
  let change: Parameters<typeof buildWrite>[3]
  if (req.method === 'PATCH') {
    const values = parseJsonObject(await readBody(req))
    change = { kind: 'update', values }
  } else {
    change = { kind: 'delete' }
  }
  const built = buildWrite(ctx.cache, table, request, change, {
    representation,
    single: shape.single,
    stripNulls: shape.stripNulls,
  })
  const result = await withRequestRole(ctx.db, auth, requestMeta(req, url, false), async (tx) => {
    const rows = await tx.query<{ body: string | null; row_count: number }>(built.sql, built.params)
    const row = rows.rows[0]
    if (shape.single && row?.row_count !== 1) {
      // Thrown inside the transaction so the change is rolled back, as PostgREST does.
      throw new PostgrestError(
        406,
        'PGRST116',
        'Cannot coerce the result to a single JSON object',
        `The result contains ${row?.row_count ?? 0} rows`,
      )
    }
    return { body: row?.body ?? null, rowCount: row?.row_count ?? 0 }
  })
  const range = result.rowCount === 0 ? '*' : `0-${result.rowCount - 1}`
  if (!built.returnsBody) {
    res.writeHead(204, { 'Content-Range': `${range}/*` })
    res.end()
    return
  }
  res.writeHead(200, { 'Content-Type': shape.contentType, 'Content-Range': `${range}/*` })
  res.end(result.body ?? '[]')
}

function parseJsonObject(body: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = body.trim() === '' ? {} : JSON.parse(body)
  } catch {
    throw new PostgrestError(400, 'PGRST102', 'Empty or invalid json')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new PostgrestError(400, 'PGRST102', 'Invalid body: expected a JSON object')
  }
  return parsed as Record<string, unknown>
}

async function handleRpc(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RestContext,
  auth: RequestAuth,
  name: string,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET'
  let args: Record<string, unknown>
  if (method === 'POST') {
    args = parseJsonObject(await readBody(req))
  } else if (method === 'GET' || method === 'HEAD') {
    args = Object.fromEntries(
      [...url.searchParams].filter(
        ([key]) => !['select', 'order', 'limit', 'offset', 'apikey'].includes(key),
      ),
    )
  } else {
    throw new PostgrestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`)
  }

  const built = buildRpc(ctx.cache, name, args)
  const readOnly = method !== 'POST' || built.fn.volatility !== 'volatile'
  const body = await withRequestRole(ctx.db, auth, requestMeta(req, url, readOnly), async (tx) => {
    const result = await tx.query<{ body?: string | null }>(built.sql, built.params)
    return result.rows[0]?.body ?? null
  })
  if (built.fn.returnsVoid) {
    res.writeHead(204)
    res.end()
    return
  }
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' })
  res.end(method === 'HEAD' ? undefined : (body ?? 'null'))
}

function requestMeta(req: IncomingMessage, url: URL, readOnly: boolean) {
  return {
    method: req.method ?? 'GET',
    path: url.pathname.replace(/^\/rest\/v1/, ''),
    headers: plainHeaders(req),
    readOnly,
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES)
      throw new PostgrestError(413, 'PGRST000', 'Request body is too large')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function sendError(res: ServerResponse, error: PostgrestError): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.writeHead(error.status, { 'Content-Type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(error.toBody()))
}
