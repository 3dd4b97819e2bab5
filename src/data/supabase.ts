/**
 * The one Supabase client of the app. Every call to the backend goes through it, whether the
 * backend is hosted Supabase or the embedded stand-in.
 */
import { createClient } from '@supabase/supabase-js'
import type { BackendConfig } from './backend-config'

export function createSupabase(config: BackendConfig) {
  return createClient(config.supabaseUrl, config.supabaseAnonKey, {
    auth: { persistSession: true, autoRefreshToken: true, storageKey: 'humo.auth' },
  })
}
