/**
 * The storefront's client for the backend (decision 007). Shoppers never sign in, so it is built
 * from PostgREST (RPCs, tables) and Realtime (change feeds) alone and always speaks as `anon`:
 * the auth and storage clients of supabase-js stay out of the storefront's load. The back office
 * makes its own full, signed-in supabase-js client (src/features/admin/admin-client.ts), which
 * satisfies the same `BackendClient` shape for the admin replications.
 */
import { PostgrestClient, type PostgrestError } from '@supabase/postgrest-js'
import { RealtimeClient, type RealtimeChannel } from '@supabase/realtime-js'
import type { BackendConfig } from './backend-config'

/** An RPC's answer; the data is left to each caller to check, as PostgREST sends any JSON. */
export type RpcAnswer = { data: unknown; error: PostgrestError | null }

/** What the replication and the outboxes need from a client: RPCs and realtime channels. */
export interface BackendClient {
  rpc(fn: string, args?: Record<string, unknown>): PromiseLike<RpcAnswer>
  channel(name: string): RealtimeChannel
  removeChannel(channel: RealtimeChannel): Promise<unknown>
}

export function createBackendClient(config: BackendConfig): BackendClient {
  const base = config.supabaseUrl.replace(/\/+$/, '')
  const key = config.supabaseAnonKey
  // The headers supabase-js sends when nobody is signed in: the anon key as key and bearer.
  const rest = new PostgrestClient(`${base}/rest/v1`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  })
  const realtime = new RealtimeClient(`${base.replace(/^http/, 'ws')}/realtime/v1`, {
    params: { apikey: key },
    accessToken: () => Promise.resolve(key),
  })
  return {
    rpc: (fn, args) => rest.rpc(fn, args),
    channel: (name) => realtime.channel(name, { config: {} }),
    removeChannel: (channel) => realtime.removeChannel(channel),
  }
}
