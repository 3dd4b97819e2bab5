import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useRef, useState } from 'react'
import { useHumoData } from '../../../data/data-context'
import { replicateAdminOrders } from '../../../data/replication/admin-orders-replication'
import { watchChanges } from '../../../data/replication/live-changes'

const GENERATION_KEY = 'humo.admin-replication'

/**
 * The replication's identifier. A new one after each sign-out, so the next admin pulls every
 * order again (the device's orders were removed, the old checkpoint would skip them).
 */
function generation(renew = false): string {
  let value = localStorage.getItem(GENERATION_KEY)
  if (!value || renew) {
    value = crypto.randomUUID().slice(0, 8)
    localStorage.setItem(GENERATION_KEY, value)
  }
  return value
}

export type AdminReplication = {
  /** Pull now (Refresh Dashboard, after a push). */
  nudge: () => void
  /** Stop replicating (sign-out) and start the next sign-in from scratch. */
  stop: () => Promise<void>
  error: string | null
  active: boolean
}

/** Runs the admin order replication while the dashboard is open (and live order changes). */
export function useAdminReplication(supabase: SupabaseClient | null): AdminReplication {
  const { db } = useHumoData()
  const ref = useRef<ReturnType<typeof replicateAdminOrders> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [active, setActive] = useState(false)

  useEffect(() => {
    if (!supabase) return
    const replication = replicateAdminOrders(supabase, db, {
      identifier: `humo-admin-orders-${generation()}`,
      // The admin tab replicates its orders itself, even when a shop tab leads the catalogue.
      waitForLeadership: false,
    })
    ref.current = replication
    const subscriptions = [
      replication.sent$.subscribe(() => replication.nudge()),
      replication.error$.subscribe((e) => setError(e.message)),
      replication.received$.subscribe(() => setError(null)),
      replication.active$.subscribe(setActive),
    ]
    const stopWatching = watchChanges(supabase, 'humo-admin-orders', ['orders'], () =>
      replication.nudge(),
    )
    const onOnline = () => {
      replication.reSync()
      replication.nudge()
    }
    window.addEventListener('online', onOnline)
    return () => {
      window.removeEventListener('online', onOnline)
      stopWatching()
      subscriptions.forEach((s) => s.unsubscribe())
      if (ref.current === replication) ref.current = null
      void replication.cancel()
    }
  }, [supabase, db])

  return {
    nudge: () => ref.current?.nudge(),
    stop: async () => {
      await ref.current?.cancel()
      ref.current = null
      generation(true)
    },
    error,
    active,
  }
}
