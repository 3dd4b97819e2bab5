// The stand-in's /auth/v1: the part of GoTrue (Supabase Auth) that supabase-js uses for email and
// password accounts. Users, sessions and rotating refresh tokens live in the auth schema, shaped
// like GoTrue's; passwords are bcrypt hashes; access tokens are HS256 JWTs with GoTrue's claims,
// signed with the project secret so PostgREST-style requests (and auth.uid()) accept them.
//
// There is no mail here, so the stand-in behaves like GoTrue with autoconfirm on: sign-up confirms
// the address at once and answers with a session; an email change applies at once.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { compare, hash } from 'bcryptjs'
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import { BodyTooLargeError, readBody } from '../http-body.ts'
import { verifyJwt } from '../jwt-keys.ts'
import {
  GoTrueError,
  badRequest,
  forbidden,
  sendAuthError,
  sendAuthJson,
  unprocessable,
  weakPassword,
} from './gotrue-errors.ts'

export interface AuthContext {
  db: PGlite
  jwtSecret: Uint8Array
}

const ACCESS_TOKEN_SECONDS = 3600
const MIN_PASSWORD_LENGTH = 6
const MAX_PASSWORD_LENGTH = 72 // bcrypt only reads 72 bytes; GoTrue refuses longer passwords
const BCRYPT_COST = 10
// GoTrue's default: a rotated-away refresh token may be replayed this long (a client that lost
// the refresh answer retries), after which reuse revokes the whole session.
const REFRESH_TOKEN_REUSE_SECONDS = 10
const MAX_AUTH_BODY_BYTES = 1024 * 1024
const INVALID_LOGIN = 'Invalid login credentials'

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
}

interface SessionRow {
  id: string
  user_id: string
  created_at: Date
}

const USER_COLUMNS = `id, email, encrypted_password, email_confirmed_at, last_sign_in_at, raw_app_meta_data,
  raw_user_meta_data, banned_until, created_at, updated_at, is_anonymous`

export async function handleAuth(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: AuthContext,
  url: URL,
): Promise<void> {
  try {
    await requireApiKey(req, url, ctx)
    const path = url.pathname.replace(/^\/auth\/v1/, '') || '/'
    const method = req.method ?? 'GET'
    const route = `${method} ${path}`
    switch (route) {
      case 'GET /health':
        return sendAuthJson(req, res, 200, {
          version: 'humo-local',
          name: 'GoTrue',
          description: 'GoTrue is a user registration and authentication API',
        })
      case 'GET /settings':
        return sendAuthJson(req, res, 200, settings())
      case 'GET /.well-known/jwks.json':
        // HS256 only: there is no public key to publish (as on a project with a legacy secret).
        return sendAuthJson(req, res, 200, { keys: [] })
      case 'POST /signup':
        return sendAuthJson(req, res, 200, await signUp(req, ctx, url))
      case 'POST /token':
        return sendAuthJson(req, res, 200, await token(req, ctx, url))
      case 'GET /user': {
        const { user } = await requireUser(req, ctx)
        return sendAuthJson(req, res, 200, userJson(user))
      }
      case 'PUT /user':
        return sendAuthJson(req, res, 200, await updateUser(req, ctx))
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
    console.error('[humo-backend] auth request failed:', error)
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

function settings() {
  const providers = ['anonymous_users', 'apple', 'azure', 'bitbucket', 'discord', 'facebook']
    .concat(['figma', 'fly', 'github', 'gitlab', 'google', 'keycloak', 'kakao', 'linkedin'])
    .concat(['linkedin_oidc', 'notion', 'spotify', 'slack', 'slack_oidc', 'workos', 'twitch'])
    .concat(['twitter', 'email', 'phone', 'zoom'])
  return {
    external: Object.fromEntries(providers.map((p) => [p, p === 'email'])),
    disable_signup: false,
    mailer_autoconfirm: true,
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
  let text: string
  try {
    text = (await readBody(req, MAX_AUTH_BODY_BYTES)).toString('utf8')
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new GoTrueError(413, 'request_too_large', 'Request body is too large')
    throw error
  }
  if (text.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: ${(error as Error).message}`,
    )
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('bad_json', 'Could not parse request body as JSON: expected an object')
  return parsed as Record<string, unknown>
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')

function issuer(req: IncomingMessage): string {
  const proto =
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      ?.trim() || 'http'
  return `${proto}://${req.headers.host ?? 'localhost'}/auth/v1`
}

function checkPasswordStrength(password: string): void {
  if (password.length > MAX_PASSWORD_LENGTH)
    throw badRequest(
      'validation_failed',
      `Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`,
    )
  if (password.length < MIN_PASSWORD_LENGTH)
    throw weakPassword(
      [`Password should be at least ${MIN_PASSWORD_LENGTH} characters.`],
      ['length'],
    )
}

// Deliberately loose, like GoTrue's format check: something@something.tld, no spaces.
const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function validateEmail(email: string): string {
  if (email === '') throw badRequest('validation_failed', 'An email address is required')
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long')
  if (!EMAIL_FORMAT.test(email))
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format')
  return email.toLowerCase()
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

// endpoints ---------------------------------------------------------------------------------------

async function signUp(req: IncomingMessage, ctx: AuthContext, url: URL): Promise<TokenResponse> {
  const body = await readJson(req)
  const email = text(body.email).trim()
  const phone = text(body.phone).trim()
  const password = text(body.password)
  const data =
    typeof body.data === 'object' && body.data !== null && !Array.isArray(body.data)
      ? (body.data as Record<string, unknown>)
      : {}
  // Accepted for compatibility: with no mail to send, the redirect after confirmation never runs.
  void url.searchParams.get('redirect_to')

  if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password')
  checkPasswordStrength(password)
  if (email !== '' && phone !== '')
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on signup.',
    )
  if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone signups are disabled')
  if (email === '')
    throw badRequest('validation_failed', 'Sign up only available with email provider')
  const normalised = validateEmail(email)
  const hashed = await hash(password, BCRYPT_COST)

  return ctx.db.transaction(async (tx) => {
    if (await findUserByEmail(tx, normalised))
      throw unprocessable('user_already_exists', 'User already registered')
    const { rows } = await tx.query<UserRow>(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                               raw_app_meta_data, raw_user_meta_data)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3, now(),
               $4::jsonb, $5::jsonb)
       returning ${USER_COLUMNS}`,
      [
        randomUUID(),
        normalised,
        hashed,
        JSON.stringify({ provider: 'email', providers: ['email'] }),
        JSON.stringify({ ...data, email_verified: true }),
      ],
    )
    const started = await startSession(tx, req, rows[0]!)
    return tokenResponse(req, ctx, started.user, started.session, started.refreshToken)
  })
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
  const body = await readJson(req)
  const email = text(body.email).trim()
  const phone = text(body.phone).trim()
  const password = text(body.password)
  if (email !== '' && phone !== '')
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    )
  if (phone !== '') throw unprocessable('phone_provider_disabled', 'Phone logins are disabled')
  if (email === '') throw badRequest('validation_failed', 'missing email or phone')

  const user = await findUserByEmail(ctx.db, email)
  if (!user?.encrypted_password) throw badRequest('invalid_credentials', INVALID_LOGIN)
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned')
  if (!(await compare(password, user.encrypted_password)))
    throw badRequest('invalid_credentials', INVALID_LOGIN)
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed')

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
  const presented = text(body.refresh_token)
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

async function updateUser(
  req: IncomingMessage,
  ctx: AuthContext,
): Promise<Record<string, unknown>> {
  const { user, session } = await requireUser(req, ctx)
  const body = await readJson(req)
  if (body.app_metadata !== undefined)
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges')
  const email = typeof body.email === 'string' && body.email !== '' ? body.email : null
  const password = typeof body.password === 'string' ? body.password : null
  const data =
    typeof body.data === 'object' && body.data !== null && !Array.isArray(body.data)
      ? (body.data as Record<string, unknown>)
      : null

  let newEmail: string | null = null
  if (email !== null && email.toLowerCase() !== (user.email ?? '').toLowerCase()) {
    newEmail = validateEmail(email)
    const other = await findUserByEmail(ctx.db, newEmail)
    if (other && other.id !== user.id)
      throw unprocessable(
        'email_exists',
        'A user with this email address has already been registered',
      )
  }
  let newHash: string | null = null
  if (password !== null) {
    checkPasswordStrength(password)
    if (user.encrypted_password && (await compare(password, user.encrypted_password)))
      throw unprocessable(
        'same_password',
        'New password should be different from the old password.',
      )
    newHash = await hash(password, BCRYPT_COST)
  }

  return ctx.db.transaction(async (tx) => {
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
      await tx.query('update auth.users set email = $2, email_confirmed_at = now() where id = $1', [
        user.id,
        newEmail,
      ])
    }
    if (data) {
      // GoTrue merges metadata: given keys replace, null values remove.
      await tx.query(
        `update auth.users
            set raw_user_meta_data = jsonb_strip_nulls(raw_user_meta_data || $2::jsonb)
          where id = $1`,
        [user.id, JSON.stringify(data)],
      )
    }
    const { rows } = await tx.query<UserRow>(
      `update auth.users set updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
      [user.id],
    )
    return userJson(rows[0]!)
  })
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
