// admin_exists() tells the login page whether the first-admin link can still work;
// admin_grant_by_email() lets an admin make another existing account an admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, startRulesBackend, type RulesBackend } from './rules-backend'

let backend: RulesBackend
beforeAll(async () => {
  backend = await startRulesBackend()
})
afterAll(async () => {
  await backend?.close()
})

const roleOf = async (userId: string) =>
  (
    await backend.db.query<{ role: string }>(
      'select role from public.user_profiles where user_id = $1',
      [userId],
    )
  ).rows[0]?.role ?? null

describe('admin helpers', () => {
  it('says whether an admin exists, to anyone', async () => {
    const before = await backend.anon.rpc('admin_exists')
    expect(before.error).toBeNull()
    expect(before.data).toBe(false)
    await createUser(backend, { admin: true, email: 'owner@humo.test' })
    expect((await backend.anon.rpc('admin_exists')).data).toBe(true)
  })

  it('lets an admin grant the admin role by email, and nobody else', async () => {
    const owner = await createUser(backend, { admin: true, email: 'boss@humo.test' })
    const clerk = await createUser(backend, { email: 'Clerk@Humo.test' })
    const outsider = await createUser(backend, { email: 'outsider@humo.test' })

    const refused = await outsider.client.rpc('admin_grant_by_email', {
      p_email: 'clerk@humo.test',
    })
    expect(refused.error?.code).toBe('42501')
    expect(await roleOf(clerk.id)).toBeNull()

    const granted = await owner.client.rpc('admin_grant_by_email', { p_email: ' clerk@humo.test ' })
    expect(granted.error).toBeNull()
    expect(granted.data).toMatchObject({ userId: clerk.id })
    expect(await roleOf(clerk.id)).toBe('admin')

    const unknown = await owner.client.rpc('admin_grant_by_email', { p_email: 'nobody@humo.test' })
    expect(unknown.error?.message).toBe(
      'No account with the email nobody@humo.test; ask them to create one first',
    )
  })
})
