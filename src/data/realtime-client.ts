/**
 * The storefront's Realtime client (decision 007): anonymous, as supabase-js's is when nobody is
 * signed in. Imported after the first catalogue pull, with the change feeds (live-changes.ts).
 */
import { RealtimeClient } from '@supabase/realtime-js'
import { backendBase, type ChannelClient } from './backend-client'
import type { BackendConfig } from './backend-config'

export function createChannelClient(config: BackendConfig): ChannelClient {
  const key = config.supabaseAnonKey
  const realtime = new RealtimeClient(`${backendBase(config).replace(/^http/, 'ws')}/realtime/v1`, {
    params: { apikey: key },
    accessToken: () => Promise.resolve(key),
  })
  return {
    channel: (name) => realtime.channel(name, { config: {} }),
    removeChannel: (channel) => realtime.removeChannel(channel),
  }
}
