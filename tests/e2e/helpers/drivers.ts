import { randomUUID } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import { adminClient, nodeClient } from './admin'

export type DriverAccount = {
  id: string
  email: string
  password: string
  firstName: string | null
  client: SupabaseClient
}

/**
 * A staff member with the Driver role (issue 32, decision 055), as an owner invites one and they
 * join: the owner creates a Driver invitation, the new account accepts its code, and (unless
 * `firstName` is null) says the first name their delivery receipts show.
 */
export async function createDriver(
  baseURL: string,
  firstName: string | null = 'Marta',
): Promise<DriverAccount> {
  const owner = await adminClient(baseURL)
  const invited = await owner.rpc('admin_create_staff_invitation', {
    p_note: firstName ?? 'driver',
    p_role: 'driver',
  })
  if (invited.error) throw invited.error
  const code = (invited.data as { code: string }).code
  const email = `driver-${randomUUID().slice(0, 8)}@humo.test`
  const password = 'driver-pass-4242'
  const client = await nodeClient(baseURL)
  const signedUp = await client.auth.signUp({ email, password })
  if (signedUp.error) throw signedUp.error
  const signedIn = await client.auth.signInWithPassword({ email, password })
  if (signedIn.error) throw signedIn.error
  const accepted = await client.rpc('accept_staff_invitation', { p_code: code })
  if (accepted.error) throw accepted.error
  if (firstName) {
    const named = await client.rpc('set_my_first_name', { p_first_name: firstName })
    if (named.error) throw named.error
  }
  return { id: signedIn.data.user.id, email, password, firstName, client }
}

let shared: Promise<DriverAccount> | null = null

/** One driver with a first name that specs which only need "a driver" share. */
export function sharedDriver(baseURL: string): Promise<DriverAccount> {
  shared ??= createDriver(baseURL, 'Rudy').catch((error: unknown) => {
    shared = null
    throw error
  })
  return shared
}

/** A tiny valid PNG (1×1), as a signature the server accepts (it checks the PNG header). */
export const TEST_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
