/**
 * Boots the data layer: opens the device database at once (the UI never waits on the network),
 * then finds the backend and starts replication in the background. Only the leader tab
 * replicates and sends orders; other tabs see the same data live through RxDB.
 * The backend client and the replication are imported dynamically: the first screen renders from
 * the device while they load (scripts/check-budget.mjs still counts them, as every boot loads
 * them); the live change feed only after the first pull. Shoppers never sign in, so the clients
 * are the light anonymous ones (docs/decisions/007-light-storefront-client.md); the back office makes its own signed-in client
 * from `config$`.
 */
import {
  asapScheduler,
  BehaviorSubject,
  combineLatest,
  debounceTime,
  filter,
  firstValueFrom,
} from 'rxjs'
import type { RpcClient } from './backend-client'
import type * as LiveModuleExports from './live-modules'
import { loadBackendConfig, type BackendConfig } from './backend-config'
import { createHumoDatabase, STOREFRONT_COLLECTIONS, type HumoDatabase } from './database'
import { importWhenReachable } from '../lib/import-when-reachable'

export type SyncState = {
  online: boolean
  syncing: boolean
  lastSyncedAt: string | null
  error: string | null
  /** Orders placed on this device that the server has not answered yet. */
  pendingOrders: number
}

export type HumoData = {
  db: HumoDatabase
  /** Where the backend is, once known (the back office builds its signed-in client from it). */
  config$: BehaviorSubject<BackendConfig | null>
  sync$: BehaviorSubject<SyncState>
  /** Resolves once the first pull has finished (or failed), for screens that show skeletons. */
  firstSync: Promise<void>
  /** Pull everything now (Refresh Dashboard, pull-to-refresh). */
  resync(): void
  /**
   * The live code and the tab's one Realtime connection, loaded on first use once the backend
   * is known (order tracking, Track Order). Absent on the server's prerendered copy.
   */
  live?: () => Promise<LiveClients>
}

type LiveModules = typeof LiveModuleExports
export type LiveClients = {
  modules: LiveModules
  rpc: RpcClient
  channels: ReturnType<LiveModules['createChannelClient']>
}

const LAST_SYNC_KEY = 'humo.last-synced-at'

/**
 * The change feed: it only keeps a catalogue fresh, so its code (Realtime) is fetched once the
 * first pull has brought one (scripts/check-budget.mjs lists it apart, as after that pull).
 */
const loadLiveModules = importWhenReachable(() => import('./live-modules'))

/** The code that talks to the backend; the first screen does not wait for it. */
const loadSyncModules = importWhenReachable(() => import('./sync-modules'))

/**
 * Opens the device database and starts its sync. `unhurried`: nobody is waiting on this start
 * (a copy of the page shows), so it may take a little longer in shorter tasks.
 */
export async function startHumoData(options: { unhurried?: boolean } = {}): Promise<HumoData> {
  // Asked for before the database opens, so the backend's address and the sync code arrive
  // while it does instead of after it.
  const configLoaded = loadBackendConfig()
  // Offline before the service worker holds this code, the sync starts when the connection does.
  const syncModules = loadSyncModules()
  const db = await createHumoDatabase({
    only: STOREFRONT_COLLECTIONS,
    inSlices: options.unhurried,
  })
  const config$ = new BehaviorSubject<BackendConfig | null>(null)
  const sync$ = new BehaviorSubject<SyncState>({
    online: navigator.onLine,
    syncing: false,
    lastSyncedAt: localStorage.getItem(LAST_SYNC_KEY),
    error: null,
    pendingOrders: 0,
  })
  // Only a real change is emitted: every screen that shows the sync state re-renders on each
  // emission, and the replications report the same state over and over during a pull.
  const patch = (change: Partial<SyncState>) => {
    const current = sync$.value
    const same = (Object.keys(change) as (keyof SyncState)[]).every(
      (key) => current[key] === change[key],
    )
    if (!same) sync$.next({ ...current, ...change })
  }
  // NOTE: find, not count: RxDB refuses a count() whose selector ($in) is not fully indexed.
  db.orders
    .find({ selector: { sync: { $in: ['queued', 'sending'] } } })
    .$.subscribe((pending) => patch({ pendingOrders: pending.length }))
  window.addEventListener('offline', () => patch({ online: false }))

  let markFirstSync: () => void = () => undefined
  const firstSync = new Promise<void>((resolve) => (markFirstSync = resolve))
  // A device that already holds a catalogue shows it at once instead of skeletons.
  if ((await db.products.count().exec()) > 0) markFirstSync()

  let resync = () => undefined as void

  let live: Promise<LiveClients> | undefined
  const liveClients = () =>
    (live ??= firstValueFrom(config$.pipe(filter((c): c is BackendConfig => c !== null))).then(
      async (config) => {
        const modules = await loadLiveModules()
        return {
          modules,
          rpc: modules.createRpcClient(config),
          channels: modules.createChannelClient(config),
        }
      },
    ))

  void configLoaded.then(async (config) => {
    if (!config) {
      markFirstSync()
      return
    }
    const { createRpcClient, replicateCatalogue, startOrderOutbox, startContactOutbox } =
      await syncModules
    config$.next(config)
    const backend = createRpcClient(config)

    const catalogue = replicateCatalogue(backend, db, { waitForLeadership: true })
    combineLatest(catalogue.replications.map((r) => r.active$)).subscribe((active) =>
      patch({ syncing: active.some(Boolean) }),
    )
    for (const replication of catalogue.replications) {
      replication.error$.subscribe((error) => {
        patch({ error: error.message })
        markFirstSync()
      })
    }
    const markSynced = () => {
      const at = new Date().toISOString()
      localStorage.setItem(LAST_SYNC_KEY, at)
      patch({ lastSyncedAt: at, error: null })
    }
    void catalogue.awaitInitial().then(() => {
      markSynced()
      markFirstSync()
    })
    // received$ tells of each product written, all in one go per pulled batch: noted once.
    catalogue.replications[0]?.received$.pipe(debounceTime(0, asapScheduler)).subscribe(markSynced)
    resync = () => catalogue.nudge()

    await db.waitForLeadership()
    const outbox = startOrderOutbox(db, backend)
    const contact = startContactOutbox(db, backend)
    catalogue
      .awaitInitial()
      .then(liveClients)
      .then(({ modules, channels }) => {
        modules.watchChanges(channels, 'humo-catalogue', modules.CATALOGUE_TABLES, () =>
          catalogue.nudge(),
        )
        // Each order's private status topic (docs/decisions/018-order-after-checkout.md); re-reads on every (re)join.
        modules.startOrderTracking(db, channels, outbox)
      })
      .catch((error: unknown) => console.warn('live changes', error))
    // A backstop for the live status: a re-read every minute while the page is seen.
    setInterval(() => {
      if (document.visibilityState === 'visible' && navigator.onLine) void outbox.refreshStatuses()
    }, 60_000)
    void outbox.refreshStatuses()
    window.addEventListener('online', () => {
      patch({ online: true })
      catalogue.nudge()
      void outbox.flush(true)
      void contact.flush()
      void outbox.refreshStatuses()
    })
  })

  return { db, config$, sync$, firstSync, resync: () => resync(), live: liveClients }
}
