// Staff invitations (issue 23, docs/decisions/025-setup-code-and-invitations.md): an admin creates a one-time code valid 7 days
// and hands it over; whoever signs in with it joins the staff, whether or not their email is
// confirmed. Used, expired, revoked and unknown codes are refused with their own message, and a
// code guesser runs out of attempts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createUser,
  rpc,
  startRulesBackend,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

type Invitation = {
  id: string
  note: string
  createdAt: string
  expiresAt: string
  createdBy: string | null
  code?: string
}
type Accepted = { joined: boolean; reason?: string; message?: string }

let backend: RulesBackend
let owner: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  owner = await createUser(backend, { admin: true, email: 'owner@humo.test' })
})
afterAll(async () => {
  await backend?.close()
})

const roleOf = async (userId: string) =>
  (
    await backend.db.query<{ role: string }>(
      'select role from public.user_profiles where user_id = $1 and not _deleted',
      [userId],
    )
  ).rows[0]?.role ?? null

/** A new account nobody has confirmed: what anyone can make with any address. */
async function newcomer(): Promise<TestUser> {
  const user = await createUser(backend)
  await backend.db.query('update auth.users set email_confirmed_at = null where id = $1', [user.id])
  return user
}

async function invite(note = ''): Promise<Invitation & { code: string }> {
  const created = await rpc<Invitation & { code: string }>(
    owner.client,
    'admin_create_staff_invitation',
    { p_note: note },
  )
  if (created.error) throw new Error(created.error.message)
  return created.data!
}

const pending = async () =>
  (await rpc<Invitation[]>(owner.client, 'admin_staff_invitations')).data ?? []

describe('staff invitations', () => {
  it('only admins create, list and revoke them', async () => {
    const outsider = await createUser(backend)
    for (const [fn, args] of [
      ['admin_create_staff_invitation', { p_note: 'me' }],
      ['admin_staff_invitations', {}],
      ['admin_revoke_staff_invitation', { p_id: '00000000-0000-4000-8000-000000000000' }],
    ] as const) {
      expect((await outsider.client.rpc(fn, args)).error?.code).toBe('42501')
      expect((await backend.anon.rpc(fn, args)).error).not.toBeNull()
    }
    expect(
      (await backend.anon.rpc('accept_staff_invitation', { p_code: 'x' })).error,
    ).not.toBeNull()
  })

  it('an invited newcomer joins the staff once; the code is kept only as a hash', async () => {
    const before = Date.now()
    const invitation = await invite('Sam, weekend shifts')
    expect(invitation.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/)
    expect(invitation).toMatchObject({ note: 'Sam, weekend shifts', createdBy: 'owner@humo.test' })
    const days = (Date.parse(invitation.expiresAt) - before) / 86_400_000
    expect(days).toBeGreaterThan(6.99)
    expect(days).toBeLessThan(7.01)

    const listed = await pending()
    expect(listed.map((i) => i.id)).toContain(invitation.id)
    expect(JSON.stringify(listed)).not.toContain(invitation.code)
    const stored = await backend.db.query<{ code_hash: string }>(
      'select code_hash from private.staff_invitations where id = $1',
      [invitation.id],
    )
    expect(stored.rows[0]!.code_hash).not.toContain(invitation.code.replace(/-/g, ''))
    const viaApi = await owner.client.schema('private').from('staff_invitations').select('*')
    expect(viaApi.error).not.toBeNull()

    const sam = await newcomer()
    const joined = await rpc<Accepted>(sam.client, 'accept_staff_invitation', {
      p_code: ` ${invitation.code.toLowerCase()} `,
    })
    // An invitation made without a role is a budtender's (issue 32).
    expect(joined).toEqual({ data: { joined: true, role: 'budtender' }, error: null })
    expect(await roleOf(sam.id)).toBe('budtender')
    // Adding Sam again (by email or id) is no error, though the address is still unproven.
    const byEmail = await owner.client.rpc('admin_grant_by_email', { p_email: sam.email })
    expect(byEmail.error).toBeNull()
    const byId = await owner.client
      .from('user_profiles')
      .upsert({ user_id: sam.id, role: 'budtender', _deleted: false }, { onConflict: 'user_id' })
    expect(byId.error).toBeNull()
    expect((await pending()).map((i) => i.id)).not.toContain(invitation.id)

    const other = await newcomer()
    const reused = await rpc<Accepted>(other.client, 'accept_staff_invitation', {
      p_code: invitation.code,
    })
    expect(reused.data).toEqual({
      joined: false,
      reason: 'used',
      message: 'That invitation has already been used. Ask an admin for a new one.',
    })
    expect(await roleOf(other.id)).toBeNull()
  })

  it('an admin following an invitation link does not spend it', async () => {
    const invitation = await invite()
    const answer = await rpc<Accepted>(owner.client, 'accept_staff_invitation', {
      p_code: invitation.code,
    })
    expect(answer.data).toEqual({ joined: true, role: 'owner' })
    expect((await pending()).map((i) => i.id)).toContain(invitation.id)
  })

  it('refuses expired, revoked and unknown codes with their own messages', async () => {
    const expired = await invite('late')
    await backend.db.query(
      `update private.staff_invitations set expires_at = now() - interval '1 second' where id = $1`,
      [expired.id],
    )
    const revoked = await invite('changed my mind')
    const revoke = await owner.client.rpc('admin_revoke_staff_invitation', { p_id: revoked.id })
    expect(revoke.error).toBeNull()
    expect((await pending()).map((i) => i.id)).not.toEqual(
      expect.arrayContaining([expired.id, revoked.id]),
    )
    const again = await owner.client.rpc('admin_revoke_staff_invitation', { p_id: revoked.id })
    expect(again.error?.message).toBe(
      'That invitation is no longer pending (used, revoked or unknown)',
    )

    const someone = await newcomer()
    const answers = []
    for (const code of [expired.code, revoked.code, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ'])
      answers.push(
        (await rpc<Accepted>(someone.client, 'accept_staff_invitation', { p_code: code })).data,
      )
    expect(answers).toEqual([
      {
        joined: false,
        reason: 'expired',
        message: 'That invitation has expired. Ask an admin for a new one.',
      },
      {
        joined: false,
        reason: 'revoked',
        message: 'That invitation was withdrawn. Ask an admin for a new one.',
      },
      {
        joined: false,
        reason: 'unknown',
        message:
          'That invitation code is not right. Check it against the one you were given, or ask an admin for a new invitation.',
      },
    ])
    expect(await roleOf(someone.id)).toBeNull()
    const empty = await someone.client.rpc('accept_staff_invitation', { p_code: ' - ' })
    expect(empty.error).toMatchObject({ code: '22023' })
  })

  it('refuses a code guesser with 429, even with a real code', async () => {
    const real = await invite('for the guesser')
    const guesser = await newcomer()
    for (let i = 0; i < 5; i++)
      await guesser.client.rpc('accept_staff_invitation', { p_code: `GUES-S000-0000-000${i}` })
    const limited = await guesser.client.rpc('accept_staff_invitation', { p_code: real.code })
    expect(limited.status).toBe(429)
    expect(limited.error?.code).toBe('PT429')
    expect(await roleOf(guesser.id)).toBeNull()
  })
})
