// Helpers for the stand-in's contract tests: real supabase-js clients (with ws as the realtime
// transport, since Node 20 has no global WebSocket) and users made through the real auth API —
// an admin is a signed-up user given a user_profiles row by the service role, as SPEC.md §7 does.
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import type { Database } from './rest/api-types.ts'
import type { HumoBackend } from './server.ts'

export type Client = SupabaseClient<Database>

export function clientFor(backend: HumoBackend, key: string): Client {
  return createClient<Database>(backend.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  })
}

let users = 0

/** Signs up a fresh user and returns a client signed in as them. */
export async function signedInUser(
  backend: HumoBackend,
  role: 'owner' | 'manager' | 'budtender' | 'driver' | 'customer' | null = null,
): Promise<{ client: Client; userId: string; email: string; password: string }> {
  const client = clientFor(backend, backend.anonKey)
  const email = `user${++users}-${Date.now()}@example.com`
  const password = 'correct horse battery'
  const { data, error } = await client.auth.signUp({ email, password })
  if (error || !data.user) throw error ?? new Error('sign-up returned no user')
  // Sign-up answers no session (docs/decisions/024-proven-addresses.md): the app signs in next, and so do tests.
  const signIn = await client.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  if (role) {
    const service = clientFor(backend, backend.serviceRoleKey)
    const profile = await service.from('user_profiles').insert({ user_id: data.user.id, role })
    if (profile.error) throw new Error(profile.error.message)
  }
  return { client, userId: data.user.id, email, password }
}

/** Resolves when `predicate` holds, polling every 10 ms, or rejects after `ms`. */
export async function waitFor(predicate: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now()
  while (!predicate()) {
    if (Date.now() - started > ms) throw new Error(`condition not met within ${ms} ms`)
    await new Promise((done) => setTimeout(done, 10))
  }
}
