// The membership waitlist (issue 33, docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): a shopper joins through
// join_membership_waitlist with an email and explicit consent, whose words and time are stored;
// a second join is a friendly answer, not an error; only owners and managers read the list; a
// confirmation email is queued and sent when the shop has a mail server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHumoBackend, type HumoBackend } from '../../../supabase/local/server'
import {
  startSmtpTestServer,
  type SmtpTestServer,
} from '../../../supabase/local/mail/smtp-test-server'
import { TEST_RATE_LIMITS } from '../../fixtures/backend'
import { WAITLIST_CONSENT_TEXT } from '../../../src/features/content/membership-waitlist'
import { clientFor, createUser, startRulesBackend, type RulesBackend } from './rules-backend'

let backend: RulesBackend

beforeAll(async () => {
  backend = await startRulesBackend()
})
afterAll(async () => {
  await backend?.close()
})

const join = (client: RulesBackend['anon'], p: Record<string, unknown>) =>
  client.rpc('join_membership_waitlist', {
    p: { consent: true, consentText: WAITLIST_CONSENT_TEXT, ...p },
  })

type Entry = { email: string; consentText: string; consentedAt: string; confirmationEmail: string }

async function list(b: HumoBackend): Promise<Entry[]> {
  const owner = await createUser(b, { role: 'owner' })
  const answer = await owner.client.rpc('admin_membership_waitlist')
  expect(answer.error).toBeNull()
  return answer.data as Entry[]
}

describe('join_membership_waitlist', () => {
  it('stores the email with the consent it was given, and when', async () => {
    const before = Date.now()
    const answer = await join(backend.anon, { email: '  Ada@Example.com ' })
    expect(answer.error).toBeNull()
    // No mail server here: nothing is promised.
    expect(answer.data).toEqual({ joined: true, confirmationEmail: false })
    const entry = (await list(backend)).find((e) => e.email === 'ada@example.com')
    expect(entry?.consentText).toBe(WAITLIST_CONSENT_TEXT)
    expect(Date.parse(entry!.consentedAt)).toBeGreaterThanOrEqual(before - 5_000)
    expect(entry?.confirmationEmail).toBe('not sent')
  })

  it('answers a second join of the same email kindly, and keeps one entry', async () => {
    expect((await join(backend.anon, { email: 'grace@example.com' })).data).toMatchObject({
      joined: true,
    })
    const again = await join(backend.anon, { email: 'GRACE@example.com' })
    expect(again.error).toBeNull()
    expect(again.data).toEqual({ joined: false, confirmationEmail: false })
    expect((await list(backend)).filter((e) => e.email === 'grace@example.com')).toHaveLength(1)
  })

  it.each([
    ['no email', { email: '' }, 'Email is required'],
    ['a bad email', { email: 'ada-at-example' }, 'Email must be a valid email address'],
    ['a long email', { email: `${'a'.repeat(260)}@example.com` }, 'Email'],
    ['no consent', { email: 'no-consent@example.com', consent: false }, 'Tick the box'],
    ['consent as text', { email: 'text@example.com', consent: 'yes' }, 'Tick the box'],
    ['consent missing', { email: 'missing@example.com', consent: undefined }, 'Tick the box'],
    ['other words', { email: 'words@example.com', consentText: 'I agree to anything' }, 'consent'],
  ])('refuses %s with a 4xx and stores nothing', async (_name, p, message) => {
    const answer = await join(backend.anon, p)
    expect(answer.error?.message).toContain(message)
    expect(answer.status).toBe(400)
    const emails = (await list(backend)).map((e) => e.email)
    expect(emails).not.toContain((p.email ?? '').toLowerCase())
  })

  it('lets only owners and managers read the list', async () => {
    await join(backend.anon, { email: 'listed@example.com' })
    const anon = await backend.anon.rpc('admin_membership_waitlist')
    expect(anon.error?.code).toBe('42501')
    for (const role of ['budtender', 'driver'] as const) {
      const staff = await createUser(backend, { role })
      const answer = await staff.client.rpc('admin_membership_waitlist')
      expect(answer.error?.message).toBe(
        'Only an owner or a manager can see the membership waitlist.',
      )
    }
    const manager = await createUser(backend, { role: 'manager' })
    const answer = await manager.client.rpc('admin_membership_waitlist')
    expect((answer.data as Entry[]).map((e) => e.email)).toContain('listed@example.com')
  })

  it('limits joins per email like the contact form', async () => {
    const email = 'busy@example.com'
    for (let i = 0; i < 3; i++) expect((await join(backend.anon, { email })).error).toBeNull()
    const refused = await join(backend.anon, { email })
    expect(refused.status).toBe(429)
    expect(refused.error?.message).toMatch(/^Too many waitlist requests for this email/)
  })
})

describe('the confirmation email', () => {
  let smtp: SmtpTestServer
  let mailing: HumoBackend

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    mailing = await startHumoBackend({
      port: 0,
      dataDir: null,
      staticDir: null,
      quiet: true,
      rateLimits: TEST_RATE_LIMITS,
      mail: { smtpUrl: smtp.url, publicUrl: 'https://humo.example', retryBaseMs: 100 },
    })
  })
  afterAll(async () => {
    await mailing?.close()
    await smtp?.stop()
  })

  it('is sent once when the shop has a mail server, saying the membership has not started', async () => {
    const anon = clientFor(mailing)
    const answer = await join(anon, { email: 'lin@example.com' })
    expect(answer.data).toEqual({ joined: true, confirmationEmail: true })
    const [email] = await smtp.waitFor(1, 10_000)
    expect(email!.to).toEqual(['lin@example.com'])
    expect(email!.subject).toMatch(/membership waitlist/)
    expect(email!.text).toContain('The membership has not started yet.')
    expect(email!.text.replace(/\s+/g, ' ')).toContain(WAITLIST_CONSENT_TEXT)
    // A second join sends nothing more.
    expect((await join(anon, { email: 'lin@example.com' })).data).toMatchObject({ joined: false })
    await expect.poll(async () => (await list(mailing))[0]?.confirmationEmail).toBe('sent')
    expect(smtp.received).toHaveLength(1)
  })
})
