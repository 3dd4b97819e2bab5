// admin_exists() tells the login page whether the first-admin link can still work;
// admin_grant_by_email() lets an admin make another existing account an admin, only one that
// proved its email address (issue 23): anyone can register any address, so an unconfirmed one
// is refused with a pointer to invitations; so is an admin role written by account id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, startRulesBackend, type RulesBackend } from './rules-backend'

let backend: RulesBackend
beforeAll(async () => {
  backend = await startRulesBackend()
})
afterAll(async () => {
  await backend?.close()
})

const unconfirm = (userId: string) =>
  backend.db.query('update auth.users set email_confirmed_at = null where id = $1', [userId])

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
    // Without a role, a newcomer is a budtender (issue 32); the owner may name another.
    expect(granted.data).toMatchObject({ userId: clerk.id, role: 'budtender' })
    expect(await roleOf(clerk.id)).toBe('budtender')
    const manager = await owner.client.rpc('admin_grant_by_email', {
      p_email: 'clerk@humo.test',
      p_role: 'manager',
    })
    expect(manager.error).toBeNull()
    expect(await roleOf(clerk.id)).toBe('manager')
    const badRole = await owner.client.rpc('admin_grant_by_email', {
      p_email: 'clerk@humo.test',
      p_role: 'admin',
    })
    expect(badRole.error?.code).toBe('22023')

    const unknown = await owner.client.rpc('admin_grant_by_email', { p_email: 'nobody@humo.test' })
    expect(unknown.error?.message).toBe(
      'No account with the email nobody@humo.test; ask them to create one first',
    )
  })

  it('refuses an account that has not confirmed its email, saying to invite them instead', async () => {
    const owner = await createUser(backend, { admin: true, email: 'chief@humo.test' })
    // Whoever registered the address first; nobody proved they own it.
    const squatter = await createUser(backend, { email: 'new.clerk@humo.test' })
    await unconfirm(squatter.id)

    const byEmail = await owner.client.rpc('admin_grant_by_email', {
      p_email: 'new.clerk@humo.test',
    })
    expect(byEmail.error?.message).toBe(
      'The account new.clerk@humo.test has not confirmed its email address, so it cannot be made staff by email. Invite them instead: create a staff invitation and hand them its code or link.',
    )
    expect(await roleOf(squatter.id)).toBeNull()

    // Nor by account id, the other way Admin Settings grants the role.
    const byId = await owner.client
      .from('user_profiles')
      .upsert({ user_id: squatter.id, role: 'budtender' }, { onConflict: 'user_id' })
    expect(byId.error?.code).toBe('42501')
    expect(byId.error?.message).toMatch(/has not confirmed its email address.*Invite them instead/)
    expect(await roleOf(squatter.id)).toBeNull()

    // A customer profile is still fine, and a confirmed account can be made an admin by id.
    const customer = await owner.client
      .from('user_profiles')
      .insert({ user_id: squatter.id, role: 'customer' })
    expect(customer.error).toBeNull()
    const promote = await owner.client
      .from('user_profiles')
      .update({ role: 'owner' })
      .eq('user_id', squatter.id)
    expect(promote.error?.code).toBe('42501')
    const confirmed = await createUser(backend, { email: 'proven@humo.test' })
    const proven = await owner.client
      .from('user_profiles')
      .insert({ user_id: confirmed.id, role: 'manager' })
    expect(proven.error).toBeNull()
    expect(await roleOf(confirmed.id)).toBe('manager')
  })
})
