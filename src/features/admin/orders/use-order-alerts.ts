import { useCallback, useEffect, useRef, useState } from 'react'
import type { HumoDatabase } from '../../../data/database'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import { orderNumber } from '../../../lib/order-status'
import { toaster } from '../../../ui/toaster'
import {
  ADMIN_TITLE,
  adminTitle,
  arrivals,
  playNewOrderSound,
  readMuted,
  readOpenedOrders,
  rememberOpenedOrder,
  unlockSound,
  unopenedCount,
  writeMuted,
} from './order-alerts'
import { fulfilmentLine } from './order-board-model'

/** More arrivals at once than this (a reconnect's catch-up) make one toast, not one each. */
const MAX_TOASTS = 3

export type OrderAlerts = {
  muted: boolean
  setMuted: (muted: boolean) => void
  /** Staff opened the order's detail on this device. */
  markOpened: (id: string) => void
  unopened: number
}

/**
 * New orders on an open board: a toast "New order #XXXXXXXX" and a short sound for each order
 * that reaches the device after this sign-in's first pull (what that pull brings is not new to
 * the board), and the tab title's count of pending orders not yet opened on this device.
 */
export function useOrderAlerts(
  db: HumoDatabase,
  orders: AdminOrderDoc[] | null,
  whenOrdersSynced: () => Promise<void>,
): OrderAlerts {
  const [muted, setMutedState] = useState(readMuted)
  const [opened, setOpened] = useState(readOpenedOrders)
  const [baselineReady, setBaselineReady] = useState(false)
  const known = useRef<Set<string> | null>(null)
  const mutedRef = useRef(muted)
  mutedRef.current = muted
  const whenSynced = useRef(whenOrdersSynced)
  whenSynced.current = whenOrdersSynced

  // What the device holds once the first pull is done is the board as staff found it.
  useEffect(() => {
    let cancelled = false
    // After the replication's own effect has started it (the dashboard's earlier hook).
    const timer = setTimeout(() => {
      void whenSynced
        .current()
        .then(() => db.admin_orders.find().exec())
        .then((docs) => {
          if (cancelled) return
          known.current = new Set(docs.map((d) => d.id))
          setBaselineReady(true)
        })
        .catch(() => undefined)
    }, 0)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [db])

  useEffect(() => {
    if (!baselineReady || !orders || !known.current) return
    const fresh = arrivals(known.current, orders)
    if (fresh.length === 0) return
    for (const id of fresh) known.current.add(id)
    const byId = new Map(orders.map((o) => [o.id, o]))
    if (fresh.length > MAX_TOASTS) {
      toaster.create({ type: 'info', title: `${fresh.length} new orders` })
    } else {
      for (const id of fresh) {
        const order = byId.get(id)
        toaster.create({
          type: 'info',
          title: `New order ${orderNumber(id)}`,
          description: order
            ? `${order.customerName} · ${fulfilmentLine(order)} · ${formatMoney(order.total)}`
            : undefined,
        })
      }
    }
    if (!mutedRef.current) playNewOrderSound()
  }, [orders, baselineReady])

  // Sound needs one gesture on the page first; until then a new order is quiet.
  useEffect(() => {
    const unlock = () => unlockSound()
    window.addEventListener('pointerdown', unlock, { capture: true })
    window.addEventListener('keydown', unlock, { capture: true })
    return () => {
      window.removeEventListener('pointerdown', unlock, { capture: true })
      window.removeEventListener('keydown', unlock, { capture: true })
    }
  }, [])

  const unopened = orders ? unopenedCount(orders, opened) : 0
  useEffect(() => {
    document.title = adminTitle(unopened)
  }, [unopened])
  useEffect(
    () => () => {
      document.title = ADMIN_TITLE
    },
    [],
  )

  const setMuted = useCallback((value: boolean) => {
    writeMuted(value)
    setMutedState(value)
  }, [])
  const markOpened = useCallback((id: string) => setOpened(rememberOpenedOrder(id)), [])

  return { muted, setMuted, markOpened, unopened }
}
