// @vitest-environment node
// Issue 23, finding 1 (the auth side) with a mail server: an address is proven only by following
// the link emailed to it. Sign-up and email change stay unconfirmed (the change pending) until
// then; the link confirms once, signs in and redirects only to the shop's own origin; a stranger
// who signed an address up first loses to its owner; recover and a change to a taken address
// reveal nothing. The mail server is a real SMTP server (smtp-test-server.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor } from '../contract-testing.ts'
import { startSmtpTestServer, type SmtpTestServer } from '../mail/smtp-test-server.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

let backend: HumoBackend
let smtp: SmtpTestServer

beforeAll(async () => {
  smtp = await startSmtpTestServer()
  backend = await startHumoBackend({
    dataDir: null,
    port: 0,
    quiet: true,
    seed: false,
    rateLimits: null,
    mail: { smtpUrl: smtp.url },
  })
}, 60_000)

afterAll(async () => {
  await backend?.close()
  await smtp?.stop()
})

const password = 'correct horse battery'

/** The newest email to `to` with `subject`, waiting for it to arrive. */
async function mailTo(to: string, subject: RegExp, count = 1): Promise<string> {
  const started = Date.now()
  for (;;) {
    const found = smtp.received.filter((m) => m.to.includes(to) && subject.test(m.subject))
    if (found.length >= count) {
      const link = /(http:\/\/\S+\/auth\/v1\/verify\?[^\s"<>]+)/.exec(found.at(-1)!.text)
      if (!link) throw new Error(`no link in: ${found.at(-1)!.text}`)
      return link[1]!
    }
    if (Date.now() - started > 10_000) throw new Error(`no email to ${to} about ${subject}`)
    await new Promise((done) => setTimeout(done, 20))
  }
}

async function confirmedAt(email: string): Promise<Date | null | undefined> {
  const { rows } = await backend.db.query<{ email_confirmed_at: Date | null }>(
    'select email_confirmed_at from auth.users where lower(email) = $1',
    [email],
  )
  return rows[0]?.email_confirmed_at
}

/** Follows a link like a browser's first hop; returns where it sends the browser. */
async function follow(link: string): Promise<{ status: number; location: URL }> {
  const response = await fetch(link, { redirect: 'manual' })
  return { status: response.status, location: new URL(response.headers.get('location') ?? '') }
}

const fragment = (location: URL) => new URLSearchParams(location.hash.slice(1))

describe('sign-up', () => {
  it('stays unconfirmed, without a session, until the emailed link is followed', async () => {
    const client = clientFor(backend, backend.anonKey)
    const { data, error } = await client.auth.signUp({
      email: 'Owner@Example.com',
      password,
      options: { emailRedirectTo: `${backend.url}/admin` },
    })
    expect(error).toBeNull()
    expect(data.session).toBeNull()
    expect(await confirmedAt('owner@example.com')).toBeNull()
    const early = await client.auth.signInWithPassword({ email: 'owner@example.com', password })
    expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed' })

    const link = await mailTo('owner@example.com', /Confirm your email/)
    expect(link.startsWith(`${backend.url}/auth/v1/verify?`)).toBe(true)
    const { status, location } = await follow(link)
    expect(status).toBe(303)
    expect(`${location.origin}${location.pathname}`).toBe(`${backend.url}/admin`)
    expect(fragment(location).get('type')).toBe('signup')
    const accessToken = fragment(location).get('access_token')!
    const user = await client.auth.getUser(accessToken)
    expect(user.data.user).toMatchObject({ email: 'owner@example.com' })
    expect(user.data.user!.email_confirmed_at).toEqual(expect.any(String))
    expect(await confirmedAt('owner@example.com')).toBeInstanceOf(Date)

    const signedIn = await client.auth.signInWithPassword({ email: 'owner@example.com', password })
    expect(signedIn.error).toBeNull()

    // A link works once.
    const again = await follow(link)
    expect(fragment(again.location).get('error_code')).toBe('otp_expired')
  })

  it('answers a sign-up of an existing address like a new one, and sends a confirmed one nothing', async () => {
    const client = clientFor(backend, backend.anonKey)
    const before = smtp.received.length
    const existing = await client.auth.signUp({
      email: 'owner@example.com',
      password: 'x' + password,
    })
    const fresh = await client.auth.signUp({ email: 'fresh@example.com', password })
    expect(existing.error).toBeNull()
    expect(existing.data.session).toBeNull()
    expect(Object.keys(existing.data.user!).sort()).toEqual(Object.keys(fresh.data.user!).sort())
    await mailTo('fresh@example.com', /Confirm your email/)
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([['fresh@example.com']])
  })

  it('never redirects a followed link to another site', async () => {
    const client = clientFor(backend, backend.anonKey)
    await client.auth.signUp({
      email: 'redirect@example.com',
      password,
      options: { emailRedirectTo: 'https://evil.example/steal' },
    })
    const { location } = await follow(await mailTo('redirect@example.com', /Confirm/))
    expect(location.origin).toBe(backend.url)
    expect(fragment(location).get('access_token')).toEqual(expect.any(String))
  })

  it.each([
    ['a stranger signed the address up first', 'stranger', 2],
    ['a stranger signed it up right after its owner', 'owner', 1],
  ] as const)(
    "gives the account to the address's owner, following their own link, when %s",
    async (_case, first, ownLink) => {
      const address = `${first}-first@example.com`
      const stranger = clientFor(backend, backend.anonKey)
      const owner = clientFor(backend, backend.anonKey)
      const signUps = {
        stranger: () => stranger.auth.signUp({ email: address, password: 'stranger secret 1' }),
        owner: () => owner.auth.signUp({ email: address, password: 'owner secret 22' }),
      }
      await signUps[first]()
      await mailTo(address, /Confirm/)
      await signUps[first === 'owner' ? 'stranger' : 'owner']()
      await mailTo(address, /Confirm/, 2)
      const links = smtp.received
        .filter((m) => m.to.includes(address))
        .map((m) => /(http:\/\/\S+\/auth\/v1\/verify\?[^\s"<>]+)/.exec(m.text)![1]!)
      const { location } = await follow(links[ownLink - 1]!)
      expect(fragment(location).get('access_token')).toEqual(expect.any(String))
      expect(await confirmedAt(address)).toBeInstanceOf(Date)
      const ownerIn = await owner.auth.signInWithPassword({
        email: address,
        password: 'owner secret 22',
      })
      expect(ownerIn.error).toBeNull()
      const strangerIn = await stranger.auth.signInWithPassword({
        email: address,
        password: 'stranger secret 1',
      })
      expect(strangerIn.error).toMatchObject({ code: 'invalid_credentials' })
      // The other sign-up's link is void once the address is proven.
      const other = await follow(links[2 - ownLink]!)
      expect(fragment(other.location).get('error_code')).toBe('otp_expired')
    },
  )

  it('resends a link and confirms through POST /verify too; then no link works', async () => {
    const client = clientFor(backend, backend.anonKey)
    await client.auth.signUp({ email: 'late@example.com', password })
    const first = await mailTo('late@example.com', /Confirm/)
    const resent = await client.auth.resend({ type: 'signup', email: 'late@example.com' })
    expect(resent.error).toBeNull()
    const second = await mailTo('late@example.com', /Confirm/, 2)
    expect(second).not.toBe(first)
    const verified = await client.auth.verifyOtp({
      type: 'signup',
      token_hash: new URL(second).searchParams.get('token')!,
    })
    expect(verified.error).toBeNull()
    expect(verified.data.session).toMatchObject({ token_type: 'bearer' })
    expect(await confirmedAt('late@example.com')).toBeInstanceOf(Date)
    expect(fragment((await follow(first)).location).get('error_code')).toBe('otp_expired')
    const signedIn = await client.auth.signInWithPassword({ email: 'late@example.com', password })
    expect(signedIn.error).toBeNull()
  })
})

describe('email change', () => {
  it('stays pending until the link sent to the new address is followed', async () => {
    const client = clientFor(backend, backend.anonKey)
    await client.auth.signUp({ email: 'mover@example.com', password })
    await follow(await mailTo('mover@example.com', /Confirm your email/))
    await client.auth.signInWithPassword({ email: 'mover@example.com', password })

    const changed = await client.auth.updateUser({ email: 'Boss@Example.com' })
    expect(changed.error).toBeNull()
    expect(changed.data.user).toMatchObject({
      email: 'mover@example.com',
      new_email: 'boss@example.com',
    })
    expect(await confirmedAt('boss@example.com')).toBeUndefined()
    expect((await client.auth.getUser()).data.user!.email).toBe('mover@example.com')

    const { location } = await follow(await mailTo('boss@example.com', /new email/))
    expect(fragment(location).get('type')).toBe('email_change')
    const user = (await client.auth.getUser()).data.user!
    expect(user.email).toBe('boss@example.com')
    expect(user.new_email).toBeUndefined()
    expect(await confirmedAt('boss@example.com')).toBeInstanceOf(Date)
  })

  it('answers a change to a taken address like any other, and emails no one', async () => {
    const client = clientFor(backend, backend.anonKey)
    await client.auth.signUp({ email: 'curious@example.com', password })
    await follow(await mailTo('curious@example.com', /Confirm your email/))
    await client.auth.signInWithPassword({ email: 'curious@example.com', password })
    const before = smtp.received.length
    const taken = await client.auth.updateUser({ email: 'owner@example.com' })
    const free = await client.auth.updateUser({ email: 'nobody-yet@example.com' })
    expect(taken.error).toBeNull()
    expect(free.error).toBeNull()
    expect(Object.keys(taken.data.user!).sort()).toEqual(Object.keys(free.data.user!).sort())
    await mailTo('nobody-yet@example.com', /new email/)
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([['nobody-yet@example.com']])
  })
})

describe('password recovery', () => {
  it('answers the same for any address, mails a link only to an account, and the link signs in', async () => {
    const client = clientFor(backend, backend.anonKey)
    const before = smtp.received.length
    const known = await client.auth.resetPasswordForEmail('owner@example.com')
    const unknown = await client.auth.resetPasswordForEmail('stranger@example.com')
    expect(known).toEqual(unknown)
    expect(known.error).toBeNull()
    const link = await mailTo('owner@example.com', /Reset your password/)
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([['owner@example.com']])
    const { location } = await follow(link)
    expect(fragment(location).get('type')).toBe('recovery')
    const session = fragment(location).get('access_token')!
    const user = await client.auth.getUser(session)
    expect(user.data.user!.email).toBe('owner@example.com')
  })
})
