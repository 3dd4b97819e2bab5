import { randomUUID } from 'node:crypto'
import {
  DEFAULT_OPENING_HOURS,
  DEFAULT_PICKUP_RULES,
  type WeeklyHours,
} from '../../../src/lib/shop-hours'
import { pickupSlots } from '../../../src/lib/pickup-windows'
import { adminClient, nodeClient } from './admin'
import { sharedDriver, TEST_SIGNATURE } from './drivers'
import { openHandoffHoursToday } from './legal-hours'

// Watermelon Sea Salt Gummies (supabase/seed/catalogue.ts): plenty in stock.
const PRODUCT_NAME = 'Watermelon Sea Salt Gummies'

export type PlacedOrder = { id: string; number: string }

/** The earliest pickup window the shop offers now, from its saved hours (defaults otherwise). */
async function earliestWindow(baseURL: string) {
  const admin = await adminClient(baseURL)
  const { data } = await admin
    .from('shop_settings')
    .select('opening_hours, pickup_prep_minutes, pickup_slot_minutes')
    .maybeSingle<{
      opening_hours: WeeklyHours | null
      pickup_prep_minutes: number | null
      pickup_slot_minutes: number | null
    }>()
  const hours = data?.opening_hours ?? DEFAULT_OPENING_HOURS
  const rules = {
    prepMinutes: data?.pickup_prep_minutes ?? DEFAULT_PICKUP_RULES.prepMinutes,
    slotMinutes: data?.pickup_slot_minutes ?? DEFAULT_PICKUP_RULES.slotMinutes,
  }
  const slot = pickupSlots(hours, rules)[0]
  if (!slot) throw new Error('the shop offers no pickup window this week')
  return { start: slot.start, end: slot.end }
}

/** What a spec may add to the order: a medical patient's kind and card (docs/decisions/051-california-taxes-and-daily-limits.md). */
export type OrderExtras = {
  customerKind?: 'adult' | 'medical'
  mmic?: { number: string; expiry: string }
  phone?: string
  email?: string
  /** Another product than the gummies (by its name), and how many. */
  product?: string
  quantity?: number
}

/**
 * Orders staff hand over never give their stock back, and the specs after them (a phone's Add
 * to Cart, two tabs) need the product in stock: top it up as the shop would on a delivery.
 */
async function keepInStock(baseURL: string, productId: string) {
  const owner = await adminClient(baseURL)
  const { data } = await owner
    .from('products')
    .select('quantity_available')
    .eq('id', productId)
    .single<{ quantity_available: number | null }>()
  if (data?.quantity_available != null && data.quantity_available < 30) {
    const { error } = await owner
      .from('products')
      .update({ quantity_available: 44 })
      .eq('id', productId)
    if (error) throw error
  }
}

/** A shopper's order placed through place_order, as checkout does; cash, one line. */
export async function placeShopperOrder(
  baseURL: string,
  fulfilment: 'pickup' | 'delivery',
  firstName = 'Avery',
  extras: OrderExtras = {},
): Promise<PlacedOrder> {
  const anon = await nodeClient(baseURL)
  const { data: product, error: productError } = await anon
    .from('products')
    .select('id')
    .eq('name', extras.product ?? PRODUCT_NAME)
    .single<{ id: string }>()
  if (productError) throw productError
  await keepInStock(baseURL, product.id)
  const id = randomUUID()
  const order = {
    id,
    secret: `${randomUUID()}${randomUUID()}`.replace(/-/g, ''),
    customer: {
      email: extras.email ?? `${firstName.toLowerCase()}-${Date.now()}@example.com`,
      firstName,
      lastName: 'Staffcheck',
      phone: extras.phone ?? '(510) 555-0188',
    },
    ...(extras.customerKind ? { customerKind: extras.customerKind } : {}),
    ...(extras.mmic ? { mmic: extras.mmic } : {}),
    fulfilment,
    deliveryMethod: 'standard',
    shippingAddress:
      fulfilment === 'delivery'
        ? { address1: '12 Grand Ave', city: 'Oakland', state: 'CA', zipCode: '94612' }
        : null,
    billingAddress: null,
    paymentMethod: 'cash',
    pickupWindow: fulfilment === 'pickup' ? await earliestWindow(baseURL) : null,
    items: [{ productId: product.id, quantity: extras.quantity ?? 3 }],
  }
  const placed = await anon.rpc('place_order', { p_order: order })
  if (placed.error) throw placed.error
  const answer = placed.data as { status: string }
  if (answer.status !== 'accepted') throw new Error(`order refused: ${JSON.stringify(answer)}`)
  return { id, number: `#${id.slice(0, 8).toUpperCase()}` }
}

/**
 * A number as on a buyer's ID, different each time: the server counts a person's purchases of
 * the day by it too (docs/decisions/051-california-taxes-and-daily-limits.md), so specs never share one.
 */
export function newIdNumber(): string {
  return `D${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
}

/**
 * Moves an order on the server as a colleague would (a handoff with the ID check and the ID's
 * number, and "MMIC checked" when asked). Out for delivery goes with a driver (a shared one
 * unless `driver` names one), a delivery's handoff with a signature and a cancel with a reason
 * (docs/decisions/055-delivery-by-the-rules.md); the legal handoff hours are opened for today first, so it runs at any hour.
 */
export async function moveOnServer(
  baseURL: string,
  id: string,
  from: string,
  to: string,
  handoff: { idNumber?: string; mmicChecked?: boolean; driver?: string; reason?: string } = {},
) {
  const admin = await adminClient(baseURL)
  if (to === 'shipped' || to === 'delivered') await hoursOpened(baseURL)
  const moved = await admin.rpc('set_order_status', {
    p_id: id,
    p_from: from,
    p_to: to,
    p_id_checked: to === 'delivered',
    ...(to === 'delivered'
      ? {
          p_id_number: handoff.idNumber ?? newIdNumber(),
          p_mmic_checked: handoff.mmicChecked === true,
          p_signature: TEST_SIGNATURE,
        }
      : {}),
    ...(to === 'shipped' ? { p_driver: handoff.driver ?? (await sharedDriver(baseURL)).id } : {}),
    ...(to === 'cancelled' ? { p_reason: handoff.reason ?? 'Customer asked' } : {}),
  })
  if (moved.error) throw moved.error
  return moved.data as { applied: boolean; reason?: string; message?: string }
}

let opened: Promise<void> | null = null

/** The handoff hours opened once per run (tests/e2e/helpers/legal-hours.ts). */
function hoursOpened(baseURL: string): Promise<void> {
  opened ??= openHandoffHoursToday(baseURL).catch((error: unknown) => {
    opened = null
    throw error
  })
  return opened
}
