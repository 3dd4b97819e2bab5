/**
 * The storefront's clients for the backend (docs/decisions/007-light-storefront-client.md). Shoppers never sign in, so they are
 * built from PostgREST (RPCs) and Realtime (change feeds) alone and always speak as `anon`: the
 * auth and storage clients of supabase-js stay out of the storefront's load. The RPC client is
 * made at boot; the Realtime one (realtime-client.ts) only after the first catalogue pull, as
 * nothing listens for changes before there is a catalogue. The back office makes its own full,
 * signed-in supabase-js client (src/features/admin/admin-client.ts), which satisfies both shapes.
 */
import { PostgrestClient, type PostgrestError } from '@supabase/postgrest-js'
import type { RealtimeChannel } from '@supabase/realtime-js'
import type { BackendConfig } from './backend-config'

/** An RPC's answer; the data is left to each caller to check, as PostgREST sends any JSON. */
export type RpcAnswer = { data: unknown; error: PostgrestError | null; status?: number }

/** What the pulls and the outboxes need: RPCs. */
export interface RpcClient {
  rpc(fn: string, args?: Record<string, unknown>): PromiseLike<RpcAnswer>
}

/** What the change feeds need: Realtime channels. */
export interface ChannelClient {
  channel(name: string): RealtimeChannel
  removeChannel(channel: RealtimeChannel): Promise<unknown>
}

export type BackendClient = RpcClient & ChannelClient

/** The backend's address without a trailing slash. */
export const backendBase = (config: BackendConfig) => config.supabaseUrl.replace(/\/+$/, '')

export function createRpcClient(config: BackendConfig): RpcClient {
  const key = config.supabaseAnonKey
  // The headers supabase-js sends when nobody is signed in: the anon key as key and bearer.
  const rest = new PostgrestClient(`${backendBase(config)}/rest/v1`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  })
  // The pulls go as GET, their null arguments left to the functions' defaults: the browser
  // keeps the answer and revalidates it by its ETag, so an unchanged catalogue costs a 304
  // (docs/decisions/029-catalogue-cache.md). Everything else (orders, messages) stays POST.
  return {
    rpc: (fn, args = {}) =>
      fn.startsWith('pull_')
        ? rest.rpc(fn, Object.fromEntries(Object.entries(args).filter((a) => a[1] != null)), {
            get: true,
          })
        : rest.rpc(fn, args),
  }
}
