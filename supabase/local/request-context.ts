// What every API request of the stand-in shares: who is calling (the JWT from Authorization or
// apikey, verified with the project secret) and running its SQL the way PostgREST does, in one
// transaction as the JWT's role with request.jwt.claims set, so row level security decides.
import type { IncomingMessage } from 'node:http'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { peerAddress } from './client-address.ts'
import { JwtError, verifyJwt, type ApiRole } from './jwt-keys.ts'
import { PostgrestError } from './rest/postgrest-errors.ts'

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
 * Runs `work` in one transaction as the caller's role. PGlite has a single connection and
 * serialises transactions itself, so concurrent requests queue here rather than interleave.
 */
export async function withRequestRole<T>(
  db: PGlite,
  auth: RequestAuth,
  meta: RequestMeta,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    if (meta.readOnly) await tx.exec('set transaction read only')
    await tx.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.method', $3, true), set_config('request.path', $4, true),
              set_config('request.headers', $5, true)`,
      [
        auth.role,
        JSON.stringify(auth.claims),
        meta.method,
        meta.path,
        JSON.stringify(meta.headers),
      ],
    )
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
