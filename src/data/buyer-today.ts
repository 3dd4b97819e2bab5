/**
 * Who is buying, how, and what they already bought today, as this device knows it: the buyer the
 * checkout draft describes (adult use or medical, their MMIC, email and phone; before the shopper
 * chose at checkout, what they told the age gate), pickup or delivery as the draft says, and the
 * grams their orders of the shop's day on this device hold. The cart, the checkout and the product
 * page price and apply the daily limits with it (docs/decisions/051-california-taxes-and-daily-limits.md); the server, which also sees the
 * same person's orders from other devices, has the last word.
 */
import { combineLatest, map, of, type Observable } from 'rxjs'
import { shopDate, type CustomerKind } from '../lib/compliance-rules'
import { gramsHeldByOrders, type GramsHeld } from '../lib/daily-limits'
import { mmicFrom } from '../lib/mmic'
import type { DeliveryMethod, Fulfilment } from '../lib/money'
import { gateAnswer } from '../lib/visitor-kind'
import type { HumoDatabase } from './database'
import type { OrderDoc } from './schemas/order.schema'

/** Who the shopper said they are at checkout (the draft), which the cart prices and limits by. */
export type Buyer = {
  kind: CustomerKind
  /** The MMIC's expiry date when a medical patient gave a complete card, else null. */
  mmicExpiry: string | null
  email?: string
  phone?: string
}

/** How the order reaches the shopper: what the delivery fee depends on. */
export type Handover = { fulfilment: Fulfilment; deliveryMethod: DeliveryMethod }

export const ADULT_BUYER: Buyer = { kind: 'adult', mmicExpiry: null }
export const STANDARD_DELIVERY: Handover = { fulfilment: 'delivery', deliveryMethod: 'standard' }

/** The checkout draft's device document (checkout.actions.ts writes it). */
export const DRAFT_ID = 'guest_checkout_data'

export type DraftLike = {
  customerKind?: unknown
  mmicNumber?: unknown
  mmicExpiry?: unknown
  email?: unknown
  phone?: unknown
  fulfilment?: unknown
  deliveryMethod?: unknown
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/**
 * The buyer the checkout draft describes. A draft that never chose a kind (none yet, or one
 * saved before medical sales) takes the age gate's answer, `gateKind`.
 */
export function buyerOf(draft: DraftLike | undefined, gateKind: CustomerKind | null = null): Buyer {
  const kind =
    draft?.customerKind === 'medical' || draft?.customerKind === 'adult'
      ? draft.customerKind
      : (gateKind ?? 'adult')
  const mmic = mmicFrom(kind, text(draft?.mmicNumber), text(draft?.mmicExpiry))
  return {
    kind,
    mmicExpiry: mmic?.expiry ?? null,
    email: text(draft?.email),
    phone: text(draft?.phone),
  }
}

/** Pickup or delivery, standard or express, as the draft says (standard delivery before). */
export function handoverOf(draft: DraftLike | undefined): Handover {
  return {
    fulfilment: draft?.fulfilment === 'pickup' ? 'pickup' : 'delivery',
    deliveryMethod: draft?.deliveryMethod === 'express' ? 'express' : 'standard',
  }
}

/** What the buyer's orders on this device hold on the shop's day of `now`. */
export function heldToday(
  orders: readonly OrderDoc[],
  buyer: Pick<Buyer, 'email' | 'phone'>,
  now: Date = new Date(),
): GramsHeld {
  return gramsHeldByOrders(orders, shopDate(now), (iso) => shopDate(new Date(iso)), buyer)
}

/** This device's latest orders, live: today's are among them. */
export function recentOrders$(db: HumoDatabase) {
  return db.orders
    .find({ sort: [{ createdAt: 'desc' }], limit: 50 })
    .$.pipe(map((docs) => docs.map((o) => o.toJSON() as OrderDoc)))
}

/**
 * The checkout draft, live. NOTE: a server render's database is a catalogue snapshot with
 * collections only (src/data/snapshot-data.ts): no local documents, so no draft, as on a first
 * visit.
 */
function draft$(db: HumoDatabase): Observable<DraftLike | undefined> {
  if (typeof db.getLocal$ !== 'function') return of(undefined)
  return db.getLocal$<DraftLike>(DRAFT_ID).pipe(map((doc) => doc?.toJSON().data))
}

/** The buyer, how they take the order, and what their orders on this device hold today, live. */
export function buyerToday$(db: HumoDatabase) {
  return combineLatest([draft$(db), recentOrders$(db)]).pipe(
    map(([data, orders]) => {
      const buyer = buyerOf(data, gateAnswer())
      return { buyer, handover: handoverOf(data), held: heldToday(orders, buyer) }
    }),
  )
}
