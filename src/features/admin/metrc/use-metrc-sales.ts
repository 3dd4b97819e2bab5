/**
 * The server's "Metrc sales" for the admin: a chosen day's receipts (for the dialog) and the
 * completed days not yet exported (for the dashboard's notice). Both need a connection: they are
 * every staff device's handoffs and returns, which one device may not hold.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useState } from 'react'
import {
  fetchMetrcSales,
  fetchUnexportedDays,
  type MetrcSalesDay,
  type UnexportedDay,
} from './metrc-sales'

export function useMetrcSalesDay(
  supabase: SupabaseClient | null,
  day: string | null,
  online: boolean,
  refresh: number,
) {
  const [data, setData] = useState<MetrcSalesDay | null>(null)
  const [failure, setFailure] = useState<string | undefined>()
  const [loading, setLoading] = useState(false)
  useEffect(() => {
    if (!supabase || !online || !day) return
    let current = true
    setLoading(true)
    setFailure(undefined)
    fetchMetrcSales(supabase, day)
      .then((answer) => current && setData(answer))
      .catch((e: unknown) => {
        if (!current) return
        setData(null)
        setFailure(e instanceof Error ? e.message : String(e))
      })
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [supabase, day, online, refresh])
  return { data: data && data.day === day ? data : null, failure, loading }
}

export function useUnexportedDays(
  supabase: SupabaseClient | null,
  online: boolean,
  refresh: number,
): UnexportedDay[] {
  const [days, setDays] = useState<UnexportedDay[]>([])
  useEffect(() => {
    if (!supabase || !online) return
    let current = true
    fetchUnexportedDays(supabase)
      .then((answer) => current && setDays(answer))
      // The notice is a reminder: a failed look-up shows none rather than a second error.
      .catch(() => current && setDays([]))
    return () => {
      current = false
    }
  }, [supabase, online, refresh])
  return days
}
