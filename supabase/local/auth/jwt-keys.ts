// The stand-in's JWT secret and the API keys signed with it. Like a Supabase project: one HS256
// secret signs the anon and service_role keys (and, later, users' access tokens); requests are
// verified against it. The secret is generated on first start and kept in the data folder (or
// given by HUMO_JWT_SECRET), so keys survive restarts and are never baked into the code.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'

/** Database roles a JWT may switch a request to (PostgREST's role claim). */
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const
export type ApiRole = (typeof API_ROLES)[number]

export interface JwtKeys {
  secret: Uint8Array
  anonKey: string
  serviceRoleKey: string
}

export interface VerifiedJwt {
  role: ApiRole
  claims: JWTPayload & { role: ApiRole }
}

/** Reads HUMO_JWT_SECRET, else the secret file (creating it on first start), else a fresh one. */
export function loadJwtSecret(secretFile: string | null): string {
  const fromEnv = process.env.HUMO_JWT_SECRET
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('HUMO_JWT_SECRET must be at least 32 characters')
    return fromEnv
  }
  if (secretFile && existsSync(secretFile)) return readFileSync(secretFile, 'utf8').trim()
  const secret = randomBytes(48).toString('base64url')
  if (secretFile) {
    mkdirSync(dirname(secretFile), { recursive: true, mode: 0o700 })
    writeFileSync(secretFile, secret + '\n', { mode: 0o600 })
  }
  return secret
}

// Fixed issue and expiry times keep the keys identical across restarts for a given secret, so an
// app built with a baked-in anon key keeps working (Supabase's keys are long-lived the same way).
const KEY_ISSUED_AT = 1_735_689_600 // 2025-01-01
const KEY_EXPIRES_AT = 2_051_222_400 // 2035-01-01

async function signApiKey(secret: Uint8Array, role: ApiRole): Promise<string> {
  return new SignJWT({ iss: 'supabase', ref: 'humo-local', role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(KEY_ISSUED_AT)
    .setExpirationTime(KEY_EXPIRES_AT)
    .sign(secret)
}

export async function createJwtKeys(secretText: string): Promise<JwtKeys> {
  const secret = new TextEncoder().encode(secretText)
  return {
    secret,
    anonKey: await signApiKey(secret, 'anon'),
    serviceRoleKey: await signApiKey(secret, 'service_role'),
  }
}

export class JwtError extends Error {}

/**
 * Tokens already verified, per secret: every shopper's request carries the same anon key, and its
 * HMAC check through WebCrypto cost ~4 % of the server's CPU under load (docs/decisions/045-order-path-costs.md).
 * Only successes are kept; each use checks the expiry again. Bounded: emptied when full.
 */
const verified = new WeakMap<Uint8Array, Map<string, VerifiedJwt>>()
const MAX_VERIFIED = 1024

export async function verifyJwt(secret: Uint8Array, token: string): Promise<VerifiedJwt> {
  let known = verified.get(secret)
  const hit = known?.get(token)
  if (hit) {
    const exp = hit.claims.exp
    // jose's rule (no clock tolerance): expired once the current second reaches exp.
    if (typeof exp === 'number' && exp <= Math.floor(Date.now() / 1000)) {
      known!.delete(token)
      throw new JwtError('JWT expired')
    }
    return { role: hit.role, claims: { ...hit.claims } }
  }
  const fresh = await verifyJwtNow(secret, token)
  if (!known) verified.set(secret, (known = new Map<string, VerifiedJwt>()))
  if (known.size >= MAX_VERIFIED) known.clear()
  known.set(token, { role: fresh.role, claims: { ...fresh.claims } })
  return fresh
}

async function verifyJwtNow(secret: Uint8Array, token: string): Promise<VerifiedJwt> {
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] }))
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new JwtError('JWT expired')
    if (error instanceof joseErrors.JOSEError)
      throw new JwtError(`JWSError ${error.code}: ${error.message}`)
    throw new JwtError('JWT could not be decoded')
  }
  const role = payload.role
  if (typeof role !== 'string' || !(API_ROLES as readonly string[]).includes(role)) {
    throw new JwtError(`JWT role ${JSON.stringify(role)} is not allowed`)
  }
  return { role: role as ApiRole, claims: { ...payload, role: role as ApiRole } }
}
