// What every API request of the stand-in shares: who is calling (the JWT from Authorization or
// apikey, verified with the project secret) and running its SQL the way PostgREST does, in one
// transaction as the JWT's role with request.jwt.claims set, so row level security decides.
import type { IncomingMessage } from 'node:http'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { peerAddress } from '../http/client-address.ts'
import { JwtError, verifyJwt, type ApiRole } from '../auth/jwt-keys.ts'
import { PostgrestError } from './postgrest-errors.ts'

export interface RequestAuth {
  role: ApiRole
  claims: Record<string, unknown>
}

function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization
  if (header) {
    const match = /^Bearer\s+(.+)$/i.exec(header)
    if (match) return match[1]!.trim()
  }
  const apikey = req.headers.apikey
  if (typeof apikey === 'string' && apikey) return apikey
  return null
}

export async function authenticate(req: IncomingMessage, secret: Uint8Array): Promise<RequestAuth> {
  const token = bearerToken(req)
  if (!token) {
    // What Supabase's API gateway answers before a request reaches PostgREST.
    throw new PostgrestError(
      401,
      'PGRST301',
      'No API key found in request',
      null,
      'No `apikey` request header or url param was found.',
    )
  }
  try {
    const { role, claims } = await verifyJwt(secret, token)
    return { role, claims }
  } catch (error) {
    if (error instanceof JwtError) throw new PostgrestError(401, 'PGRST301', error.message)
    throw error
  }
}

export interface RequestMeta {
  method: string
  path: string
  headers: Record<string, string>
  readOnly: boolean
}

/**
 * A string as an SQL literal, dollar-quoted with a tag it does not contain (so no setting such as
 * standard_conforming_strings changes its meaning). Postgres text cannot hold NUL.
 */
function sqlText(value: string): string {
  const text = value.replaceAll('\0', '\uFFFD')
  let tag = '$h$'
  // The first closing tag after the opening one must be the last one.
  for (let n = 0; (text + tag).indexOf(tag) !== text.length; n++) tag = `$h${n}$`
  return `${tag}${text}${tag}`
}

/**
 * Runs `work` in one transaction as the caller's role. PGlite has a single connection and
 * serialises transactions itself, so concurrent requests queue here rather than interleave.
 *
 * The role and settings go in one simple-protocol statement: a statement with parameters costs
 * PGlite six calls into Postgres (parse, describe, bind, describe, execute, sync), and every
 * request paid them before its own SQL (docs/decisions/049-patch-cached-pages-with-new-stock.md).
 */
export async function withRequestRole<T>(
  db: PGlite,
  auth: RequestAuth,
  meta: RequestMeta,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const settings = [
    ['role', auth.role],
    ['request.jwt.claims', JSON.stringify(auth.claims)],
    ['request.method', meta.method],
    ['request.path', meta.path],
    ['request.headers', JSON.stringify(meta.headers)],
  ]
    .map(([name, value]) => `set_config('${name}', ${sqlText(value!)}, true)`)
    .join(', ')
  const setup = `${meta.readOnly ? 'set transaction read only; ' : ''}select ${settings}`
  return db.transaction(async (tx) => {
    await tx.exec(setup)
    return work(tx)
  })
}

/** The header that tells SQL (request.headers) the caller's address, e.g. for rate limits. */
export const CLIENT_IP_HEADER = 'x-humo-client-ip'

export function plainHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || key === 'authorization' || key === 'apikey' || key === 'cookie')
      continue
    headers[key] = Array.isArray(value) ? value.join(', ') : value
  }
  // Always the socket's peer, never what the client sent: a spoofable address would let one
  // caller dodge a rate limit (or exhaust another's).
  headers[CLIENT_IP_HEADER] = peerAddress(req)
  return headers
}
