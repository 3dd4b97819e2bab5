// @vitest-environment node
// Contract tests of /auth/v1: the real supabase-js auth client against the stand-in's GoTrue
// subset — sign-up (with the email redirect option; no session, unconfirmed without a mail
// server), password sign-in, wrong password, user, refresh with rotation, user update, sign-out
// scopes — and GoTrue's error codes and claims. The hardening (issue 23) is in
// auth-hardening.test.ts and auth-links.test.ts.
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor } from '../contract-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

let backend: HumoBackend

beforeAll(async () => {
  backend = await startHumoBackend({
    dataDir: null,
    port: 0,
    quiet: true,
    seed: false,
    rateLimits: null,
  })
}, 60_000)

afterAll(async () => {
  await backend?.close()
})

const password = 'correct horse battery'

describe('sign-up and sign-in', () => {
  it('signs up with an email redirect (unconfirmed, no session), then signs in to a GoTrue session', async () => {
    const client = clientFor(backend, backend.anonKey)
    const { data, error } = await client.auth.signUp({
      email: 'Admin@Example.com',
      password,
      options: { emailRedirectTo: `${backend.url}/admin`, data: { display_name: 'Ada' } },
    })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({
      email: 'admin@example.com',
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { display_name: 'Ada', email_verified: false },
      is_anonymous: false,
    })
    expect(data.user!.email_confirmed_at).toBeUndefined()
    expect(data.session).toBeNull()
    const signedIn = await client.auth.signInWithPassword({ email: 'admin@example.com', password })
    expect(signedIn.error).toBeNull()
    expect(signedIn.data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 })
    const claims = decodeJwt(signedIn.data.session!.access_token)
    expect(claims).toMatchObject({
      aud: 'authenticated',
      iss: `${backend.url}/auth/v1`,
      sub: signedIn.data.user!.id,
      email: 'admin@example.com',
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { display_name: 'Ada' },
      is_anonymous: false,
      session_id: expect.any(String) as string,
    })
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) as number }])
    expect(claims.exp! - claims.iat!).toBe(3600)
    const row = await backend.db.query<{ encrypted_password: string }>(
      'select encrypted_password from auth.users where id = $1',
      [data.user!.id],
    )
    expect(row.rows[0]!.encrypted_password).toMatch(/^\$2[aby]\$10\$/)
  })

  it('answers a second sign-up like a first, and refuses weak or missing passwords with GoTrue codes', async () => {
    const client = clientFor(backend, backend.anonKey)
    const again = await client.auth.signUp({ email: 'admin@example.com', password })
    expect(again.error).toBeNull()
    expect(again.data.session).toBeNull()
    expect(again.data.user).toMatchObject({ email: 'admin@example.com' })
    const weak = await client.auth.signUp({ email: 'weak@example.com', password: '12345' })
    expect(weak.error).toMatchObject({
      name: 'AuthWeakPasswordError',
      status: 422,
      code: 'weak_password',
      reasons: ['length'],
      message: 'Password should be at least 8 characters.',
    })
    const empty = await client.auth.signUp({ email: 'empty@example.com', password: '' })
    expect(empty.error).toMatchObject({ status: 400, code: 'validation_failed' })
    const badEmail = await client.auth.signUp({ email: 'not-an-email', password })
    expect(badEmail.error).toMatchObject({ status: 400, code: 'validation_failed' })
  })

  it('signs in with the password and refuses a wrong one', async () => {
    const client = clientFor(backend, backend.anonKey)
    const wrong = await client.auth.signInWithPassword({
      email: 'admin@example.com',
      password: 'wrong password',
    })
    expect(wrong.error).toMatchObject({
      name: 'AuthApiError',
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    })
    const unknown = await client.auth.signInWithPassword({ email: 'nobody@example.com', password })
    expect(unknown.error).toMatchObject({ code: 'invalid_credentials' })

    const { data, error } = await client.auth.signInWithPassword({
      email: 'ADMIN@example.com',
      password,
    })
    expect(error).toBeNull()
    expect(data.user!.email).toBe('admin@example.com')
    expect(data.user!.last_sign_in_at).toEqual(expect.any(String))
    const user = await client.auth.getUser()
    expect(user.error).toBeNull()
    expect(user.data.user!.id).toBe(data.user!.id)
  })

  it('answers the API version header and both error body versions', async () => {
    const url = `${backend.url}/auth/v1/token?grant_type=password`
    const body = JSON.stringify({ email: 'admin@example.com', password: 'nope' })
    const headers = { apikey: backend.anonKey, 'Content-Type': 'application/json' }
    const current = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'X-Supabase-Api-Version': '2024-01-01' },
      body,
    })
    expect(current.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(await current.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    })
    const initial = await fetch(url, { method: 'POST', headers, body })
    expect(await initial.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    })
    const noKey = await fetch(url, { method: 'POST', body })
    expect(noKey.status).toBe(401)
    const health = await fetch(`${backend.url}/auth/v1/health`, { headers })
    expect(await health.json()).toMatchObject({ name: 'GoTrue' })
    const settings = await fetch(`${backend.url}/auth/v1/settings`, { headers })
    expect(await settings.json()).toMatchObject({
      external: { email: true, phone: false },
      mailer_autoconfirm: false,
      mailer_enabled: false,
    })
  })
})

describe('sessions', () => {
  it('refreshes with rotation and refuses a stale refresh token', async () => {
    const client = clientFor(backend, backend.anonKey)
    const signIn = await client.auth.signInWithPassword({ email: 'admin@example.com', password })
    const first = signIn.data.session!
    const refreshed = await client.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    const second = refreshed.data.session!
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(decodeJwt(second.access_token).session_id).toBe(decodeJwt(first.access_token).session_id)

    // A client that lost the answer may replay its last token and gets the same successor...
    const replay = await client.auth.refreshSession({ refresh_token: first.refresh_token })
    expect(replay.error).toBeNull()
    expect(replay.data.session!.refresh_token).toBe(second.refresh_token)

    const unknown = await clientFor(backend, backend.anonKey).auth.refreshSession({
      refresh_token: 'no-such-token',
    })
    expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
  })

  it('updates the user: metadata, password (old one stops working) and email', async () => {
    const client = clientFor(backend, backend.anonKey)
    await client.auth.signUp({ email: 'changer@example.com', password })
    await client.auth.signInWithPassword({ email: 'changer@example.com', password })
    const meta = await client.auth.updateUser({ data: { shift: 'night' } })
    expect(meta.error).toBeNull()
    expect(meta.data.user!.user_metadata).toMatchObject({ shift: 'night', email_verified: false })
    const same = await client.auth.updateUser({ password })
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' })
    const changed = await client.auth.updateUser({ password: 'a brand new secret' })
    expect(changed.error).toBeNull()
    const old = await clientFor(backend, backend.anonKey).auth.signInWithPassword({
      email: 'changer@example.com',
      password,
    })
    expect(old.error).toMatchObject({ code: 'invalid_credentials' })
    const taken = await client.auth.updateUser({ email: 'admin@example.com' })
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' })
    const moved = await client.auth.updateUser({ email: 'moved@example.com' })
    expect(moved.data.user!.email).toBe('moved@example.com')
    // Without a mail server the new address applies, unproven.
    expect(moved.data.user!.email_confirmed_at).toBeUndefined()
  })

  it('signs out locally, others and globally, revoking sessions and their refresh tokens', async () => {
    const sign = async () => {
      const client = clientFor(backend, backend.anonKey)
      const { data } = await client.auth.signInWithPassword({
        email: 'admin@example.com',
        password,
      })
      return { client, session: data.session! }
    }
    const a = await sign()
    const b = await sign()
    const c = await sign()

    expect((await a.client.auth.signOut({ scope: 'local' })).error).toBeNull()
    const afterLocal = await clientFor(backend, backend.anonKey).auth.getUser(
      a.session.access_token,
    )
    expect(afterLocal.error).toMatchObject({ name: 'AuthSessionMissingError' })
    expect((await b.client.auth.getUser()).error).toBeNull()

    expect((await b.client.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect((await b.client.auth.getUser()).error).toBeNull()
    const cRefresh = await c.client.auth.refreshSession()
    expect(cRefresh.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })

    expect((await b.client.auth.signOut()).error).toBeNull()
    const reuse = await clientFor(backend, backend.anonKey).auth.refreshSession({
      refresh_token: b.session.refresh_token,
    })
    expect(reuse.error).toMatchObject({ status: 400 })
  })

  it('refuses bad and expired JWTs with bad_jwt', async () => {
    const client = clientFor(backend, backend.anonKey)
    const garbage = await client.auth.getUser('not-a-jwt')
    expect(garbage.error).toMatchObject({ status: 403, code: 'bad_jwt' })
    const anonAsUser = await client.auth.getUser(backend.anonKey)
    expect(anonAsUser.error).toMatchObject({
      status: 403,
      code: 'bad_jwt',
      message: 'invalid claim: missing sub claim',
    })
    const { SignJWT } = await import('jose')
    const expired = await new SignJWT({ role: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('00000000-0000-4000-8000-000000000000')
      .setIssuedAt(1_700_000_000)
      .setExpirationTime(1_700_000_100)
      .sign(new TextEncoder().encode(backend.jwtSecret))
    const old = await client.auth.getUser(expired)
    expect(old.error).toMatchObject({ status: 403, code: 'bad_jwt' })
    expect(old.error!.message).toMatch(/expired/)
  })
})
