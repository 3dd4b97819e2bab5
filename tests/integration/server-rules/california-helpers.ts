// What the California sale tests share: a customer of their own per test, the accepted order of
// a place_order answer, and a handoff as staff make it (set_order_status with the ID checks).
import { expect } from 'vitest'
import type { placeOrder } from './rules-backend'
import { rpc, type OrderDoc, type TestUser } from './rules-backend'

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

export async function handOverAs(
  staff: TestUser,
  orderId: string,
  args: HandoffArgs = {},
): Promise<HandoffAnswer> {
  const { data, error } = await rpc<HandoffAnswer>(staff.client, 'set_order_status', {
    p_id: orderId,
    p_from: args.from ?? 'pending',
    p_to: 'delivered',
    p_id_checked: true,
    p_id_number: args.idNumber === undefined ? 'D1234567' : args.idNumber,
    p_mmic_checked: args.mmicChecked ?? false,
  })
  expect(error).toBeNull()
  return data!
}
