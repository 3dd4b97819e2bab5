/**
 * The checkout's writes: the guest draft (a local document; no card is ever asked for) and
 * placing an order, which writes the order to the device at once for the outbox to send, and
 * empties the cart in the same step. A refused order puts its lines back in the cart, once.
 */
import { buyerOf, DRAFT_ID, handoverOf } from '../../data/buyer-today'
import { cartViewOf } from '../../data/cart-view'
import type { HumoDatabase } from '../../data/database'
import type { CartLineDoc } from '../../data/schemas/cart-line.schema'
import type { OrderDoc } from '../../data/schemas/order.schema'
import type { ComplianceRule, CustomerKind } from '../../lib/compliance-rules'
import type { MoneyRules } from '../../lib/money'
import { gateAnswer } from '../../lib/visitor-kind'
import { mmicOf, normaliseDraft, type CheckoutDraft } from './checkout.validation'

/**
 * The draft as last saved. One that never chose adult use or medical (a first checkout, or a
 * draft from before medical sales) starts from what the shopper told the age gate.
 */
export async function loadDraft(
  db: HumoDatabase,
  gateKind: CustomerKind | null = gateAnswer(),
): Promise<CheckoutDraft> {
  const stored = (await db.getLocal<CheckoutDraft>(DRAFT_ID))?.toJSON().data as
    Record<string, unknown> | undefined
  const draft = normaliseDraft(stored)
  const chosen = stored?.customerKind === 'adult' || stored?.customerKind === 'medical'
  return chosen || !gateKind ? draft : { ...draft, customerKind: gateKind }
}

/** Saved on each change; only the draft's own fields are kept, whatever the caller passes. */
export async function saveDraft(db: HumoDatabase, draft: CheckoutDraft): Promise<void> {
  const { email, firstName, lastName, phone, address1, address2, city, zipCode } = draft
  const { fulfilment, deliveryMethod, paymentMethod, customerKind, mmicNumber, mmicExpiry } = draft
  const pickupWindow = draft.pickupWindow
    ? { start: draft.pickupWindow.start, end: draft.pickupWindow.end }
    : null
  await db.upsertLocal<CheckoutDraft>(DRAFT_ID, {
    email,
    firstName,
    lastName,
    phone,
    address1,
    address2,
    city,
    zipCode,
    fulfilment,
    deliveryMethod,
    paymentMethod,
    pickupWindow,
    customerKind,
    mmicNumber,
    mmicExpiry,
  })
}

function randomSecret(): string {
  const bytes = new Uint8Array(24)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

export type PlaceOrderInput = {
  draft: CheckoutDraft
  lines: CartLineDoc[]
  /** The shop's fees for the preview (the server recomputes with its own). */
  rules?: MoneyRules
  /** The tax rates and limits the device holds (the server decides with its own). */
  complianceRules?: readonly ComplianceRule[]
  now?: Date
}

export async function placeOrder(db: HumoDatabase, input: PlaceOrderInput): Promise<OrderDoc> {
  const { draft, lines } = input
  const at = input.now ?? new Date()
  const now = at.toISOString()
  const mmic = mmicOf(draft)
  const delivery = draft.fulfilment === 'delivery'
  const address = delivery
    ? {
        address1: draft.address1.trim(),
        address2: draft.address2.trim() || null,
        city: draft.city.trim(),
        state: 'CA',
        zipCode: draft.zipCode.trim(),
      }
    : null
  const order: OrderDoc = {
    id: crypto.randomUUID(),
    secret: randomSecret(),
    status: 'pending',
    sync: 'queued',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    refusal: null,
    customer: {
      email: draft.email.trim(),
      firstName: draft.firstName.trim(),
      lastName: draft.lastName.trim(),
      phone: draft.phone.trim(),
    },
    fulfilment: draft.fulfilment,
    deliveryMethod: draft.deliveryMethod,
    shippingAddress: address,
    billingAddress: address,
    paymentMethod: draft.paymentMethod,
    customerKind: draft.customerKind,
    mmic,
    cardLast4: null,
    pickupWindow: delivery ? null : draft.pickupWindow,
    channel: null,
    statusCheckedAt: null,
    items: lines.map((l) => ({
      productId: l.productId,
      name: l.product.name,
      slug: l.product.slug,
      unitPrice: l.product.price,
      quantity: l.quantity,
      imagePath: l.product.imagePath ?? null,
      categorySlug: l.product.categorySlug,
      weightGrams: l.product.weightGrams ?? null,
      isCannabis: l.product.isCannabis !== false,
      limitClass: l.product.limitClass ?? null,
      limitGrams: l.product.limitGrams ?? null,
    })),
    // The checkout's own preview (src/data/cart-view.ts), so the total sent is the one shown.
    totals: cartViewOf(lines, {
      money: input.rules,
      rules: input.complianceRules,
      buyer: buyerOf(draft),
      handover: handoverOf(draft),
      now: at,
    }).totals,
    totalsFrom: 'preview',
    estimatedDelivery: null,
    statusHistory: [{ status: 'pending', at: now }],
    cartRestoredAt: null,
    createdAt: now,
    updatedAt: now,
  }
  await db.orders.insert(order)
  await db.cart_lines.bulkRemove(lines.map((l) => l.productId))
  return order
}

/** Puts a refused order's lines back in the cart (once), so the shopper loses nothing. */
export async function restoreCartFromRefusedOrder(
  db: HumoDatabase,
  orderId: string,
): Promise<void> {
  const doc = await db.orders.findOne(orderId).exec()
  if (!doc || doc.sync !== 'refused' || doc.cartRestoredAt) return
  const at = new Date().toISOString()
  for (const item of doc.items) {
    const existing = await db.cart_lines.findOne(item.productId).exec()
    if (existing) continue
    await db.cart_lines.insert({
      productId: item.productId,
      quantity: item.quantity,
      addedAt: at,
      product: {
        name: item.name,
        slug: item.slug ?? item.productId,
        price: item.unitPrice,
        originalPrice: null,
        imagePath: item.imagePath ?? null,
        brandName: null,
        categoryName: null,
        categorySlug: item.categorySlug ?? '',
        productTypeName: null,
        weightGrams: item.weightGrams ?? null,
        isCannabis: item.isCannabis !== false,
        limitClass: item.limitClass ?? null,
        limitGrams: item.limitGrams ?? null,
        stock: null,
        unlimited: false,
      },
    })
  }
  await doc.incrementalPatch({ cartRestoredAt: at })
}

/**
 * Orders placed online in this page's life, whose acceptance the confirmation page announces with
 * SPEC.md's success toast (once, and only once the shop has accepted them: docs/decisions/020-texts-that-tell-the-truth.md).
 */
const toAnnounce = new Set<string>()

export function announceWhenAccepted(orderId: string): void {
  toAnnounce.add(orderId)
}

/** True once for an order placed here that the shop has now accepted. */
export function takeAcceptedAnnouncement(orderId: string): boolean {
  return toAnnounce.delete(orderId)
}
