import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useRef, useState } from 'react'
import { useHumoData } from '../../../data/data-context'
import { replicateAdminOrders } from '../../../data/replication/admin-orders-replication'
import { replicateAdminProducts } from '../../../data/replication/admin-products-replication'
import { CATALOGUE_TABLES, watchChanges } from '../../../data/replication/live-changes'

const GENERATION_KEY = 'humo.admin-replication'
const PRODUCTS_SYNCED_KEY = 'humo.admin-products-synced'
const ORDERS_SYNCED_KEY = 'humo.admin-orders-synced'

/**
 * The replication's identifier. A new one after each sign-out, so the next admin pulls every
 * order and product again (the device's copies were removed, the old checkpoint would skip them).
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
  /** Pull orders and products now (Refresh Dashboard, after a push). */
  nudge: () => void
  /** Pull products now (after a save, so the table shows it). */
  nudgeProducts: () => void
  /** Resolves once the device holds the catalogue (at once when it already does). */
  whenProductsSynced: () => Promise<void>
  /**
   * This page's first pull of each (not an earlier visit's): true once it is done, false when
   * nothing replicates (signed out, or no backend yet).
   */
  whenProductsPulled: () => Promise<boolean>
  whenOrdersPulled: () => Promise<boolean>
  /** Resolves once this sign-in's first pull of orders is done (at once after it). */
  whenOrdersSynced: () => Promise<void>
  /** Stop replicating (sign-out) and start the next sign-in from scratch. */
  stop: () => Promise<void>
  error: string | null
  active: boolean
  /** The device holds the whole catalogue of this generation (pulled at least once). */
  productsSynced: boolean
  /** The device holds every order of this generation (pulled at least once). */
  ordersSynced: boolean
  /**
   * This page's first pulls are done: what the device holds is the server's as of now, not
   * only as of an earlier visit (exports and reports wait for these, issue 25).
   */
  productsPulled: boolean
  ordersPulled: boolean
  productsError: string | null
}

type Replications = {
  orders: ReturnType<typeof replicateAdminOrders>
  /** Null for a role that does not read the admin catalogue (a driver, docs/decisions/053-staff-roles-and-audit-trail.md). */
  products: ReturnType<typeof replicateAdminProducts> | null
}

/**
 * Runs the admin replications while the dashboard is open: every order the role may see (pushing
 * status changes) and, when the role reads the catalogue, every product, inactive ones included,
 * each with its live change feed.
 */
export function useAdminReplication(
  supabase: SupabaseClient | null,
  withProducts = true,
): AdminReplication {
  const { db } = useHumoData()
  const ref = useRef<Replications | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [active, setActive] = useState(false)
  const [productsError, setProductsError] = useState<string | null>(null)
  // Survives a reload while offline: the device already holds this generation's catalogue.
  const [productsSynced, setProductsSynced] = useState(
    () => localStorage.getItem(PRODUCTS_SYNCED_KEY) === generation(),
  )
  const [ordersSynced, setOrdersSynced] = useState(
    () => localStorage.getItem(ORDERS_SYNCED_KEY) === generation(),
  )
  const [productsPulled, setProductsPulled] = useState(false)
  const [ordersPulled, setOrdersPulled] = useState(false)

  useEffect(() => {
    if (!supabase) return
    const id = generation()
    // The admin tab replicates itself, even when a shop tab leads the catalogue.
    const orders = replicateAdminOrders(supabase, db, {
      identifier: `humo-admin-orders-${id}`,
      waitForLeadership: false,
    })
    const products = withProducts
      ? replicateAdminProducts(supabase, db, {
          identifier: `humo-admin-products-${id}`,
          waitForLeadership: false,
        })
      : null
    const current = { orders, products }
    ref.current = current
    const subscriptions = [
      orders.sent$.subscribe(() => orders.nudge()),
      orders.error$.subscribe((e) => setError(e.message)),
      orders.received$.subscribe(() => setError(null)),
      orders.active$.subscribe(setActive),
    ]
    if (products)
      subscriptions.push(
        products.error$.subscribe((e) => setProductsError(e.message)),
        products.received$.subscribe(() => setProductsError(null)),
      )
    void products?.awaitInitialReplication().then(() => {
      if (ref.current !== current) return
      localStorage.setItem(PRODUCTS_SYNCED_KEY, id)
      setProductsSynced(true)
      setProductsPulled(true)
      setProductsError(null)
    })
    void orders.awaitInitialReplication().then(() => {
      if (ref.current !== current) return
      localStorage.setItem(ORDERS_SYNCED_KEY, id)
      setOrdersSynced(true)
      setOrdersPulled(true)
    })
    const stopOrders = watchChanges(supabase, 'humo-admin-orders', ['orders'], () => orders.nudge())
    const stopProducts = products
      ? watchChanges(supabase, 'humo-admin-products', CATALOGUE_TABLES, () => products.nudge())
      : () => undefined
    const onOnline = () => {
      orders.reSync()
      orders.nudge()
      products?.nudge()
    }
    window.addEventListener('online', onOnline)
    return () => {
      window.removeEventListener('online', onOnline)
      stopOrders()
      stopProducts()
      subscriptions.forEach((s) => s.unsubscribe())
      if (ref.current === current) ref.current = null
      void orders.cancel()
      void products?.cancel()
    }
  }, [supabase, db, withProducts])

  return {
    nudge: () => {
      ref.current?.orders.nudge()
      ref.current?.products?.nudge()
    },
    nudgeProducts: () => ref.current?.products?.nudge(),
    whenOrdersSynced: async () => {
      await ref.current?.orders.awaitInitialReplication()
    },
    whenProductsPulled: async () => {
      const current = ref.current
      if (!current?.products) return false
      await current.products.awaitInitialReplication()
      return true
    },
    whenOrdersPulled: async () => {
      const current = ref.current
      if (!current) return false
      await current.orders.awaitInitialReplication()
      return true
    },
    whenProductsSynced: async () => {
      if (productsSynced) return
      await ref.current?.products?.awaitInitialReplication()
    },
    stop: async () => {
      const current = ref.current
      ref.current = null
      await Promise.all([current?.orders.cancel(), current?.products?.cancel()])
      localStorage.removeItem(PRODUCTS_SYNCED_KEY)
      localStorage.removeItem(ORDERS_SYNCED_KEY)
      setProductsSynced(false)
      setOrdersSynced(false)
      setProductsPulled(false)
      setOrdersPulled(false)
      generation(true)
    },
    error,
    active,
    productsSynced,
    ordersSynced,
    productsPulled,
    ordersPulled,
    productsError,
  }
}
