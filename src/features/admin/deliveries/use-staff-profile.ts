import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useState } from 'react'
import { fetchStaffProfile, parseProfile, saveFirstName, type StaffProfile } from './deliveries.api'

const CACHE_KEY = 'humo.admin.staff-profile'

function cached(userId: string): StaffProfile | null {
  try {
    const raw = localStorage.getItem(`${CACHE_KEY}.${userId}`)
    return raw ? parseProfile(JSON.parse(raw)) : null
  } catch {
    return null
  }
}

function remember(userId: string, profile: StaffProfile) {
  try {
    localStorage.setItem(`${CACHE_KEY}.${userId}`, JSON.stringify(profile))
  } catch {
    // Without storage the name is asked of the server again next time.
  }
}

/**
 * The signed-in staff member's first name and employee number, which their delivery receipts
 * show (my_staff_profile()); kept on the device for the door, which may have no signal.
 */
export function useStaffProfile(supabase: SupabaseClient | null, userId: string) {
  const [profile, setProfile] = useState<StaffProfile | null>(() => cached(userId))
  useEffect(() => {
    if (!supabase || !navigator.onLine) return
    let live = true
    fetchStaffProfile(supabase).then(
      (found) => {
        if (!live || !found) return
        remember(userId, found)
        setProfile(found)
      },
      () => undefined, // The cached profile stands; the form asks again when it is missing.
    )
    return () => {
      live = false
    }
  }, [supabase, userId])

  const setFirstName = useCallback(
    async (firstName: string) => {
      if (!supabase) throw new Error('Saving your name needs a connection')
      const saved = await saveFirstName(supabase, firstName)
      const next = { role: profile?.role ?? 'driver', ...saved }
      remember(userId, next)
      setProfile(next)
    },
    [supabase, userId, profile?.role],
  )
  return { profile, setFirstName }
}
