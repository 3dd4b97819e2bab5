/**
 * The live part of replication: a `postgres_changes` subscription whose events only *trigger* a
 * pull (the pull brings whole documents by checkpoint, so an event's payload is never trusted as
 * data). A (re)subscription also triggers a pull, so a dropped connection resumes from the
 * checkpoint without losing what changed meanwhile.
 */
import { REALTIME_SUBSCRIBE_STATES } from '@supabase/realtime-js'
import type { ChannelClient } from '../backend-client'

/**
 * Shoppers listen to `catalogue_changes` (one row per catalogue table, bumped on every write):
 * realtime only tells a subscriber about rows it may read, so a deactivated product would never
 * reach an anonymous shopper as an event of its own.
 */
export const CATALOGUE_TABLES = ['catalogue_changes'] as const

export function watchChanges(
  supabase: ChannelClient,
  name: string,
  tables: readonly string[],
  onChange: () => void,
  debounceMs = 150,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const trigger = () => {
    clearTimeout(timer)
    timer = setTimeout(onChange, debounceMs)
  }
  const channel = supabase.channel(name)
  for (const table of tables) {
    channel.on('postgres_changes', { event: '*', schema: 'public', table }, trigger)
  }
  channel.subscribe((status) => {
    if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) trigger()
  })
  return () => {
    clearTimeout(timer)
    void supabase.removeChannel(channel)
  }
}
