import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useState } from 'react'
import { cacheDrivers, cachedDrivers, type DriversList } from './driver-choice'
import { fetchDrivers } from './deliveries.api'

export type DriversState = {
  list: DriversList | null
  /** The list is this device's last copy (offline, or the server could not be reached). */
  stale: boolean
  error: string | null
}

/**
 * The drivers to choose from while `active` (the "Choose a driver" dialog is open): the server's
 * list when it can be reached, else the last one this device saw.
 */
export function useDrivers(supabase: SupabaseClient | null, active: boolean): DriversState {
  const [state, setState] = useState<DriversState>(() => ({
    list: cachedDrivers(),
    stale: true,
    error: null,
  }))
  useEffect(() => {
    if (!active) return
    let live = true
    const cached = cachedDrivers()
    setState({ list: cached, stale: true, error: null })
    if (!supabase || !navigator.onLine) return
    fetchDrivers(supabase).then(
      (list) => {
        cacheDrivers(list)
        if (live) setState({ list, stale: false, error: null })
      },
      (error: unknown) => {
        if (live)
          setState({
            list: cached,
            stale: true,
            error: error instanceof Error ? error.message : 'Could not load the drivers',
          })
      },
    )
    return () => {
      live = false
    }
  }, [supabase, active])
  return state
}
