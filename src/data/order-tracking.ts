/**
 * Live status for the shopper's orders (docs/decisions/018-order-after-checkout.md, DESIGN.md §10). Each accepted, unfinished
 * order on the device has a private Realtime topic, 'order:' + SHA-256 of its secret, which only
 * this device (and the server) can name; staff moving the order makes the server broadcast the
 * new status there. This module joins the topic of every such order, writes each status into the
 * device's order (so every tab and screen shows it through RxDB), and asks for a re-read of all
 * of them (get_orders) whenever a topic is (re)joined, the connection comes back or the page
 * becomes visible, so an event lost while offline costs nothing.
 *
 * Runs in the leader tab only (humo-data.ts), and is loaded after the first catalogue pull with
 * the other live code (live-modules.ts), so the storefront's first load does not carry it.
 * Also here: Track Order's lookup by number and email or phone (track_order), whose answer is
 * kept in memory only.
 */
import { REALTIME_SUBSCRIBE_STATES, type RealtimeChannel } from '@supabase/realtime-js'
import { isFinished } from '../lib/order-status'
import type { RpcClient } from './backend-client'
import type { HumoDatabase } from './database'
import type { OrderOutbox, ShopperOrder } from './outbox/order-outbox'
import type { StorefrontChannelClient } from './realtime-client'
import type { OrderDoc } from './schemas/order.schema'

/** What the server broadcasts on an order's topic at every status change. */
export type StatusEvent = {
  id: string
  status: string
  fulfilment?: string
  statusHistory?: unknown
  updatedAt?: string
}

/** 'order:' + the SHA-256 (hex) of the order's secret: the topic the server broadcasts on. */
export async function orderTopic(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
  return `order:${hex}`
}

/**
 * Joins one order's private topic. `onStatus` gets every status event; `onJoined` runs on every
 * successful (re)join, when events may have been missed.
 */
export function watchOrderTopic(
  channels: StorefrontChannelClient,
  topic: string,
  onStatus: (event: StatusEvent) => void,
  onJoined: () => void,
): () => void {
  const channel: RealtimeChannel = channels.privateChannel(topic)
  channel.on('broadcast', { event: 'status' }, (message: { payload?: unknown }) => {
    const payload = message.payload as Partial<StatusEvent> | undefined
    if (payload && typeof payload.id === 'string' && typeof payload.status === 'string') {
      onStatus(payload as StatusEvent)
    }
  })
  channel.subscribe((state) => {
    if (state === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) onJoined()
  })
  return () => void channels.removeChannel(channel)
}

export type OrderTracking = { stop(): void }

/**
 * Keeps the device's accepted, unfinished orders live. The order outbox writes what arrives
 * (`receiveStatus`) and re-reads them all from the server (`refreshStatuses`, get_orders), which
 * is called coalesced. (Taking the outbox as an argument keeps its code out of this chunk.)
 */
export function startOrderTracking(
  db: HumoDatabase,
  channels: StorefrontChannelClient,
  outbox: Pick<OrderOutbox, 'receiveStatus' | 'refreshStatuses'>,
): OrderTracking {
  const watched = new Map<string, () => void>()
  let stopped = false

  let refreshTimer: ReturnType<typeof setTimeout> | undefined
  const refreshSoon = () => {
    clearTimeout(refreshTimer)
    refreshTimer = setTimeout(() => {
      if (!stopped && navigator.onLine) void outbox.refreshStatuses().catch(() => undefined)
    }, 50)
  }

  const onStatus = (orderId: string) => (event: StatusEvent) => {
    // The topic belongs to this order; an event naming another is not ours to apply.
    if (event.id !== orderId) return
    void outbox
      .receiveStatus(orderId, event)
      .catch((error: unknown) => console.warn('order status event', error))
  }

  const follow = async (order: OrderDoc) => {
    const topic = order.channel ?? (await orderTopic(order.secret))
    if (stopped || watched.has(order.id)) return
    watched.set(order.id, watchOrderTopic(channels, topic, onStatus(order.id), refreshSoon))
  }

  const subscription = db.orders.find({ selector: { sync: 'accepted' } }).$.subscribe((docs) => {
    const open = new Set<string>()
    for (const doc of docs) {
      if (isFinished(doc.status)) continue
      open.add(doc.id)
      if (!watched.has(doc.id)) void follow(doc.toJSON() as OrderDoc)
    }
    for (const [id, leave] of watched) {
      if (open.has(id)) continue
      leave()
      watched.delete(id)
    }
  })

  const onVisible = () => {
    if (document.visibilityState === 'visible') refreshSoon()
  }
  document.addEventListener('visibilitychange', onVisible)
  window.addEventListener('online', refreshSoon)

  return {
    stop() {
      stopped = true
      clearTimeout(refreshTimer)
      subscription.unsubscribe()
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('online', refreshSoon)
      for (const leave of watched.values()) leave()
      watched.clear()
    },
  }
}

export type TrackAnswer =
  | { kind: 'found'; order: ShopperOrder }
  | { kind: 'not-found'; message: string }
  | { kind: 'error'; message: string }

export const TRACK_OFFLINE_MESSAGE =
  'Tracking an order needs a connection. Connect to the internet and try again.'

/**
 * Track Order (docs/decisions/018-order-after-checkout.md): the server looks the order up by its number and the email or phone
 * it was placed with, and answers the same whichever part is wrong; it rate-limits attempts.
 */
export async function trackOrder(
  rpc: RpcClient,
  number: string,
  contact: string,
): Promise<TrackAnswer> {
  let answer
  try {
    answer = await rpc.rpc('track_order', { p_number: number, p_contact: contact })
  } catch {
    return { kind: 'error', message: TRACK_OFFLINE_MESSAGE }
  }
  if (answer.error) {
    const message = answer.error.message
    // A failed fetch (no connection) has no database code; say what is needed instead.
    if (!answer.error.code && /fetch|network/i.test(message)) {
      return { kind: 'error', message: TRACK_OFFLINE_MESSAGE }
    }
    return { kind: 'error', message: message || 'Something went wrong. Please try again.' }
  }
  const data = answer.data as
    { found?: boolean; message?: unknown; order?: ShopperOrder } | null | undefined
  if (data?.found === true && data.order && typeof data.order.id === 'string') {
    return { kind: 'found', order: data.order }
  }
  return {
    kind: 'not-found',
    message:
      typeof data?.message === 'string'
        ? data.message
        : "We couldn't find an order with that number and email or phone.",
  }
}
