import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useState } from 'react'
import { fetchAdminProducts } from '../admin-api'
import type { AdminProductRow } from '../admin-product'

export type AdminProductsState = {
  rows: AdminProductRow[] | null
  error: string | null
  loading: boolean
  reload: () => Promise<void>
}

/** The admin's product table, read from the server (admins see inactive products too). */
export function useAdminProducts(supabase: SupabaseClient | null): AdminProductsState {
  const [rows, setRows] = useState<AdminProductRow[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)

  const reload = useCallback(async () => {
    if (!supabase) return
    setLoading(true)
    try {
      setRows(await fetchAdminProducts(supabase))
      setError(null)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setLoading(false)
    }
  }, [supabase])

  useEffect(() => {
    void reload()
  }, [reload])

  return { rows, error, loading, reload }
}
