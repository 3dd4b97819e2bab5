// @vitest-environment node
// Issue 23 on /auth/v1 without a mail server (the default `npm start`): passwords per NIST SP
// 800-63B (finding 5), no account enumeration by sign-in, sign-up, recover or resend — equal
// bcrypt work counted through the PasswordHasher seam, identical answers (finding 5), 429s with
// Retry-After for floods of sign-ins, sign-ups and recoveries (finding 4), addresses left
// unconfirmed by sign-up and email change (finding 1), and hostile bodies answered 4xx (issue 23,
// "bad input").
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimitRules } from '../http/rate-limits.ts'
import { startAuthHarness, type AuthHarness } from './auth-test-harness.ts'

const password = 'correct horse battery'

/** Masks what must differ between two answers (ids, times, the address), keeping the rest. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        /(^|_)id$|_at$|^sub$|^email$/.test(key) && typeof v === 'string' ? '<varies>' : shape(v),
      ]),
    )
  return value
}

describe('without rate limits', () => {
  let auth: AuthHarness

  beforeAll(async () => {
    auth = await startAuthHarness()
  }, 60_000)

  afterAll(async () => {
    await auth?.close()
  })

  describe('passwords (NIST SP 800-63B)', () => {
    it.each(['123456', 'password1', '12345678', 'qwertyuiop', 'aaaaaaaaaa', 'humoshop'])(
      'refuses "%s" at sign-up in GoTrue\'s weak_password shape',
      async (weak) => {
        const { error } = await auth
          .client()
          .auth.signUp({ email: 'weak@example.com', password: weak })
        expect(error).toMatchObject({
          name: 'AuthWeakPasswordError',
          status: 422,
          code: 'weak_password',
        })
        expect(error!.message).toMatch(/at least 8 characters|known to be weak/)
      },
    )

    it('refuses the address itself, and more than 72 bytes; accepts a long passphrase', async () => {
      const client = auth.client()
      const own = await client.auth.signUp({
        email: 'shopper.name@example.com',
        password: 'shopper.name@example.com',
      })
      expect(own.error).toMatchObject({ code: 'weak_password', reasons: ['pwned'] })
      const long = await client.auth.signUp({ email: 'long@example.com', password: 'ä'.repeat(40) })
      expect(long.error).toMatchObject({ status: 400, code: 'validation_failed' })
      const ok = await client.auth.signUp({ email: 'passphrase@example.com', password })
      expect(ok.error).toBeNull()
    })

    it('refuses a weak new password at password change', async () => {
      const client = auth.client()
      await client.auth.signUp({ email: 'changer@example.com', password })
      await client.auth.signInWithPassword({ email: 'changer@example.com', password })
      const weak = await client.auth.updateUser({ password: '12345678' })
      expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' })
    })
  })

  describe('no account enumeration', () => {
    beforeAll(async () => {
      const { error } = await auth.client().auth.signUp({ email: 'known@example.com', password })
      expect(error).toBeNull()
      // An account without a password (made by an admin or invitation).
      await auth.db.query(
        `insert into auth.users (id, aud, role, email) values (gen_random_uuid(), 'authenticated',
         'authenticated', 'nopass@example.com')`,
      )
    })

    it('sign-in does the same bcrypt work and answers the same for unknown and known emails', async () => {
      const attempt = async (email: string) => {
        auth.hasher.reset()
        const response = await auth.send(
          '/token?grant_type=password',
          JSON.stringify({ email, password: 'not the password' }),
        )
        return {
          status: response.status,
          body: await response.text(),
          compares: auth.hasher.compares,
          hashes: auth.hasher.hashes,
        }
      }
      const unknown = await attempt('nobody@example.com')
      const known = await attempt('known@example.com')
      const noPassword = await attempt('nopass@example.com')
      expect(known).toEqual({
        status: 400,
        body: JSON.stringify({
          code: 400,
          error_code: 'invalid_credentials',
          msg: 'Invalid login credentials',
        }),
        compares: 1,
        hashes: 0,
      })
      expect(unknown).toEqual(known)
      expect(noPassword).toEqual(known)
    })

    it('sign-up of an existing address answers like a new one: same status, shape and work', async () => {
      const attempt = async (email: string) => {
        auth.hasher.reset()
        const response = await auth.send(
          '/signup',
          JSON.stringify({ email, password: 'another fine passphrase', data: { name: 'A' } }),
          { headers: { 'X-Supabase-Api-Version': '2024-01-01' } },
        )
        const body = (await response.json()) as Record<string, unknown>
        return {
          status: response.status,
          headers: [...response.headers.keys()].filter((h) => h !== 'date').sort(),
          shape: shape(body),
          work: [auth.hasher.hashes, auth.hasher.compares],
          body,
        }
      }
      const fresh = await attempt('brand.new@example.com')
      const existing = await attempt('known@example.com')
      const shouting = await attempt('KNOWN@Example.com')
      expect(fresh.status).toBe(200)
      expect(fresh.body).not.toHaveProperty('access_token')
      for (const other of [existing, shouting]) {
        expect(other.status).toBe(fresh.status)
        expect(other.headers).toEqual(fresh.headers)
        expect(other.work).toEqual(fresh.work)
        expect(other.shape).toEqual(fresh.shape)
      }
      expect(existing.body.email).toBe('known@example.com')
      // The existing account keeps its password: the second sign-up changed nothing.
      const first = await auth
        .client()
        .auth.signInWithPassword({ email: 'known@example.com', password })
      expect(first.error).toBeNull()
    })

    it('recover and resend answer the same for unknown and known emails', async () => {
      for (const path of ['/recover', '/resend']) {
        const answers = await Promise.all(
          ['nobody@example.com', 'known@example.com'].map(async (email) => {
            const response = await auth.send(path, JSON.stringify({ email, type: 'signup' }))
            return { status: response.status, body: await response.text() }
          }),
        )
        expect(answers[0]).toEqual({ status: 200, body: '{}' })
        expect(answers[1]).toEqual(answers[0])
      }
    })
  })

  describe('unproven addresses (no mail server)', () => {
    it('leaves a new account unconfirmed, yet lets it sign in to shop', async () => {
      const client = auth.client()
      const { data, error } = await client.auth.signUp({ email: 'shopper@example.com', password })
      expect(error).toBeNull()
      expect(data.session).toBeNull()
      const row = await auth.db.query<{ email_confirmed_at: Date | null }>(
        `select email_confirmed_at from auth.users where email = 'shopper@example.com'`,
      )
      expect(row.rows).toEqual([{ email_confirmed_at: null }])
      const signedIn = await client.auth.signInWithPassword({
        email: 'shopper@example.com',
        password,
      })
      expect(signedIn.error).toBeNull()
      expect(signedIn.data.user!.email_confirmed_at).toBeUndefined()
    })

    it('applies an email change unconfirmed, even for an account that had proven its address', async () => {
      const client = auth.client()
      await client.auth.signUp({ email: 'mover@example.com', password })
      await auth.db.query(
        `update auth.users set email_confirmed_at = now() where email = 'mover@example.com'`,
      )
      await client.auth.signInWithPassword({ email: 'mover@example.com', password })
      const moved = await client.auth.updateUser({ email: 'Boss@Example.com' })
      expect(moved.error).toBeNull()
      expect(moved.data.user).toMatchObject({ email: 'boss@example.com' })
      expect(moved.data.user!.email_confirmed_at).toBeUndefined()
      const row = await auth.db.query<{ email_confirmed_at: Date | null }>(
        `select email_confirmed_at from auth.users where email = 'boss@example.com'`,
      )
      expect(row.rows).toEqual([{ email_confirmed_at: null }])
      // Nor can the account say it is verified in its own metadata.
      const claimed = await client.auth.updateUser({ data: { email_verified: true } })
      expect(claimed.data.user!.user_metadata).toMatchObject({ email_verified: false })
    })

    it('has no link to follow: /verify with a made-up token is refused', async () => {
      const response = await fetch(
        `${auth.url}/auth/v1/verify?type=signup&token=made-up&apikey=${auth.anonKey}`,
        { redirect: 'manual' },
      )
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ error_code: 'otp_expired' })
    })
  })

  describe('hostile input gets a 4xx, never a 500', () => {
    // 200,000 levels (the probe) is over the auth body limit; 10,000 is under it.
    const deep = '['.repeat(200_000) + ']'.repeat(200_000)
    const deepButSmall = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)
    const cases: [string, string][] = [
      ['/signup', JSON.stringify({ email: ['a@example.com'], password })],
      ['/signup', JSON.stringify({ email: { $ne: null }, password })],
      ['/signup', JSON.stringify({ email: 'a@example.com', password: 12345678 })],
      ['/signup', JSON.stringify({ email: 'a@example.com', password: [password] })],
      ['/signup', JSON.stringify({ email: 'a@example.com', password, data: 'x' })],
      ['/signup', JSON.stringify({ email: 'a@example.com', password, data: [1] })],
      ['/signup', JSON.stringify({ email: 'a b@example.com', password })],
      ['/signup', JSON.stringify({ email: 'admin@example.com\u200b', password })],
      ['/signup', JSON.stringify({ email: 'аdmin@example.com', password })], // Cyrillic а
      ['/signup', JSON.stringify({ email: 'admin＠example.com', password })],
      ['/signup', JSON.stringify({ email: 'admin@example.com\n', password: '' })],
      ['/signup', JSON.stringify({ email: `${'a'.repeat(300)}@example.com`, password })],
      ['/signup', `{"email":"nul@example.com","password":"${password}","data":{"x":"\\u0000"}}`],
      ['/signup', `{"email":"nul@example.com","password":"${password}","data":{"\\u0000":1}}`],
      ['/signup', `{"email":"lone@example.com","password":"${password}","data":{"x":"\\ud800"}}`],
      [
        '/signup',
        JSON.stringify({
          email: 'fat@example.com',
          password,
          data: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i])),
        }),
      ],
      ['/signup', JSON.stringify({ password })],
      ['/signup', JSON.stringify({})],
      ['/signup', '[]'],
      ['/signup', '"text"'],
      ['/signup', 'null'],
      ['/signup', '{"email":'],
      ['/signup', deep],
      ['/signup', deepButSmall],
      [
        '/signup',
        JSON.stringify({
          email: 'a@example.com',
          password,
          data: { x: 'y'.repeat(10 * 1024 * 1024) },
        }),
      ],
      ['/token?grant_type=password', JSON.stringify({ email: 42, password })],
      ['/token?grant_type=password', JSON.stringify({ email: 'a@example.com', password: null })],
      ['/token?grant_type=password', JSON.stringify({ email: 'a@example.com', password: {} })],
      ['/token?grant_type=password', JSON.stringify({ email: 'a'.repeat(100_000), password })],
      ['/token?grant_type=password', deep],
      ['/token?grant_type=password', '{'.repeat(50)],
      ['/token?grant_type=refresh_token', JSON.stringify({ refresh_token: ['x'] })],
      ['/token?grant_type=refresh_token', JSON.stringify({})],
      ['/token?grant_type=nonsense', '{}'],
      ['/recover', JSON.stringify({ email: ['a@example.com'] })],
      ['/recover', JSON.stringify({ email: 'not an email' })],
      ['/recover', JSON.stringify({})],
      ['/recover', deep],
      ['/resend', JSON.stringify({ type: 'sms', email: 'a@example.com' })],
      ['/resend', JSON.stringify({ type: 'signup', email: null })],
      ['/verify', JSON.stringify({ type: 'signup', token_hash: 7 })],
      ['/verify', JSON.stringify({ type: 'magic', token_hash: 'x' })],
      ['/verify', JSON.stringify({ type: 'signup' })],
      ['/verify', JSON.stringify({ type: 'signup', token_hash: 'x'.repeat(10_000) })],
      ['/verify', deep],
    ]

    it.each(cases.map(([path, body]) => [path, body.slice(0, 60), body] as const))(
      '%s %s',
      async (path, _label, body) => {
        const response = await auth.send(path, body)
        expect(response.status).toBeGreaterThanOrEqual(400)
        expect(response.status).toBeLessThan(500)
        const answer = (await response.json()) as Record<string, unknown>
        expect(answer.msg).toEqual(expect.any(String))
      },
    )

    it('answers a deep body with 400 and a huge one with 413, and keeps serving', async () => {
      expect((await auth.send('/signup', deepButSmall)).status).toBe(400)
      expect((await auth.send('/token?grant_type=password', deepButSmall)).status).toBe(400)
      const huge = await auth.send(
        '/signup',
        JSON.stringify({ email: 'x'.repeat(10 * 1024 * 1024) }),
      )
      expect(huge.status).toBe(413)
      const health = await fetch(`${auth.url}/auth/v1/health`, {
        headers: { apikey: auth.anonKey },
      })
      expect(health.status).toBe(200)
    })

    it('refuses PUT /user bodies of the wrong types', async () => {
      const client = auth.client()
      await client.auth.signUp({ email: 'typed@example.com', password })
      const { data } = await client.auth.signInWithPassword({
        email: 'typed@example.com',
        password,
      })
      const token = data.session!.access_token
      for (const body of [
        { email: ['x@example.com'] },
        { email: 'bad address' },
        { password: 12345678 },
        { data: 'x' },
        { data: { note: 'nul \u0000 inside' } },
        { app_metadata: { role: 'admin' } },
      ]) {
        const response = await auth.send('/user', JSON.stringify(body), {
          method: 'PUT',
          headers: { Authorization: `Bearer ${token}` },
        })
        expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400)
        expect(response.status, JSON.stringify(body)).toBeLessThan(500)
      }
      // Metadata grows by merges, but not without end.
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) {
        const chunk = Object.fromEntries(Array.from({ length: 300 }, (_, k) => [`k${i}_${k}`, 'v']))
        const { error } = await client.auth.updateUser({ data: chunk })
        statuses.push(error?.status ?? 200)
      }
      expect(statuses).toContain(400)
      expect((await client.auth.getUser()).error).toBeNull()
    })
  })
})

describe('rate limits', () => {
  const withRules = async (overrides: Partial<RateLimitRules>) =>
    startAuthHarness({ limiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...overrides }) })

  const signIn = (auth: AuthHarness, email: string, pass: string) =>
    auth.send('/token?grant_type=password', JSON.stringify({ email, password: pass }))

  it("200 wrong passwords in a row get 429s with Retry-After in GoTrue's shape", async () => {
    const auth = await withRules({})
    try {
      await auth.client().auth.signUp({ email: 'victim@example.com', password })
      const statuses: number[] = []
      let refused: Response | null = null
      for (let i = 0; i < 200; i++) {
        const response = await signIn(auth, 'victim@example.com', `guess number ${i}`)
        statuses.push(response.status)
        if (response.status === 429) refused ??= response
        else await response.body?.cancel()
      }
      expect(statuses.slice(0, DEFAULT_RATE_LIMITS.sign_in_account.max)).toEqual(
        Array(DEFAULT_RATE_LIMITS.sign_in_account.max).fill(400),
      )
      expect(statuses.filter((s) => s === 429)).toHaveLength(
        200 - DEFAULT_RATE_LIMITS.sign_in_account.max,
      )
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await refused!.json()).toEqual({
        code: 429,
        error_code: 'over_request_rate_limit',
        msg: expect.stringMatching(
          /Too many failed sign-in attempts.*try again in \d+ minutes/,
        ) as string,
      })
      // Refused before any bcrypt work.
      auth.hasher.reset()
      await (await signIn(auth, 'victim@example.com', 'one more')).body?.cancel()
      expect(auth.hasher.compares).toBe(0)
    } finally {
      await auth.close()
    }
  })

  it('wrong passwords lock that account (even for its owner), not others; a success does not count', async () => {
    const auth = await withRules({ sign_in_ip: { max: 10_000, windowSeconds: 300 } })
    try {
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
        await auth.client().auth.signUp({ email, password })
      const max = DEFAULT_RATE_LIMITS.sign_in_account.max
      // Failures short of the limit, then a success, then as many again: never locked.
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < max - 1; i++)
          expect((await signIn(auth, 'c@example.com', 'wrong one')).status).toBe(400)
        expect((await signIn(auth, 'c@example.com', password)).status).toBe(200)
      }
      for (let i = 0; i < max; i++) await signIn(auth, 'a@example.com', 'wrong one')
      const locked = await signIn(auth, 'a@example.com', password)
      expect(locked.status).toBe(429)
      expect(locked.headers.get('retry-after')).toMatch(/^\d+$/)
      const upper = await signIn(auth, 'A@EXAMPLE.COM', password)
      expect(upper.status).toBe(429)
      expect((await signIn(auth, 'b@example.com', password)).status).toBe(200)
      // The lock is the same for an address with no account (no oracle).
      for (let i = 0; i < max; i++) await signIn(auth, 'ghost@example.com', 'wrong one')
      expect((await signIn(auth, 'ghost@example.com', 'wrong one')).status).toBe(429)
    } finally {
      await auth.close()
    }
  })

  it('counts parallel guesses before comparing, so a burst cannot outrun the account limit', async () => {
    const auth = await withRules({})
    try {
      await auth.client().auth.signUp({ email: 'burst@example.com', password })
      auth.hasher.reset()
      const statuses = await Promise.all(
        Array.from({ length: 25 }, async (_, i) => {
          const response = await signIn(auth, 'burst@example.com', `parallel guess ${i}`)
          await response.body?.cancel()
          return response.status
        }),
      )
      const { max } = DEFAULT_RATE_LIMITS.sign_in_account
      expect(statuses.filter((s) => s === 400)).toHaveLength(max)
      expect(statuses.filter((s) => s === 429)).toHaveLength(25 - max)
      expect(auth.hasher.compares).toBe(max)
    } finally {
      await auth.close()
    }
  })

  it('limits sign-ins and sign-ups per IP', async () => {
    const auth = await withRules({ sign_in_account: { max: 10_000, windowSeconds: 900 } })
    try {
      const { max } = DEFAULT_RATE_LIMITS.sign_in_ip
      for (let i = 0; i < max; i++)
        expect((await signIn(auth, `spray${i}@example.com`, 'Summer2024!')).status).toBe(400)
      expect((await signIn(auth, 'spray-last@example.com', 'Summer2024!')).status).toBe(429)

      const signUp = (i: number) =>
        auth.send('/signup', JSON.stringify({ email: `new${i}@example.com`, password }))
      for (let i = 0; i < DEFAULT_RATE_LIMITS.sign_up_ip.max; i++)
        expect((await signUp(i)).status).toBe(200)
      const refused = await signUp(999)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    } finally {
      await auth.close()
    }
  })

  it('limits recovery and resend per account and per IP', async () => {
    const auth = await withRules({})
    try {
      const recover = (email: string) => auth.send('/recover', JSON.stringify({ email }))
      const perAccount = DEFAULT_RATE_LIMITS.recover_account.max
      for (let i = 0; i < perAccount; i++) expect((await recover('a@example.com')).status).toBe(200)
      expect((await recover('a@example.com')).status).toBe(429)
      const resend = await auth.send(
        '/resend',
        JSON.stringify({ type: 'signup', email: 'a@example.com' }),
      )
      expect(resend.status).toBe(429)
      // Every request so far counted once against the IP, the refused ones too.
      for (let i = perAccount + 2; i < DEFAULT_RATE_LIMITS.recover_ip.max; i++)
        expect((await recover(`other${i}@example.com`)).status).toBe(200)
      const perIp = await recover('fresh@example.com')
      expect(perIp.status).toBe(429)
      expect(perIp.headers.get('retry-after')).toMatch(/^\d+$/)
    } finally {
      await auth.close()
    }
  })

  it('limits verification attempts per IP', async () => {
    const auth = await withRules({})
    try {
      const verify = () =>
        auth.send('/verify', JSON.stringify({ type: 'signup', token_hash: 'guess' }))
      for (let i = 0; i < DEFAULT_RATE_LIMITS.verify_ip.max; i++)
        expect((await verify()).status).toBe(403)
      expect((await verify()).status).toBe(429)
    } finally {
      await auth.close()
    }
  })
})
