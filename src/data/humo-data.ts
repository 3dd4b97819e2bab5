/**
 * Boots the data layer: opens the device database at once (the UI never waits on the network),
 * then finds the backend and starts replication in the background.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { BehaviorSubject } from 'rxjs'
import { loadBackendConfig, type BackendConfig } from './backend-config'
import { createHumoDatabase, type HumoDatabase } from './database'
import { replicateProducts } from './replication/catalogue-replication'
import { createSupabase } from './supabase'

export type SyncState = {
  online: boolean
  syncing: boolean
  lastSyncedAt: string | null
  error: string | null
}

export type HumoData = {
  db: HumoDatabase
  config$: BehaviorSubject<BackendConfig | null>
  supabase$: BehaviorSubject<SupabaseClient | null>
  sync$: BehaviorSubject<SyncState>
  /** Resolves once the first pull has finished (or failed), for screens that show skeletons. */
  firstSync: Promise<void>
}

export async function startHumoData(): Promise<HumoData> {
  const db = await createHumoDatabase()
  const supabase$ = new BehaviorSubject<SupabaseClient | null>(null)
  const config$ = new BehaviorSubject<BackendConfig | null>(null)
  const sync$ = new BehaviorSubject<SyncState>({
    online: navigator.onLine,
    syncing: false,
    lastSyncedAt: null,
    error: null,
  })
  let markFirstSync: () => void = () => undefined
  const firstSync = new Promise<void>((resolve) => (markFirstSync = resolve))

  void loadBackendConfig().then((config) => {
    if (!config) {
      markFirstSync()
      return
    }
    config$.next(config)
    const supabase = createSupabase(config)
    supabase$.next(supabase)
    const products = replicateProducts(supabase, db)
    products.active$.subscribe((syncing) => sync$.next({ ...sync$.value, syncing }))
    products.error$.subscribe((error) => {
      sync$.next({ ...sync$.value, error: error.message })
      markFirstSync()
    })
    void products.awaitInitialReplication().then(() => {
      sync$.next({ ...sync$.value, error: null, lastSyncedAt: new Date().toISOString() })
      markFirstSync()
    })
    window.addEventListener('online', () => {
      sync$.next({ ...sync$.value, online: true })
      products.nudge()
    })
    window.addEventListener('offline', () => sync$.next({ ...sync$.value, online: false }))
  })

  return { db, config$, supabase$, sync$, firstSync }
}
