/**
 * The back office's supabase-js client, with the admin's session (auth, storage, and RPCs and
 * realtime as the signed-in user). Only admin code imports it, so supabase-js's auth and storage
 * clients load with the admin's chunks and never on the storefront (docs/decisions/007-light-storefront-client.md).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { BackendConfig } from '../../data/backend-config'

let current: { key: string; client: SupabaseClient } | null = null

/** One client per backend for the whole tab: two would each refresh the same stored session. */
export function adminSupabase(config: BackendConfig): SupabaseClient {
  const key = `${config.supabaseUrl}\n${config.supabaseAnonKey}`
  if (current?.key !== key) {
    const client = createClient(config.supabaseUrl, config.supabaseAnonKey, {
      auth: { persistSession: true, autoRefreshToken: true, storageKey: 'humo.auth' },
    })
    current = { key, client }
  }
  return current.client
}
