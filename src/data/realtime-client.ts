/**
 * The storefront's Realtime client (docs/decisions/007-light-storefront-client.md): anonymous, as supabase-js's is when nobody is
 * signed in. Imported after the first catalogue pull, with the change feeds (live-changes.ts) and
 * the shopper's order tracking (order-tracking.ts), which share one connection.
 */
import { RealtimeClient, type RealtimeChannel } from '@supabase/realtime-js'
import { backendBase, type ChannelClient } from './backend-client'
import type { BackendConfig } from './backend-config'

/**
 * Channels, public or private. A private channel (an order's status topic, docs/decisions/018-order-after-checkout.md) is
 * joined with the access token, here the anon key, which the server checks against its policy.
 */
export type StorefrontChannelClient = ChannelClient & {
  privateChannel(name: string): RealtimeChannel
}

export function createChannelClient(config: BackendConfig): StorefrontChannelClient {
  const key = config.supabaseAnonKey
  const realtime = new RealtimeClient(`${backendBase(config).replace(/^http/, 'ws')}/realtime/v1`, {
    params: { apikey: key },
    accessToken: () => Promise.resolve(key),
  })
  return {
    channel: (name) => realtime.channel(name, { config: {} }),
    privateChannel: (name) => realtime.channel(name, { config: { private: true } }),
    removeChannel: (channel) => realtime.removeChannel(channel),
  }
}
