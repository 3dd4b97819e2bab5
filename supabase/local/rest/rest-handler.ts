// The stand-in's /rest/v1: the PostgREST subset supabase-js needs. Parses the request
// (query-parser), builds SQL (sql-builder) and runs it as the caller's role; answers with
// PostgREST's statuses, headers (Content-Range, content types) and error bodies.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { durableWaitPlace } from '../db/database.ts'
import { clientAddress } from '../http/client-address.ts'
import {
  authenticate,
  plainHeaders,
  withRequestRole,
  type RequestAuth,
} from '../request/request-context.ts'
import {
  BodyTooLargeError,
  BULK_BODY_LIMIT,
  formatLimit,
  JsonBodyError,
  readJsonBody,
  REST_WRITE_BODY_LIMIT,
  RPC_BODY_LIMIT,
} from '../http/http-body.ts'
import { PostgrestError, toPostgrestError } from '../request/postgrest-errors.ts'
import {
  parseColumnList,
  parseReadRequest,
  type ReadRequest,
  type SelectItem,
} from './query-parser.ts'
import { EXPOSED_SCHEMA, type SchemaCache } from './schema-cache.ts'
import {
  buildInsert,
  buildRead,
  buildRpc,
  buildWrite,
  findFunction,
  findTable,
  type BuiltRead,
} from './sql-builder.ts'
import { sendText } from '../http/compression.ts'
import { isChunkedImport, runChunkedImport } from '../shop/import-products.ts'
import type { PatchShape } from '../cache/json-row-patch.ts'
import {
  CACHED_PULLS,
  CATALOGUE_TABLES,
  cacheKey,
  sendCached,
  type CatalogueCache,
} from '../cache/catalogue-cache.ts'

export interface RestContext {
  db: PGlite
  /** Replaced in place when the schema cache reloads (NOTIFY pgrst). */
  cache: SchemaCache
  jwtSecret: Uint8Array
  /** Runs before a function is called (rate limits: rpc-rate-limits.ts); throws to refuse. */
  beforeRpc?: (call: RpcCall) => void
  /** Anonymous catalogue pulls and reads, kept per catalogue version (catalogue-cache.ts). */
  catalogueCache?: CatalogueCache
  /**
   * A new device's first page of pull_products was not in the cache: the pull warmer reads the
   * next pages ahead of it (pull-warmer.ts, readAhead).
   */
  onFirstPullMiss?: () => void
}

export interface RpcCall {
  name: string
  args: Record<string, unknown>
  auth: RequestAuth
  req: IncomingMessage
  res: ServerResponse
}

// Supabase's gateway caps request bodies; PostgREST itself has no limit. The caps here are per
// endpoint class (http-body.ts): 1 MB for table writes, 256 KB for a function's arguments (64 KB
// anonymously), 4 MB for the admin's bulk import when a signed-in user calls it. Smaller than the
// catalogue ever needs would refuse real work; larger lets one anonymous body hold the database
// while it converts.
const BULK_RPCS = new Set(['admin_import_products'])
/**
 * An anonymous caller's function arguments: an order of a hundred lines, a contact message or a
 * device's order list are a few kilobytes; a 250 KB argument costs the database ~50 ms to convert.
 */
export const ANON_RPC_BODY_LIMIT = 64 * 1024
const SINGLE_OBJECT = 'application/vnd.pgrst.object+json'

/**
 * PostgREST's db-max-rows for the API's roles (the service role is not capped): a read answers
 * at most this many rows, and each embedded list at most this many per parent, however many are
 * asked for. The shop's own pages are 1,000 rows at most (PULL_BATCH_SIZE).
 */
export const MAX_ROWS = 1000
/** Longer URLs are answered 414 (Node itself refuses headers over 16 KB with 431). */
export const MAX_URL_LENGTH = 8 * 1024

/**
 * Requests of one client address that run at once; the rest wait their turn here. PGlite runs one
 * statement at a time in arrival order, so without this a client with fifty connections puts fifty
 * statements ahead of everyone else's next read; with it, at most this many.
 */
export const CONCURRENT_REQUESTS_PER_CLIENT = 4

const slots = new Map<string, { running: number; waiting: (() => void)[] }>()

async function acquireSlot(address: string): Promise<void> {
  let entry = slots.get(address)
  if (!entry) {
    entry = { running: 0, waiting: [] }
    slots.set(address, entry)
  }
  const mine = entry
  if (mine.running >= CONCURRENT_REQUESTS_PER_CLIENT) {
    await new Promise<void>((resolve) => mine.waiting.push(resolve))
  } else mine.running++
}

function releaseSlot(address: string): void {
  const mine = slots.get(address)
  if (!mine) return
  // The slot passes straight to the next waiter, if any.
  const next = mine.waiting.shift()
  if (next) next()
  else if (--mine.running === 0) slots.delete(address)
}

/** The address whose slot a request holds, so that reading its body can give the slot up. */
const slotOf = new WeakMap<IncomingMessage, string>()

async function inClientSlot<T>(
  req: IncomingMessage,
  address: string,
  work: () => Promise<T>,
): Promise<T> {
  await acquireSlot(address)
  slotOf.set(req, address)
  try {
    // The wait for a commit's fsync (group commit, docs/decisions/041-group-commit.md) holds nothing of the database:
    // the client's other requests run meanwhile, and their commits join the same fsync.
    return await durableWaitPlace.run((wait) => awayForTheDisk(req, wait), work)
  } finally {
    // Not when the request gave its slot up to wait for the disk (awayForTheDisk).
    if (slotOf.get(req) === address) {
      slotOf.delete(req)
      releaseSlot(address)
    }
  }
}

/**
 * Gives the client's slot up for good while the request waits for the disk: what is left is to
 * answer. Taking a slot again could wait forever, behind requests that hold the client's slots
 * while they wait for a catalogue cache read that this request is making.
 */
async function awayForTheDisk(req: IncomingMessage, wait: () => Promise<void>): Promise<void> {
  const address = slotOf.get(req)
  if (address !== undefined) {
    slotOf.delete(req)
    releaseSlot(address)
  }
  await wait()
}

/**
 * Waits for a body without holding the client's slot: a body arrives at the client's pace, and
 * a client that never finishes some must not make its next requests (a plain read) wait for them.
 */
async function outsideSlot<T>(req: IncomingMessage, read: () => Promise<T>): Promise<T> {
  const address = slotOf.get(req)
  if (address === undefined) return read()
  releaseSlot(address)
  try {
    return await read()
  } finally {
    await acquireSlot(address)
  }
}

export async function handleRest(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RestContext,
  url: URL,
): Promise<void> {
  let auth: RequestAuth | null = null
  try {
    if ((req.url ?? '').length > MAX_URL_LENGTH) {
      throw new PostgrestError(
        414,
        'PGRST414',
        `URI too long: the limit is ${MAX_URL_LENGTH} characters`,
      )
    }
    const caller = await authenticate(req, ctx.jwtSecret)
    auth = caller
    checkProfile(req)
    const resource = decodePath(url.pathname.replace(/^\/rest\/v1\/?/, ''))
    const method = req.method ?? 'GET'
    if (await servedFromCache(req, res, ctx, caller, resource, url)) return
    await inClientSlot(req, clientAddress(req), async () => {
      if (resource.startsWith('rpc/')) {
        await handleRpc(req, res, ctx, caller, resource.slice(4), url)
      } else if (resource === '' || resource.includes('/')) {
        throw new PostgrestError(404, 'PGRST125', `Invalid path specified in request URL`)
      } else if (method === 'GET' || method === 'HEAD') {
        await handleRead(req, res, ctx, caller, resource, url)
      } else if (method === 'PATCH' || method === 'DELETE') {
        await handleWrite(req, res, ctx, caller, resource, url)
      } else if (method === 'POST') {
        await handleInsert(req, res, ctx, caller, resource, url)
      } else {
        findTable(ctx.cache, resource)
        throw new PostgrestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`)
      }
    })
  } catch (error) {
    sendError(res, toPostgrestError(error, auth?.role ?? 'anon'))
  }
}

/** A caller without a user: what it reads depends on nothing but the data and the request. */
const isAnonymous = (auth: RequestAuth): boolean => auth.role === 'anon' && !auth.claims.sub

/**
 * An anonymous GET whose answer the catalogue cache holds (or is reading now) is served without
 * the database and without waiting for a client slot: the slots keep one client from queueing
 * many statements ahead of others, and a cached answer queues none. Only a request the full path
 * below already answered under the same key can be found here.
 */
async function servedFromCache(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RestContext,
  auth: RequestAuth,
  resource: string,
  url: URL,
): Promise<boolean> {
  const method = req.method ?? 'GET'
  if (!ctx.catalogueCache || (method !== 'GET' && method !== 'HEAD') || !isAnonymous(auth))
    return false
  const found = ctx.catalogueCache.lookup(cacheKey(req, url, negotiate(req), preferences(req)))
  if (!found) return false
  if (resource.startsWith('rpc/')) {
    // Rate limits run before the cache, as on the full path.
    const name = resource.slice(4)
    const argNames = new Set(
      (ctx.cache.functions.get(name) ?? []).flatMap((f) => f.args.map((a) => a.name)),
    )
    const args = Object.fromEntries([...url.searchParams].filter(([key]) => argNames.has(key)))
    ctx.beforeRpc?.({ name, args, auth, req, res })
  }
  await sendCached(req, res, await found)
  return true
}

/** The columns of products that a change of stock moves (migration 20261126150000). */
const STOCK_COLUMNS = ['quantity_available', '_modified', 'updated_at']

/**
 * Whether a read may embed products anywhere (its answer then shows products' stock): any embed
 * not named by another catalogue table counts, as a foreign key's name could lead to products.
 */
function embedsProducts(items: SelectItem[]): boolean {
  return items.some(
    (item) =>
      item.kind === 'embed' &&
      (item.relation === 'products' ||
        !CATALOGUE_TABLES.has(item.relation) ||
        embedsProducts(item.select)),
  )
}

/**
 * What a cached anonymous read shows of products' stock (CachedAnswer.stockIds): nothing for a
 * read of another catalogue table that embeds no products; for a read of products, the ids of the
 * rows it answers, when a stock change of another product cannot change it: no filter or order
 * mentions a stock column (a change of stock then moves no row into, out of or within the
 * answer's order). Null (any stock change drops it) otherwise.
 *
 * A page without an order (or with ties in it) is kept too (docs/decisions/049-patch-cached-pages-with-new-stock.md, which relaxed 045):
 * Postgres may return its rows in another order after an update moved one, but any order is the
 * answer to such a read, and the kept one shows what is there now.
 */
function stockShown(
  table: string,
  request: ReadRequest,
  url: URL,
  body: string,
): ReadonlySet<string> | null {
  if (embedsProducts(request.select)) return null
  if (table !== 'products') return new Set()
  for (const [key, value] of url.searchParams) {
    if (key === 'select') continue
    if (STOCK_COLUMNS.some((column) => key.includes(column) || value.includes(column))) return null
  }
  // The answer's "id" must be the product's id: the plain column or *, and nothing else named id.
  const named = (item: SelectItem) =>
    item.kind === 'star'
      ? null
      : item.kind === 'column'
        ? (item.alias ?? item.name)
        : (item.alias ?? item.relation)
  const plainId = request.select.some(
    (item) => item.kind === 'star' || (item.kind === 'column' && item.name === 'id' && !item.alias),
  )
  const otherId = request.select.some(
    (item) =>
      (item.kind === 'column' &&
        (item.name.includes('->') || (item.name !== 'id' && item.alias === 'id'))) ||
      (item.kind === 'embed' && named(item) === 'id'),
  )
  if (!plainId || otherId) return null
  let rows: unknown
  try {
    rows = JSON.parse(body)
  } catch {
    return null
  }
  const ids = new Set<string>()
  for (const row of Array.isArray(rows) ? rows : [rows]) {
    const id = (row as { id?: unknown } | null)?.id
    if (typeof id !== 'string') return null
    ids.add(id)
  }
  return ids
}

/**
 * Which stock columns a read of products shows under their own names, so that an order's new
 * stock can be written into a kept answer (CachedAnswer.stockPatch); null when it shows one
 * renamed, cast or as a JSON path, or shows something else under such a name.
 */
function stockPatchShape(
  table: string,
  request: ReadRequest,
  stripNulls: boolean,
): PatchShape | null {
  if (table !== 'products') return null
  const members = new Set<string>()
  for (const item of request.select) {
    if (item.kind === 'star') STOCK_COLUMNS.forEach((column) => members.add(column))
    else if (item.kind === 'column') {
      const plain = !item.alias && !item.cast
      if (plain && STOCK_COLUMNS.includes(item.name)) members.add(item.name)
      else if (
        STOCK_COLUMNS.some((column) => item.name.includes(column)) ||
        STOCK_COLUMNS.includes(item.alias ?? '')
      )
        return null
    } else if (STOCK_COLUMNS.includes(item.alias ?? item.relation)) return null
  }
  return { members: [...members], stripNulls }
}

/** Whether every resource a read embeds is a catalogue table (so its answer may be cached). */
function embedsCatalogueOnly(items: SelectItem[]): boolean {
  return items.every(
    (item) =>
      item.kind !== 'embed' ||
      (CATALOGUE_TABLES.has(item.relation) && embedsCatalogueOnly(item.select)),
  )
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
  const wantsCount = countPreference(prefer)
  const shape = negotiate(req)
  const request = capRows(parseReadRequest(url.searchParams), auth)
  const built = buildRead(ctx.cache, table, request, {
    count: wantsCount,
    single: shape.single,
    stripNulls: shape.stripNulls,
  })

  let readAt: number | undefined
  const produce = async () => {
    const result = await withRequestRole(ctx.db, auth, requestMeta(req, url, true), (tx) => {
      // The catalogue as this transaction sees it (catalogue-cache.ts, currentVersion).
      readAt = ctx.catalogueCache?.currentVersion
      return runRead(tx, built)
    })
    if (shape.single) expectOneRow(result.rowCount)
    const offset = request.options.get('')?.offset ?? 0
    const headers = {
      'Content-Type': shape.contentType,
      'Content-Range': contentRange(offset, result.rowCount, result.total),
    }
    return {
      status: 200,
      headers,
      body: result.body,
      readAt,
      stockIds: ctx.catalogueCache ? stockShown(table, request, url, result.body) : null,
      stockPatch: ctx.catalogueCache ? stockPatchShape(table, request, shape.stripNulls) : null,
    }
  }
  // The catalogue as the anon role reads it is the same for every anonymous shopper.
  if (
    ctx.catalogueCache &&
    isAnonymous(auth) &&
    CATALOGUE_TABLES.has(table) &&
    embedsCatalogueOnly(request.select)
  ) {
    await sendCached(
      req,
      res,
      await ctx.catalogueCache.load(cacheKey(req, url, shape, prefer), produce),
    )
    return
  }
  const answer = await produce()
  await sendText(req, res, answer.status, answer.headers, answer.body)
}

interface ReadResult {
  body: string
  rowCount: number
  total: number | null
}

async function runRead(tx: Transaction, built: BuiltRead): Promise<ReadResult> {
  const page = await tx.query<{ body: string | null; row_count: number }>(
    built.read.sql,
    built.read.params,
  )
  const total = built.count
    ? ((await tx.query<{ total: number }>(built.count.sql, built.count.params)).rows[0]?.total ?? 0)
    : null
  return {
    body: page.rows[0]?.body ?? 'null',
    rowCount: page.rows[0]?.row_count ?? 0,
    total,
  }
}

/**
 * A function's text arguments (anything but json and jsonb, which the body cap bounds) are at most
 * MAX_TEXT_ARGUMENT characters for the API's roles: no function of the shop takes more, and a long
 * one keeps the database busy (slugify of 250 KB takes most of a second).
 */
export const MAX_TEXT_ARGUMENT = 4096

/**
 * The text arguments that are longer by nature, with their own limit: a customer's signature on
 * a delivery receipt (set_order_status's p_signature, a PNG data URL the function itself caps at
 * 200,000 characters; docs/decisions/055-delivery-by-the-rules.md).
 */
export const LONG_TEXT_ARGUMENTS: Readonly<Record<string, number>> = { p_signature: 200_000 }

function checkArgumentSizes(
  declared: { name: string; type: string }[],
  args: Record<string, unknown>,
  auth: RequestAuth,
): void {
  if (auth.role === 'service_role') return
  for (const arg of declared) {
    const value = args[arg.name]
    if (arg.type === 'json' || arg.type === 'jsonb' || value === undefined || value === null)
      continue
    const size = typeof value === 'string' ? value.length : JSON.stringify(value).length
    const limit = LONG_TEXT_ARGUMENTS[arg.name] ?? MAX_TEXT_ARGUMENT
    if (size > limit) {
      throw new PostgrestError(
        400,
        'PGRST100',
        `Argument ${arg.name} is too long: the limit is ${limit} characters`,
      )
    }
  }
}

/**
 * The page-size arguments of the shop's pull functions (max_rows, p_limit) are capped at MAX_ROWS
 * for the API's roles, as table reads are: the functions' own cap (2,000) lets one anonymous call
 * hold the database for seconds on a big catalogue. The shop's devices ask for 1,000
 * (PULL_BATCH_SIZE), so they never notice.
 */
const ROW_ARGUMENTS = new Set(['max_rows', 'p_limit'])

function capRowArguments(
  declared: { name: string; type: string }[],
  args: Record<string, unknown>,
  auth: RequestAuth,
): void {
  if (auth.role === 'service_role') return
  for (const arg of declared) {
    if (!ROW_ARGUMENTS.has(arg.name) || !/^int[248]?$|^integer$|^bigint$/.test(arg.type)) continue
    const value = Number(args[arg.name])
    if (Number.isFinite(value) && value > MAX_ROWS) args[arg.name] = MAX_ROWS
  }
}

/** Applies MAX_ROWS to the root and to every embedded resource (not for the service role). */
function capRows(request: ReadRequest, auth: RequestAuth): ReadRequest {
  if (auth.role === 'service_role') return request
  const cap = (path: string) => {
    let options = request.options.get(path)
    if (!options) {
      options = { conditions: [], order: [], limit: null, offset: null }
      request.options.set(path, options)
    }
    options.limit = Math.min(options.limit ?? MAX_ROWS, MAX_ROWS)
  }
  cap('')
  // The select tree is already bounded in depth by the parser.
  const walk = (items: SelectItem[], prefix: string) => {
    for (const item of items) {
      if (item.kind !== 'embed') continue
      const path = `${prefix}${item.alias ?? item.relation}`
      cap(path)
      walk(item.select, `${path}.`)
    }
  }
  walk(request.select, '')
  request.nestedToMany = false
  return request
}

function expectOneRow(rowCount: number): void {
  if (rowCount !== 1) {
    throw new PostgrestError(
      406,
      'PGRST116',
      'Cannot coerce the result to a single JSON object',
      `The result contains ${rowCount} rows`,
    )
  }
}

function contentRange(offset: number, rowCount: number, total: number | null): string {
  const range = rowCount === 0 ? '*' : `${offset}-${offset + rowCount - 1}`
  return `${range}/${total ?? '*'}`
}

function countPreference(prefer: Set<string>): boolean {
  return ['count=exact', 'count=planned', 'count=estimated'].some((p) => prefer.has(p))
}

/**
 * Parses a JSON request body under a size cap and the depth limit: PGRST413 (413) when too large,
 * PostgREST's PGRST102 (400) on anything that is not JSON or nests too deep.
 */
async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  try {
    return (await outsideSlot(req, () => readJsonBody(req, limit))) ?? {}
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new PostgrestError(
        413,
        'PGRST413',
        `Request body is too large: the limit is ${formatLimit(error.limit)}`,
      )
    }
    if (error instanceof JsonBodyError) {
      throw new PostgrestError(
        400,
        'PGRST102',
        error.reason === 'too_deep' ? `Invalid JSON: ${error.message}` : 'Empty or invalid json',
      )
    }
    throw error
  }
}

async function handleInsert(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RestContext,
  auth: RequestAuth,
  table: string,
  url: URL,
): Promise<void> {
  findTable(ctx.cache, table)
  const prefer = preferences(req)
  const shape = negotiate(req)
  const body = await readJson(req, REST_WRITE_BODY_LIMIT)
  const isRow = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
  const rows = Array.isArray(body) ? body : [body]
  if (!rows.every(isRow)) {
    throw new PostgrestError(400, 'PGRST102', 'All object keys must match')
  }
  const columnsParam = url.searchParams.get('columns')
  const conflictParam = url.searchParams.get('on_conflict')
  const resolution = prefer.has('resolution=merge-duplicates')
    ? 'merge'
    : prefer.has('resolution=ignore-duplicates')
      ? 'ignore'
      : null
  const request = parseReadRequest(url.searchParams)
  const built = buildInsert(ctx.cache, table, request, rows, {
    columns: columnsParam === null ? null : parseColumnList('columns', columnsParam),
    onConflict: conflictParam === null ? null : parseColumnList('on_conflict', conflictParam),
    resolution,
    missingDefault: prefer.has('missing=default'),
    representation: prefer.has('return=representation'),
    single: shape.single,
    stripNulls: shape.stripNulls,
  })
  const result = await withRequestRole(ctx.db, auth, requestMeta(req, url, false), async (tx) => {
    const row = (
      await tx.query<{ body: string | null; row_count: number }>(built.sql, built.params)
    ).rows[0]
    // Thrown inside the transaction so the insert is rolled back, as PostgREST does.
    if (shape.single && built.returnsBody) expectOneRow(row?.row_count ?? 0)
    return { body: row?.body ?? null, rowCount: row?.row_count ?? 0 }
  })
  const range = `*/${countPreference(prefer) ? result.rowCount : '*'}`
  if (!built.returnsBody) {
    res.writeHead(201, { 'Content-Range': range })
    res.end()
    return
  }
  await sendText(
    req,
    res,
    201,
    { 'Content-Type': shape.contentType, 'Content-Range': range },
    result.body ?? '[]',
  )
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
    const values = await readJson(req, REST_WRITE_BODY_LIMIT)
    if (typeof values !== 'object' || values === null || Array.isArray(values))
      throw new PostgrestError(400, 'PGRST102', 'Invalid body: expected a JSON object')
    change = { kind: 'update', values: values as Record<string, unknown> }
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
  await sendText(
    req,
    res,
    200,
    { 'Content-Type': shape.contentType, 'Content-Range': `${range}/*` },
    result.body ?? '[]',
  )
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
  const prefer = preferences(req)
  const shape = negotiate(req)
  let args: Record<string, unknown>
  let singleJsonBody = false
  if (method === 'POST') {
    const limit =
      auth.role === 'anon'
        ? ANON_RPC_BODY_LIMIT
        : BULK_RPCS.has(name)
          ? BULK_BODY_LIMIT
          : RPC_BODY_LIMIT
    const body = await readJson(req, limit)
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      args = body as Record<string, unknown>
      singleJsonBody = true
    } else {
      throw new PostgrestError(400, 'PGRST102', 'Invalid body: expected a JSON object')
    }
  } else if (method === 'GET' || method === 'HEAD') {
    // In a GET, query parameters named like one of the function's arguments are arguments; the
    // rest are filters, order and paging applied to what the function returns.
    const argNames = new Set(
      (ctx.cache.functions.get(name) ?? []).flatMap((f) => f.args.map((a) => a.name)),
    )
    args = Object.fromEntries([...url.searchParams].filter(([key]) => argNames.has(key)))
  } else {
    throw new PostgrestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`)
  }

  ctx.beforeRpc?.({ name, args, auth, req, res })
  const fn = findFunction(ctx.cache, name, Object.keys(args), singleJsonBody)
  checkArgumentSizes(fn.args, args, auth)
  capRowArguments(fn.args, args, auth)
  const request = capRows(
    parseReadRequest(url.searchParams, method === 'POST' ? undefined : new Set(Object.keys(args))),
    auth,
  )
  const built = buildRpc(ctx.cache, fn, args, request, {
    count: countPreference(prefer),
    single: shape.single,
    stripNulls: shape.stripNulls,
  })
  const readOnly = method !== 'POST' || fn.volatility !== 'volatile'
  // An import is staged in chunks, each its own transaction, so the shop answers meanwhile.
  const importRows =
    method === 'POST' && !built.read && isChunkedImport(name, args, auth) ? args.p_rows : null
  let readAt: number | undefined
  const run = async () => {
    const result = importRows
      ? {
          body: await runChunkedImport(ctx.db, auth, requestMeta(req, url, false), importRows),
          rowCount: 1,
          total: null,
        }
      : await withRequestRole(ctx.db, auth, requestMeta(req, url, readOnly), async (tx) => {
          // The catalogue as this transaction sees it (catalogue-cache.ts, currentVersion).
          readAt = ctx.catalogueCache?.currentVersion
          if (built.read) return runRead(tx, built.read)
          const row = (
            await tx.query<{ body?: string | null; row_count?: number }>(
              built.call!.sql,
              built.call!.params,
            )
          ).rows[0]
          return { body: row?.body ?? 'null', rowCount: row?.row_count ?? 1, total: null }
        })
    if (shape.single && fn.returnsSet) expectOneRow(result.rowCount)
    const headers: Record<string, string> = {
      'Content-Type': shape.single ? shape.contentType : 'application/json; charset=utf-8',
    }
    if (fn.returnsSet) {
      headers['Content-Range'] = contentRange(
        request.options.get('')?.offset ?? 0,
        result.rowCount,
        result.total,
      )
    }
    // pull_products orders by _modified, which a stock change moves; the other pulls show none.
    const stockIds = name === 'pull_products' ? null : new Set<string>()
    return { status: 200, headers, body: result.body, readAt, stockIds }
  }
  if (fn.returnsVoid) {
    await run()
    res.writeHead(204)
    res.end()
    return
  }
  // Only a caller without a user (the anon role, no subject) is served from the cache, so an
  // entry never holds what depends on who asks.
  if (ctx.catalogueCache && CACHED_PULLS.has(name) && isAnonymous(auth)) {
    const key = cacheKey(req, url, shape, prefer, method === 'POST' ? args : null)
    const firstPage = name === 'pull_products' && args.after_modified == null
    const read =
      firstPage && ctx.onFirstPullMiss
        ? () => {
            ctx.onFirstPullMiss?.()
            return run()
          }
        : run
    await sendCached(req, res, await ctx.catalogueCache.load(key, read))
    return
  }
  const answer = await run()
  await sendText(req, res, answer.status, answer.headers, answer.body)
}

function requestMeta(req: IncomingMessage, url: URL, readOnly: boolean) {
  return {
    method: req.method ?? 'GET',
    path: url.pathname.replace(/^\/rest\/v1/, ''),
    headers: plainHeaders(req),
    readOnly,
  }
}

export function sendError(res: ServerResponse, error: PostgrestError): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' }
  // The rest of an oversized body is not read: close the connection once we have answered.
  if (error.status === 413) headers.Connection = 'close'
  // A refusal by a SQL rate limit (PT429, e.g. track_order's) tells the client when to come back.
  if (error.status === 429 && !res.hasHeader('Retry-After')) headers['Retry-After'] = '900'
  res.writeHead(error.status, headers)
  res.end(JSON.stringify(error.toBody()))
}
