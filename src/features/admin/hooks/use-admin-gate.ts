import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { adminSupabase } from '../admin-client'
import {
  adminForSession,
  forgetAdmin,
  joinStaff,
  signInAdmin,
  signUpFirstAdmin,
  storedSessionUser,
  type AdminUser,
} from '../admin-auth'

export type GateState =
  { status: 'loading' } | { status: 'login' } | { status: 'admin'; user: AdminUser }

/** The admin gate: loading, then the login screen or the dashboard (SPEC.md §4 "Admin gate"). */
export function useAdminGate() {
  const { config$ } = useHumoData()
  const config = useObservable(config$, config$.value)
  // The admin's own signed-in client; the storefront's data layer only has an anonymous one.
  const supabase = useMemo<SupabaseClient | null>(
    () => (config ? adminSupabase(config) : null),
    [config],
  )
  const [state, setState] = useState<GateState>({ status: 'loading' })

  useEffect(() => {
    if (!supabase) {
      // A device that never reached its backend has nothing to sign in with yet.
      const timer = setTimeout(
        () => setState((s) => (s.status === 'loading' ? { status: 'login' } : s)),
        4000,
      )
      return () => clearTimeout(timer)
    }
    let cancelled = false
    void (async () => {
      const { data } = await supabase.auth.getSession().catch(() => ({ data: { session: null } }))
      const user = await adminForSession(supabase, data.session).catch(() => null)
      if (cancelled) return
      if (!user && data.session && navigator.onLine) {
        // A signed-in non-admin is shown the login screen, signed out (SPEC.md §6).
        await supabase.auth.signOut({ scope: 'local' })
      }
      setState(user ? { status: 'admin', user } : { status: 'login' })
    })()
    const { data } = supabase.auth.onAuthStateChange((event) => {
      if (event === 'SIGNED_OUT' && !storedSessionUser()) {
        forgetAdmin()
        setState({ status: 'login' })
      }
    })
    return () => {
      cancelled = true
      data.subscription.unsubscribe()
    }
  }, [supabase])

  const signIn = useCallback(
    async (email: string, password: string) => {
      if (!supabase) return { ok: false as const, error: 'Authentication failed' }
      const result = await signInAdmin(supabase, email, password)
      if (result.ok) setState({ status: 'admin', user: result.user })
      return result
    },
    [supabase],
  )

  const signUp = useCallback(
    async (email: string, password: string, setupCode: string) => {
      if (!supabase) return { ok: false as const, error: 'Authentication failed' }
      const result = await signUpFirstAdmin(supabase, email, password, setupCode)
      if (result.ok && result.verified) setState({ status: 'admin', user: result.user })
      return result
    },
    [supabase],
  )

  /** Joining the staff with an invitation code (docs/decisions/025-setup-code-and-invitations.md). */
  const join = useCallback(
    async (email: string, password: string, code: string) => {
      if (!supabase) return { ok: false as const, error: 'Authentication failed' }
      const result = await joinStaff(supabase, email, password, code)
      if (result.ok) setState({ status: 'admin', user: result.user })
      return result
    },
    [supabase],
  )

  const signedOut = useCallback(() => setState({ status: 'login' }), [])

  return { state, supabase, signIn, signUp, join, signedOut }
}
