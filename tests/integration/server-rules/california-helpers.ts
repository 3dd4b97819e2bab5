// What the California sale tests share: a customer of their own per test, the accepted order of
// a place_order answer, and a handoff as staff make it (set_order_status with the ID checks).
import { expect } from 'vitest'
import type { placeOrder } from './rules-backend'
import { createUser, rpc, type OrderDoc, type RulesBackend, type TestUser } from './rules-backend'

export const accepted = (result: Awaited<ReturnType<typeof placeOrder>>): OrderDoc => {
  if (result.status !== 'accepted') throw new Error(`refused: ${JSON.stringify(result.reasons)}`)
  return result.order
}

let people = 0
/** A customer of their own, so one test's grams never count in another's day. */
export function person(overrides: Partial<{ email: string; phone: string }> = {}) {
  people += 1
  const n = String(people).padStart(4, '0')
  return {
    email: `buyer${n}-${process.pid}@example.com`,
    firstName: 'Ana',
    lastName: 'Lopez',
    phone: `(323) 555-${n}`,
    ...overrides,
  }
}

export type HandoffArgs = { idNumber?: string | null; mmicChecked?: boolean; from?: string }

export type HandoffAnswer = {
  applied: boolean
  reason?: string
  message?: string
  order: Record<string, unknown>
}

/** A 1×1 PNG, as a signature pad's canvas.toDataURL('image/png') answers (shorter, same format). */
export const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

let handoffDriver: TestUser | null = null

/**
 * The driver a delivery goes out with before handOverAs hands it over (docs/decisions/055-delivery-by-the-rules.md: a delivery
 * is handed over out with its driver, signed for): call once per backend, in beforeAll.
 */
export async function useHandoffDriver(backend: RulesBackend): Promise<TestUser> {
  handoffDriver = await createUser(backend, { role: 'driver' })
  await backend.db.query(`update public.user_profiles set first_name = 'Dani' where user_id = $1`, [
    handoffDriver.id,
  ])
  return handoffDriver
}

/**
 * A handoff as staff make it: a delivery first goes out with its driver (unless it is out
 * already), then is handed over with the checks and the customer's signature.
 */
export async function handOverAs(
  staff: TestUser,
  orderId: string,
  args: HandoffArgs = {},
): Promise<HandoffAnswer> {
  let from = args.from ?? 'pending'
  const { data } = await staff.client
    .from('orders')
    .select('fulfilment, status')
    .eq('id', orderId)
    .maybeSingle()
  const order = data as { fulfilment?: string; status?: string } | null
  // Out already after a refused handoff: hand it over from there.
  if (order?.status === 'shipped') from = 'shipped'
  if (order?.fulfilment === 'delivery' && from !== 'shipped') {
    if (!handoffDriver) throw new Error('call useHandoffDriver(backend) in beforeAll first')
    const out = await rpc<HandoffAnswer>(staff.client, 'set_order_status', {
      p_id: orderId,
      p_from: from,
      p_to: 'shipped',
      p_driver: handoffDriver.id,
    })
    expect(out.data?.applied, out.data?.message).toBe(true)
    from = 'shipped'
  }
  const { data: answer, error } = await rpc<HandoffAnswer>(staff.client, 'set_order_status', {
    p_id: orderId,
    p_from: from,
    p_to: 'delivered',
    p_id_checked: true,
    p_id_number: args.idNumber === undefined ? 'D1234567' : args.idNumber,
    p_mmic_checked: args.mmicChecked ?? false,
    p_signature: SIGNATURE,
  })
  expect(error).toBeNull()
  return answer!
}
