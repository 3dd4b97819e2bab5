// The stand-in's /auth/v1: the part of GoTrue (Supabase Auth) that supabase-js uses for email and
// password accounts. Users, sessions and rotating refresh tokens live in the auth schema, shaped
// like GoTrue's; passwords are bcrypt hashes; access tokens are HS256 JWTs with GoTrue's claims,
// signed with the project secret so PostgREST-style requests (and auth.uid()) accept them.
//
// Addresses are proven only by following an emailed link (docs/decisions/024-proven-addresses.md): sign-up and an
// email change leave auth.users.email_confirmed_at NULL (the change pending) until /verify is
// reached with the link's one-time token. Without a mail server nobody can prove an address: the
// account works for shopping (sign-in is allowed while unconfirmed) but stays unconfirmed, and an
// email change applies unconfirmed. Sign-up never answers with a session, so a new address and
// one that already has an account get the same answer (GoTrue's obfuscated user with
// confirmations on); the app signs in next.
//
// Nothing tells a stranger whether an address has an account: sign-in with an unknown address
// still runs one bcrypt compare (against a dummy hash of the same cost), so both take as long and
// answer the same "Invalid login credentials"; recover and resend always answer {}. New passwords
// follow password-policy.ts (NIST SP 800-63B). Sign-in, sign-up, recovery, verification and
// refresh are rate limited per IP and per account (rate-limits.ts), answered with GoTrue's 429.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import bcrypt from 'bcryptjs'
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import { clientAddress, requestScheme } from '../http/client-address.ts'
import {
  AUTH_BODY_LIMIT,
  BodyTooLargeError,
  JsonBodyError,
  readJsonBody,
} from '../http/http-body.ts'
import { verifyJwt } from './jwt-keys.ts'
import type { AuthMailer } from '../mail/auth-mailer.ts'
import type { RateLimitName, RateLimiter } from '../http/rate-limits.ts'
import {
  GoTrueError,
  badRequest,
  forbidden,
  sendAuthError,
  sendAuthJson,
  unprocessable,
} from './gotrue-errors.ts'
import { checkNewPassword } from './password-policy.ts'
import { reportServerError } from '../http/request-log.ts'

/** How passwords are hashed and checked; tests pass a counting wrapper around bcrypt. */
export interface PasswordHasher {
  hash(password: string, cost: number): Promise<string>
  compare(password: string, hashed: string): Promise<boolean>
}

export interface AuthContext {
  db: PGlite
  jwtSecret: Uint8Array
  hasher?: PasswordHasher
  /** The server's one limiter (HUMO_RATE_LIMITS); absent: no limits. */
  limiter?: RateLimiter | null
  /** Sends the links that prove an address; absent when no SMTP server is configured. */
  mailer?: AuthMailer | null
}

export const bcryptHasher: PasswordHasher = {
  hash: (password, cost) => bcrypt.hash(password, cost),
  compare: (password, hashed) => bcrypt.compare(password, hashed),
}

const ACCESS_TOKEN_SECONDS = 3600
export const BCRYPT_COST = 10
/**
 * Compared against when the address has no account (or no password), so that answer takes as
 * long as a wrong password: a bcrypt hash of the same cost as real ones, matching no password
 * anyone is told about.
 */
export const DUMMY_PASSWORD_HASH = '$2b$10$xAhd.spYP4vsstyQ3uEuxeN2vptchfUkKxBaDI92lOqebUivO7f3W'
// GoTrue's default: a rotated-away refresh token may be replayed this long (a client that lost
// the refresh answer retries), after which reuse revokes the whole session.
const REFRESH_TOKEN_REUSE_SECONDS = 10
const INVALID_LOGIN = 'Invalid login credentials'
/** How long an emailed link works: GoTrue's default OTP lifetime for confirmations is a day. */
const CONFIRM_LINK_SECONDS = 24 * 3600
const RECOVERY_LINK_SECONDS = 3600
const NIL_INSTANCE = '00000000-0000-0000-0000-000000000000'
const MAX_USER_METADATA_CHARS = 4096

interface UserRow {
  id: string
  email: string | null
  encrypted_password: string | null
  email_confirmed_at: Date | null
  last_sign_in_at: Date | null
  raw_app_meta_data: Record<string, unknown>
  raw_user_meta_data: Record<string, unknown>
  banned_until: Date | null
  created_at: Date
  updated_at: Date
  is_anonymous: boolean
  email_change?: string | null
  email_change_sent_at?: Date | null
}

interface SessionRow {
  id: string
  user_id: string
  created_at: Date
}

const USER_COLUMNS = `id, email, encrypted_password, email_confirmed_at, last_sign_in_at, raw_app_meta_data,
  raw_user_meta_data, banned_until, created_at, updated_at, is_anonymous, email_change,
  email_change_sent_at`

export async function handleAuth(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: AuthContext,
  url: URL,
): Promise<void> {
  try {
    const path = url.pathname.replace(/^\/auth\/v1/, '') || '/'
    const method = req.method ?? 'GET'
    const route = `${method} ${path}`
    // The emailed link is opened by a mail reader, without a key (Supabase's gateway leaves
    // /auth/v1/verify open too); its one-time token is the credential.
    if (route !== 'GET /verify') await requireApiKey(req, url, ctx)
    switch (route) {
      case 'GET /health':
        return sendAuthJson(req, res, 200, {
          version: 'humo-local',
          name: 'GoTrue',
          description: 'GoTrue is a user registration and authentication API',
        })
      case 'GET /settings':
        return sendAuthJson(req, res, 200, settings(ctx))
      case 'GET /.well-known/jwks.json':
        // HS256 only: there is no public key to publish (as on a project with a legacy secret).
        return sendAuthJson(req, res, 200, { keys: [] })
      case 'POST /signup':
        return sendAuthJson(req, res, 200, await signUp(req, ctx, url))
      case 'GET /verify':
        return await verifyLink(req, res, ctx, url)
      case 'POST /verify':
        return sendAuthJson(req, res, 200, await verifyOtp(req, ctx))
      case 'POST /recover':
        return sendAuthJson(req, res, 200, await recover(req, ctx, url))
      case 'POST /resend':
        return sendAuthJson(req, res, 200, await resend(req, ctx, url))
      case 'POST /token':
        return sendAuthJson(req, res, 200, await token(req, ctx, url))
      case 'GET /user': {
        const { user } = await requireUser(req, ctx)
        return sendAuthJson(req, res, 200, userJson(user))
      }
      case 'PUT /user':
        return sendAuthJson(req, res, 200, await updateUser(req, ctx, url))
      case 'POST /logout':
        await logout(req, ctx, url)
        return sendAuthJson(req, res, 204, null)
      default:
        throw new GoTrueError(
          404,
          'not_found',
          `${method} /auth/v1${path} is not available in the embedded backend`,
        )
    }
  } catch (error) {
    if (error instanceof GoTrueError) return sendAuthError(req, res, error)
    // The client went away mid-body: nobody is left to answer, and nothing failed here.
    if (req.destroyed || (error as { code?: unknown }).code === 'ECONNRESET') {
      res.destroy()
      return
    }
    reportServerError('auth request failed', error)
    sendAuthError(
      req,
      res,
      new GoTrueError(
        500,
        'unexpected_failure',
        'Unexpected failure, please check server logs for more information',
      ),
    )
  }
}

function settings(ctx: AuthContext) {
  const providers = ['anonymous_users', 'apple', 'azure', 'bitbucket', 'discord', 'facebook']
    .concat(['figma', 'fly', 'github', 'gitlab', 'google', 'keycloak', 'kakao', 'linkedin'])
    .concat(['linkedin_oidc', 'notion', 'spotify', 'slack', 'slack_oidc', 'workos', 'twitch'])
    .concat(['twitter', 'email', 'phone', 'zoom'])
  return {
    external: Object.fromEntries(providers.map((p) => [p, p === 'email'])),
    disable_signup: false,
    // Never: an address is confirmed only by its emailed link (and sign-up gives no session).
    mailer_autoconfirm: false,
    // Humo's own field: whether links are sent at all (without SMTP nothing can be confirmed).
    mailer_enabled: Boolean(ctx.mailer),
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    passkeys_enabled: false,
  }
}

// request parts -----------------------------------------------------------------------------------

/** Supabase's gateway refuses requests without a project key before they reach GoTrue. */
async function requireApiKey(req: IncomingMessage, url: URL, ctx: AuthContext): Promise<void> {
  const header = req.headers.apikey
  const key = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey')
  if (!key) throw new GoTrueError(401, 'no_authorization', 'No API key found in request')
  try {
    await verifyJwt(ctx.jwtSecret, key)
  } catch {
    throw new GoTrueError(401, 'bad_jwt', 'Invalid API key')
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let parsed: unknown
  try {
    parsed = await readJsonBody(req, AUTH_BODY_LIMIT)
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new GoTrueError(413, 'request_too_large', 'Request body is too large')
    if (error instanceof JsonBodyError)
      throw badRequest('bad_json', `Could not parse request body as JSON: ${error.message}`)
    throw error
  }
  if (parsed === undefined) return {}
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('bad_json', 'Could not parse request body as JSON: expected an object')
  return parsed as Record<string, unknown>
}

/** A field that must be a string when present (GoTrue answers a wrong type with 400). */
function field(body: Record<string, unknown>, name: string): string {
  const value = body[name]
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string')
    throw badRequest('validation_failed', `Could not read request body: ${name} must be a string`)
  return value
}

/** Whether a parsed JSON value holds text Postgres's jsonb refuses (NUL, a lone surrogate). */
function hasUnstorableText(value: unknown): boolean {
  const bad = (text: string) => text.includes('\u0000') || !text.isWellFormed()
  if (typeof value === 'string') return bad(value)
  if (Array.isArray(value)) return value.some(hasUnstorableText)
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, v]) => bad(key) || hasUnstorableText(v))
  return false
}

function metadata(body: Record<string, unknown>): Record<string, unknown> | null {
  const value = body.data
  if (value === undefined || value === null) return null
  if (typeof value !== 'object' || Array.isArray(value))
    throw badRequest('validation_failed', 'Could not read request body: data must be an object')
  // user_metadata rides in every access token: a big one would push the Authorization header
  // past what servers accept (16 KB in Node), locking the account out of the API.
  if (JSON.stringify(value).length > MAX_USER_METADATA_CHARS)
    throw badRequest(
      'validation_failed',
      `Could not read request body: data is larger than ${MAX_USER_METADATA_CHARS} characters`,
    )
  // Checked here (the depth limit bounds the walk) so it is a 400, not a database error.
  if (hasUnstorableText(value))
    throw badRequest(
      'validation_failed',
      'Could not read request body: data holds a NUL character or a lone surrogate',
    )
  return value as Record<string, unknown>
}

function issuer(req: IncomingMessage): string {
  return `${requestScheme(req)}://${req.headers.host ?? 'localhost'}/auth/v1`
}

// The WHATWG rule of <input type=email> (ASCII only: an internationalized domain goes in as
// punycode), so lookalike letters, zero-width or control characters and spaces never make a
// second account for what reads as the same address.
const EMAIL_FORMAT =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

/** The address as stored: trimmed, lower case, checked. */
function validateEmail(raw: string): string {
  const email = raw.trim()
  if (email === '') throw badRequest('validation_failed', 'An email address is required')
  if (email.length > 254) throw badRequest('validation_failed', 'An email address is too long')
  if (!EMAIL_FORMAT.test(email) || email.indexOf('@') > 64)
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format')
  return email.toLowerCase()
}

const RATE_LIMIT_MESSAGES: Partial<Record<RateLimitName, string>> = {
  sign_in_ip: 'Too many sign-in attempts from this network.',
  sign_in_account: 'Too many failed sign-in attempts for this account.',
  sign_up_ip: 'Too many accounts created from this network.',
  recover_ip: 'Too many emails requested from this network.',
  recover_account: 'Too many emails requested for this address.',
  verify_ip: 'Too many verification attempts from this network.',
  token_refresh_ip: 'Too many session refreshes from this network.',
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`
  const minutes = Math.ceil(seconds / 60)
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

/** Counts one event; throws GoTrue's 429 (with Retry-After) once the allowance is spent. */
function limit(ctx: AuthContext, name: RateLimitName, key: string): void {
  const verdict = ctx.limiter?.hit(name, key)
  if (!verdict || verdict.ok) return
  throw new GoTrueError(
    429,
    'over_request_rate_limit',
    `${RATE_LIMIT_MESSAGES[name] ?? 'Too many requests.'} Please try again in ${waitText(verdict.retryAfterSeconds)}.`,
    {},
    { 'Retry-After': String(verdict.retryAfterSeconds) },
  )
}

// users -------------------------------------------------------------------------------------------

const iso = (value: Date | null): string | undefined => value?.toISOString()

/** A stable identity id per user (GoTrue keeps identities in their own table; we derive them). */
function identityId(userId: string): string {
  const h = createHash('sha1').update(`identity:${userId}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** The user object GoTrue answers (models.User's JSON). */
export function userJson(user: UserRow): Record<string, unknown> {
  const confirmed = iso(user.email_confirmed_at)
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: confirmed,
    phone: '',
    confirmed_at: confirmed,
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: user.email
      ? [
          {
            identity_id: identityId(user.id),
            id: user.id,
            user_id: user.id,
            identity_data: {
              email: user.email,
              email_verified: Boolean(confirmed),
              phone_verified: false,
              sub: user.id,
            },
            provider: 'email',
            last_sign_in_at: iso(user.last_sign_in_at ?? user.created_at),
            created_at: user.created_at.toISOString(),
            updated_at: user.updated_at.toISOString(),
            email: user.email,
          },
        ]
      : [],
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
    banned_until: iso(user.banned_until),
    is_anonymous: user.is_anonymous,
    ...(user.email_change
      ? {
          new_email: user.email_change,
          email_change_sent_at: iso(user.email_change_sent_at ?? null),
        }
      : {}),
  }
}

async function findUserByEmail(tx: Transaction | PGlite, email: string): Promise<UserRow | null> {
  const { rows } = await tx.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and deleted_at is null`,
    [email],
  )
  return rows[0] ?? null
}

async function findUserById(tx: Transaction | PGlite, id: string): Promise<UserRow | null> {
  const { rows } = await tx.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where id = $1 and deleted_at is null`,
    [id],
  )
  return rows[0] ?? null
}

const isBanned = (user: UserRow): boolean =>
  user.banned_until !== null && user.banned_until.getTime() > Date.now()

// sessions and tokens -----------------------------------------------------------------------------

interface TokenResponse {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  expires_at: number
  refresh_token: string
  user: Record<string, unknown>
}

const newRefreshToken = (): string => randomBytes(16).toString('base64url')

async function signAccessToken(
  req: IncomingMessage,
  ctx: AuthContext,
  user: UserRow,
  session: SessionRow,
): Promise<{ token: string; expiresAt: number }> {
  const now = Math.floor(Date.now() / 1000)
  const expiresAt = now + ACCESS_TOKEN_SECONDS
  const token = await new SignJWT({
    email: user.email ?? '',
    phone: '',
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    role: 'authenticated',
    aal: 'aal1',
    amr: [{ method: 'password', timestamp: Math.floor(session.created_at.getTime() / 1000) }],
    session_id: session.id,
    is_anonymous: user.is_anonymous,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer(req))
    .setSubject(user.id)
    .setAudience('authenticated')
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(ctx.jwtSecret)
  return { token, expiresAt }
}

async function tokenResponse(
  req: IncomingMessage,
  ctx: AuthContext,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
): Promise<TokenResponse> {
  const { token, expiresAt } = await signAccessToken(req, ctx, user, session)
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  }
}

/** A new session with its first refresh token; stamps the user's last sign-in. */
async function startSession(
  tx: Transaction,
  req: IncomingMessage,
  user: UserRow,
): Promise<{ session: SessionRow; refreshToken: string; user: UserRow }> {
  const { rows } = await tx.query<SessionRow>(
    `insert into auth.sessions (id, user_id, user_agent, ip) values ($1, $2, $3, $4)
     returning id, user_id, created_at`,
    [randomUUID(), user.id, req.headers['user-agent'] ?? null, req.socket.remoteAddress ?? null],
  )
  const session = rows[0]!
  const refreshToken = newRefreshToken()
  await tx.query(
    `insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)`,
    [refreshToken, user.id, session.id],
  )
  const updated = await tx.query<UserRow>(
    `update auth.users set last_sign_in_at = now() where id = $1 returning ${USER_COLUMNS}`,
    [user.id],
  )
  return { session, refreshToken, user: updated.rows[0]! }
}

// emailed links ------------------------------------------------------------------------------------

type LinkKind = 'signup' | 'email_change' | 'recovery'

// Pending links: only the SHA-256 of a link's secret is kept, so a copy of the database cannot
// confirm anything. A new email-change or recovery link replaces the last of its kind; each
// sign-up of an unconfirmed address gets a link of its own (the last few are kept) carrying the
// hash of the password typed with it (pending_password), which becomes the account's password
// only when that link is followed. So whoever signed someone's address up before its owner did
// does not keep a key to the account the owner then proves with the link of their own sign-up.
// Created on first use (not in the bootstrap) so that a data folder made before it gets it too.
const LINK_TOKENS_DDL = `
create table if not exists auth.humo_email_links (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('signup', 'email_change', 'recovery')),
  relates_to text not null,
  pending_password text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create unique index if not exists humo_email_links_one_per_kind
  on auth.humo_email_links (user_id, kind) where kind <> 'signup';
revoke all on auth.humo_email_links from public;`

/** Sign-up links kept per unconfirmed account; older ones stop working. */
const SIGNUP_LINKS_KEPT = 3

const linkTables = new WeakMap<PGlite, Promise<void>>()

function ensureLinkTokens(db: PGlite): Promise<void> {
  let ready = linkTables.get(db)
  if (!ready) {
    ready = db.exec(LINK_TOKENS_DDL).then(() => undefined)
    ready.catch(() => linkTables.delete(db))
    linkTables.set(db, ready)
  }
  return ready
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex')

/**
 * Where a followed link may send the browser: `requested` when it is on the shop's own origin,
 * else the shop's address (an open redirect would hand the session's tokens to another site).
 */
function safeRedirect(mailer: AuthMailer, requested: string | null): string {
  const site = new URL(mailer.siteUrl)
  if (requested) {
    try {
      const target = new URL(requested, site)
      if (target.origin === site.origin) return target.href.replace(/#.*$/, '')
    } catch {
      // not a URL: the shop's address
    }
  }
  return `${site.origin}${site.pathname.replace(/\/+$/, '')}/`
}

/** Stores a new link of `kind` for the user and returns the URL to email. */
async function issueLink(
  tx: Transaction,
  mailer: AuthMailer,
  user: { id: string },
  kind: LinkKind,
  address: string,
  pendingPassword: string | null,
  redirectTo: string,
): Promise<string> {
  const secret = randomBytes(32).toString('base64url')
  const seconds = kind === 'recovery' ? RECOVERY_LINK_SECONDS : CONFIRM_LINK_SECONDS
  await tx.query(
    `insert into auth.humo_email_links (token_hash, user_id, kind, relates_to, pending_password, expires_at)
     values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
     on conflict (user_id, kind) where kind <> 'signup' do update
        set token_hash = excluded.token_hash, relates_to = excluded.relates_to,
            pending_password = excluded.pending_password, created_at = now(),
            expires_at = excluded.expires_at`,
    [sha256(secret), user.id, kind, address, pendingPassword, seconds],
  )
  if (kind === 'signup')
    await tx.query(
      `delete from auth.humo_email_links
        where user_id = $1 and kind = 'signup'
          and token_hash not in (select token_hash from auth.humo_email_links
                                  where user_id = $1 and kind = 'signup'
                                  order by created_at desc, token_hash limit $2)`,
      [user.id, SIGNUP_LINKS_KEPT],
    )
  const sentColumn =
    kind === 'signup'
      ? 'confirmation_sent_at'
      : kind === 'recovery'
        ? 'recovery_sent_at'
        : 'email_change_sent_at'
  await tx.query(`update auth.users set ${sentColumn} = now() where id = $1`, [user.id])
  const params = new URLSearchParams({ token: secret, type: kind, redirect_to: redirectTo })
  return `${mailer.siteUrl}/auth/v1/verify?${params.toString()}`
}

const linkExpired = () =>
  new GoTrueError(403, 'otp_expired', 'Email link is invalid or has expired')

interface LinkRow {
  user_id: string
  kind: LinkKind
  relates_to: string
  pending_password: string | null
  expired: boolean
}

const VERIFY_TYPES: Record<string, LinkKind> = {
  signup: 'signup',
  email: 'signup',
  email_change: 'email_change',
  recovery: 'recovery',
}

/** Follows a link: proves its address (or signs in for recovery) and starts a session. */
async function redeem(
  req: IncomingMessage,
  ctx: AuthContext,
  type: string,
  secret: string,
): Promise<TokenResponse> {
  if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type')
  const kind = VERIFY_TYPES[type]
  if (!kind) throw badRequest('validation_failed', `Unsupported verification type "${type}"`)
  if (secret === '')
    throw badRequest('validation_failed', 'Verify requires a token or a token hash')
  limit(ctx, 'verify_ip', clientAddress(req))
  if (secret.length > 200) throw linkExpired()
  await ensureLinkTokens(ctx.db)
  const outcome = await ctx.db.transaction(async (tx): Promise<TokenResponse | GoTrueError> => {
    // Deleted whatever happens next: a link works once.
    const { rows } = await tx.query<LinkRow>(
      `delete from auth.humo_email_links where token_hash = $1 and kind = $2
       returning user_id, kind, relates_to, pending_password, expires_at <= now() as expired`,
      [sha256(secret), kind],
    )
    const link = rows[0]
    if (!link || link.expired) return linkExpired()
    const user = await findUserById(tx, link.user_id)
    if (!user || isBanned(user)) return linkExpired()
    const current = (user.email ?? '').toLowerCase()
    const verified = JSON.stringify({ email_verified: true })
    if (kind === 'email_change') {
      if (user.email_change !== link.relates_to) return linkExpired()
      const other = await findUserByEmail(tx, link.relates_to)
      if (other && other.id !== user.id)
        return unprocessable(
          'email_exists',
          'A user with this email address has already been registered',
        )
      await tx.query(
        `update auth.users
            set email = $2, email_confirmed_at = now(), email_change = null,
                email_change_sent_at = null, raw_user_meta_data = raw_user_meta_data || $3::jsonb
          where id = $1`,
        [user.id, link.relates_to, verified],
      )
      // A pending sign-up link of the old address must not confirm the new one.
      await tx.query(`delete from auth.humo_email_links where user_id = $1 and kind = 'signup'`, [
        user.id,
      ])
    } else {
      if (current !== link.relates_to) return linkExpired()
      const strangerMayKnowPassword = user.email_confirmed_at === null
      // The followed sign-up link's password becomes the account's. A recovery link for an
      // account no one had proven clears its password: whoever signed it up may not be its owner.
      // Either way the address is now proven: other sign-up links and every session end.
      if (strangerMayKnowPassword)
        await tx.query(`delete from auth.humo_email_links where user_id = $1 and kind = 'signup'`, [
          user.id,
        ])
      await tx.query(
        `update auth.users
            set email_confirmed_at = coalesce(email_confirmed_at, now()),
                encrypted_password = case when $2 then null else coalesce($3, encrypted_password) end,
                raw_user_meta_data = raw_user_meta_data || $4::jsonb
          where id = $1`,
        [
          user.id,
          kind === 'recovery' && user.email_confirmed_at === null,
          link.pending_password,
          verified,
        ],
      )
      if (strangerMayKnowPassword)
        await tx.query('delete from auth.sessions where user_id = $1', [user.id])
    }
    const proven = (await findUserById(tx, user.id))!
    const started = await startSession(tx, req, proven)
    return tokenResponse(req, ctx, started.user, started.session, started.refreshToken)
  })
  if (outcome instanceof GoTrueError) throw outcome
  return outcome
}

/** GET /verify, the emailed link: redirects with the session (or the error) in the fragment. */
async function verifyLink(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: AuthContext,
  url: URL,
): Promise<void> {
  const type = url.searchParams.get('type') ?? ''
  const secret = url.searchParams.get('token') ?? ''
  // Without a mail server there is no site address to send the browser to: a JSON answer.
  if (!ctx.mailer) return sendAuthJson(req, res, 200, await redeem(req, ctx, type, secret))
  const target = safeRedirect(ctx.mailer, url.searchParams.get('redirect_to'))
  let fragment: URLSearchParams
  try {
    const session = await redeem(req, ctx, type, secret)
    fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type,
    })
  } catch (error) {
    if (!(error instanceof GoTrueError)) throw error
    if (error.status === 429) return sendAuthError(req, res, error)
    fragment = new URLSearchParams({
      error: error.status === 403 ? 'access_denied' : 'invalid_request',
      error_code: error.code,
      error_description: error.message,
    })
  }
  res.writeHead(303, { Location: `${target}#${fragment.toString()}`, 'Cache-Control': 'no-store' })
  res.end()
}

/** POST /verify (supabase-js verifyOtp with token_hash, or email and token). */
async function verifyOtp(req: IncomingMessage, ctx: AuthContext): Promise<TokenResponse> {
  const body = await readJson(req)
  const secret = field(body, 'token_hash') || field(body, 'token')
  return redeem(req, ctx, field(body, 'type'), secret)
}

/** POST /recover: always {} (the same for any address); a link only to an existing account. */
async function recover(
  req: IncomingMessage,
  ctx: AuthContext,
  url: URL,
): Promise<Record<string, never>> {
  const body = await readJson(req)
  const email = validateEmail(field(body, 'email'))
  limit(ctx, 'recover_ip', clientAddress(req))
  limit(ctx, 'recover_account', email)
  const mailer = ctx.mailer
  if (!mailer) return {}
  const redirect = safeRedirect(mailer, url.searchParams.get('redirect_to'))
  inBackground(async () => {
    await ensureLinkTokens(ctx.db)
    const link = await ctx.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email)
      if (!user || isBanned(user)) return null
      return issueLink(tx, mailer, user, 'recovery', email, null, redirect)
    })
    if (link) mailer.send({ kind: 'recovery', to: email, link })
  })
  return {}
}

/**
 * Runs a request's follow-up after its answer, so the answer takes as long whether or not there
 * was anything to do (recover and resend must not time an account's existence).
 */
function inBackground(work: () => Promise<void>): void {
  setImmediate(() => {
    work().catch((error: unknown) => reportServerError('auth email failed', error))
  })
}

/** POST /resend: a new confirmation link for a pending sign-up or email change; always {}. */
async function resend(
  req: IncomingMessage,
  ctx: AuthContext,
  url: URL,
): Promise<Record<string, never>> {
  const body = await readJson(req)
  const type = field(body, 'type')
  if (type !== 'signup' && type !== 'email_change')
    throw badRequest('validation_failed', 'Missing one of these types: signup, email_change')
  const email = validateEmail(field(body, 'email'))
  limit(ctx, 'recover_ip', clientAddress(req))
  limit(ctx, 'recover_account', email)
  const mailer = ctx.mailer
  if (!mailer) return {}
  const redirect = safeRedirect(mailer, url.searchParams.get('redirect_to'))
  inBackground(async () => {
    await ensureLinkTokens(ctx.db)
    const sent = await resendLink(ctx.db, mailer, type, email, redirect)
    if (sent) mailer.send({ kind: type, ...sent })
  })
  return {}
}

async function resendLink(
  db: PGlite,
  mailer: AuthMailer,
  type: 'signup' | 'email_change',
  email: string,
  redirect: string,
): Promise<{ to: string; link: string } | null> {
  return db.transaction(async (tx) => {
    if (type === 'signup') {
      const user = await findUserByEmail(tx, email)
      if (!user || user.email_confirmed_at || isBanned(user)) return null
      // The link of the latest sign-up again (with its password); none when the account was
      // made while the shop had no mail server: then it keeps the password it has.
      const { rows } = await tx.query<{ pending_password: string | null }>(
        `select pending_password from auth.humo_email_links where user_id = $1 and kind = 'signup'
          order by created_at desc, token_hash limit 1`,
        [user.id],
      )
      const pending = rows[0]?.pending_password ?? null
      return {
        to: email,
        link: await issueLink(tx, mailer, user, 'signup', email, pending, redirect),
      }
    }
    const { rows } = await tx.query<UserRow>(
      `select ${USER_COLUMNS} from auth.users
        where deleted_at is null and email_change is not null
          and (lower(email_change) = $1 or lower(email) = $1)
        limit 1`,
      [email],
    )
    const user = rows[0]
    if (!user?.email_change || isBanned(user)) return null
    const to = user.email_change
    // A change to an address another account has never gets a link (see updateUser).
    const other = await findUserByEmail(tx, to)
    if (other && other.id !== user.id) return null
    return { to, link: await issueLink(tx, mailer, user, 'email_change', to, null, redirect) }
  })
}

// endpoints ---------------------------------------------------------------------------------------

/**
 * POST /signup. Never a session, and the same answer whether the address is new or not (a
 * made-up unconfirmed user for an existing one, as GoTrue does with confirmations on): the app
 * signs in next. Both paths hash the password once, so they take as long.
 */
async function signUp(
  req: IncomingMessage,
  ctx: AuthContext,
  url: URL,
): Promise<Record<string, unknown>> {
  const hasher = ctx.hasher ?? bcryptHasher
  const body = await readJson(req)
  const email = field(body, 'email').trim()
  const phone = field(body, 'phone').trim()
  const password = field(body, 'password')
  const data = metadata(body) ?? {}

  if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password')
  if (email !== '' && phone !== '')
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on signup.',
    )
  if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone signups are disabled')
  if (email === '')
    throw badRequest('validation_failed', 'Sign up only available with email provider')
  const normalised = validateEmail(email)
  await checkNewPassword(password, normalised)
  limit(ctx, 'sign_up_ip', clientAddress(req))
  const mailer = ctx.mailer
  if (mailer) await ensureLinkTokens(ctx.db)
  const redirect = mailer ? safeRedirect(mailer, url.searchParams.get('redirect_to')) : ''
  const hashed = await hasher.hash(password, BCRYPT_COST)
  const appMeta = { provider: 'email', providers: ['email'] }
  const userMeta = { ...data, email_verified: false }

  const { user, link } = await ctx.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, normalised)
    if (!existing) {
      const { rows } = await tx.query<UserRow>(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
                                 raw_app_meta_data, raw_user_meta_data)
         values ($1, $2, 'authenticated', 'authenticated', $3, $4, $5::jsonb, $6::jsonb)
         returning ${USER_COLUMNS}`,
        [
          NIL_INSTANCE,
          randomUUID(),
          normalised,
          hashed,
          JSON.stringify(appMeta),
          JSON.stringify(userMeta),
        ],
      )
      const created = rows[0]!
      const link = mailer
        ? await issueLink(tx, mailer, created, 'signup', normalised, hashed, redirect)
        : null
      return { user: created, link }
    }
    // An unconfirmed address gets a new link carrying this sign-up's password; a confirmed one
    // gets nothing (its owner signs in or resets the password).
    const link =
      mailer && !existing.email_confirmed_at && !isBanned(existing)
        ? await issueLink(tx, mailer, existing, 'signup', normalised, hashed, redirect)
        : null
    const now = new Date()
    const madeUp: UserRow = {
      id: randomUUID(),
      email: normalised,
      encrypted_password: null,
      email_confirmed_at: null,
      last_sign_in_at: null,
      raw_app_meta_data: appMeta,
      raw_user_meta_data: userMeta,
      banned_until: null,
      created_at: now,
      updated_at: now,
      is_anonymous: false,
    }
    return { user: madeUp, link }
  })
  if (mailer && link) mailer.send({ kind: 'signup', to: normalised, link })
  return userJson(user)
}

async function token(req: IncomingMessage, ctx: AuthContext, url: URL): Promise<TokenResponse> {
  const grantType = url.searchParams.get('grant_type') ?? ''
  if (grantType === 'password') return passwordGrant(req, ctx)
  if (grantType === 'refresh_token') return refreshGrant(req, ctx)
  if (['pkce', 'id_token', 'web3'].includes(grantType))
    throw badRequest('validation_failed', `The ${grantType} grant is not available here`)
  throw badRequest('invalid_credentials', 'unsupported_grant_type')
}

async function passwordGrant(req: IncomingMessage, ctx: AuthContext): Promise<TokenResponse> {
  const hasher = ctx.hasher ?? bcryptHasher
  const body = await readJson(req)
  const email = field(body, 'email').trim()
  const phone = field(body, 'phone').trim()
  const password = field(body, 'password')
  if (email !== '' && phone !== '')
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    )
  if (phone !== '') throw unprocessable('phone_provider_disabled', 'Phone logins are disabled')
  if (email === '') throw badRequest('validation_failed', 'missing email or phone')
  if (email.length > 254) throw badRequest('validation_failed', 'An email address is too long')
  const account = email.toLowerCase()

  // Counted before the compare, so parallel guesses cannot outrun the count; a success clears
  // the account's count (only failures lock an account).
  limit(ctx, 'sign_in_ip', clientAddress(req))
  limit(ctx, 'sign_in_account', account)
  const user = await findUserByEmail(ctx.db, account)
  // Exactly one bcrypt compare whether or not the address has an account (or a password).
  const matches = await hasher.compare(password, user?.encrypted_password ?? DUMMY_PASSWORD_HASH)
  if (!user?.encrypted_password || !matches) throw badRequest('invalid_credentials', INVALID_LOGIN)
  ctx.limiter?.reset('sign_in_account', account)
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned')
  // With a mail server the address must be proven first (GoTrue's default); without one nobody
  // can prove it, so an unconfirmed account signs in (and is never granted admin by email).
  if (!user.email_confirmed_at && ctx.mailer)
    throw badRequest('email_not_confirmed', 'Email not confirmed')

  return ctx.db.transaction(async (tx) => {
    const started = await startSession(tx, req, user)
    return tokenResponse(req, ctx, started.user, started.session, started.refreshToken)
  })
}

interface RefreshTokenRow {
  id: string
  token: string
  user_id: string
  session_id: string | null
  revoked: boolean
  updated_at: Date
}

async function refreshGrant(req: IncomingMessage, ctx: AuthContext): Promise<TokenResponse> {
  const body = await readJson(req)
  const presented = field(body, 'refresh_token')
  limit(ctx, 'token_refresh_ip', clientAddress(req))
  const notFound = () =>
    badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
  if (presented === '') throw notFound()

  // NOTE: the reuse check commits its revocation even though the request fails, so the outcome
  // is decided inside the transaction and thrown after it.
  const outcome = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<RefreshTokenRow>(
      `select id::text, token, user_id, session_id, revoked, updated_at
         from auth.refresh_tokens where token = $1 for update`,
      [presented],
    )
    const current = rows[0]
    if (!current) return notFound()
    const session = current.session_id
      ? (
          await tx.query<SessionRow>(
            'select id, user_id, created_at from auth.sessions where id = $1',
            [current.session_id],
          )
        ).rows[0]
      : undefined
    if (!session)
      return badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found')
    const user = await findUserById(tx, current.user_id)
    if (!user) return notFound()
    if (isBanned(user)) return badRequest('user_banned', 'Invalid Refresh Token: User Banned')

    let issued: string | null = null
    if (current.revoked) {
      const child = await tx.query<{ token: string }>(
        `select token from auth.refresh_tokens
          where session_id = $1 and parent = $2 and not revoked order by id desc limit 1`,
        [session.id, current.token],
      )
      const reusable =
        Date.now() - current.updated_at.getTime() < REFRESH_TOKEN_REUSE_SECONDS * 1000
      if (child.rows[0]) {
        // The client lost the answer to its last refresh: hand back the token it was given.
        issued = child.rows[0].token
      } else if (!reusable) {
        await tx.query('update auth.refresh_tokens set revoked = true where session_id = $1', [
          session.id,
        ])
        return badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used')
      }
    }
    if (!issued) {
      issued = newRefreshToken()
      await tx.query(
        'update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1',
        [current.id],
      )
      await tx.query(
        `insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)`,
        [issued, user.id, session.id, current.token],
      )
    }
    await tx.query('update auth.sessions set updated_at = now() where id = $1', [session.id])
    return tokenResponse(req, ctx, user, session, issued)
  })
  if (outcome instanceof GoTrueError) throw outcome
  return outcome
}

interface Caller {
  user: UserRow
  session: SessionRow | null
  claims: JWTPayload
}

/** GoTrue's requireAuthentication: a valid user JWT whose user and session still exist. */
async function requireUser(req: IncomingMessage, ctx: AuthContext): Promise<Caller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  if (!match)
    throw new GoTrueError(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  let claims: JWTPayload
  try {
    ;({ payload: claims } = await jwtVerify(match[1]!, ctx.jwtSecret, { algorithms: ['HS256'] }))
  } catch (error) {
    const reason =
      error instanceof joseErrors.JWTExpired
        ? 'token has invalid claims: token is expired'
        : error instanceof joseErrors.JWSSignatureVerificationFailed
          ? 'token signature is invalid'
          : 'token is malformed'
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`)
  }
  if (typeof claims.sub !== 'string' || claims.sub === '')
    throw forbidden('bad_jwt', 'invalid claim: missing sub claim')
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(claims.sub))
    throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID')
  const user = await findUserById(ctx.db, claims.sub)
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist')
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned')
  let session: SessionRow | null = null
  const sessionId = claims.session_id
  if (sessionId !== undefined && sessionId !== '') {
    if (typeof sessionId !== 'string' || !/^[0-9a-f-]{36}$/i.test(sessionId))
      throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID')
    const { rows } = await ctx.db.query<SessionRow>(
      'select id, user_id, created_at from auth.sessions where id = $1',
      [sessionId],
    )
    session = rows[0] ?? null
    if (!session)
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist')
  }
  return { user, session, claims }
}

/**
 * PUT /user. A new email is pending until its link is followed (with a mail server), or applies
 * unconfirmed (without one); with a mail server an address taken by another account answers the
 * same as a free one (no link is sent), so the change does not reveal who has an account.
 */
async function updateUser(
  req: IncomingMessage,
  ctx: AuthContext,
  url: URL,
): Promise<Record<string, unknown>> {
  const hasher = ctx.hasher ?? bcryptHasher
  const { user, session } = await requireUser(req, ctx)
  const body = await readJson(req)
  if (body.app_metadata !== undefined)
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges')
  const email = field(body, 'email')
  const password =
    body.password === undefined || body.password === null ? null : field(body, 'password')
  // email_verified in user_metadata is the server's to say (it follows email_confirmed_at).
  const given = metadata(body)
  const data =
    given && Object.fromEntries(Object.entries(given).filter(([k]) => k !== 'email_verified'))

  let newEmail: string | null = null
  if (email.trim() !== '') {
    const normalised = validateEmail(email)
    if (normalised !== (user.email ?? '').toLowerCase()) newEmail = normalised
  }
  let newHash: string | null = null
  if (password !== null) {
    await checkNewPassword(password, user.email ?? '')
    if (user.encrypted_password && (await hasher.compare(password, user.encrypted_password)))
      throw unprocessable(
        'same_password',
        'New password should be different from the old password.',
      )
    newHash = await hasher.hash(password, BCRYPT_COST)
  }
  const mailer = ctx.mailer
  if (newEmail && mailer) await ensureLinkTokens(ctx.db)

  const { json, link } = await ctx.db.transaction(async (tx) => {
    let link: { to: string; link: string } | null = null
    if (newHash) {
      await tx.query('update auth.users set encrypted_password = $2 where id = $1', [
        user.id,
        newHash,
      ])
      // Like GoTrue: a new password signs out every other session of the user.
      await tx.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [
        user.id,
        session?.id ?? null,
      ])
    }
    if (newEmail) {
      const other = await findUserByEmail(tx, newEmail)
      const taken = other !== null && other.id !== user.id
      if (mailer) {
        await tx.query(
          'update auth.users set email_change = $2, email_change_sent_at = now() where id = $1',
          [user.id, newEmail],
        )
        if (!taken) {
          const redirect = safeRedirect(mailer, url.searchParams.get('redirect_to'))
          link = {
            to: newEmail,
            link: await issueLink(tx, mailer, user, 'email_change', newEmail, null, redirect),
          }
        }
      } else {
        if (taken)
          throw unprocessable(
            'email_exists',
            'A user with this email address has already been registered',
          )
        await tx.query(
          `update auth.users
              set email = $2, email_confirmed_at = null, email_change = null,
                  email_change_sent_at = null,
                  raw_user_meta_data = raw_user_meta_data || '{"email_verified": false}'::jsonb
            where id = $1`,
          [user.id, newEmail],
        )
      }
    }
    if (data) {
      // GoTrue merges metadata: given keys replace, null values remove.
      const merged = await tx.query<{ size: number }>(
        `update auth.users
            set raw_user_meta_data = jsonb_strip_nulls(raw_user_meta_data || $2::jsonb)
          where id = $1
        returning length(raw_user_meta_data::text) as size`,
        [user.id, JSON.stringify(data)],
      )
      // Each update may add keys: the sum is capped too (the transaction rolls back).
      if ((merged.rows[0]?.size ?? 0) > MAX_USER_METADATA_CHARS * 2)
        throw badRequest(
          'validation_failed',
          'User metadata would be too large: remove keys (set them to null) first',
        )
    }
    const { rows } = await tx.query<UserRow>(
      `update auth.users set updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
      [user.id],
    )
    return { json: userJson(rows[0]!), link }
  })
  if (mailer && link) mailer.send({ kind: 'email_change', ...link })
  return json
}

async function logout(req: IncomingMessage, ctx: AuthContext, url: URL): Promise<void> {
  const scope = url.searchParams.get('scope') ?? 'global'
  if (!['', 'global', 'local', 'others'].includes(scope))
    throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`)
  const { user, session } = await requireUser(req, ctx)
  // Deleting a session deletes its refresh tokens (foreign key cascade).
  if (session && scope === 'local') {
    await ctx.db.query('delete from auth.sessions where id = $1', [session.id])
  } else if (session && scope === 'others') {
    await ctx.db.query('delete from auth.sessions where user_id = $1 and id <> $2', [
      user.id,
      session.id,
    ])
  } else {
    await ctx.db.query('delete from auth.sessions where user_id = $1', [user.id])
  }
}
