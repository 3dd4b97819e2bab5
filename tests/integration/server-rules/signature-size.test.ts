// A signature pad's PNG is far longer than the 4,096 characters the API allows a text argument:
// set_order_status's p_signature has its own limit (200,000, as the function checks; decision
// 055), every other text argument keeps 4,096. Through the API with real tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAllDay } from '../../fixtures/legal-hours'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  rpc,
  startRulesBackend,
  type RulesBackend,
  type TestUser,
} from './rules-backend'
import { accepted, person } from './california-helpers'

/** A PNG data URL of about `length` characters (the PNG header, then filler bytes). */
function pngOfLength(length: number): string {
  const header = Buffer.from('89504e470d0a1a0a', 'hex')
  const bytes = Math.floor(((length - 22) * 3) / 4)
  const body = Buffer.concat([header, Buffer.alloc(bytes - header.length, 7)])
  return `data:image/png;base64,${body.toString('base64')}`
}

let backend: RulesBackend
let budtender: TestUser
let driver: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  await openAllDay(backend.db)
  budtender = await createUser(backend, { role: 'budtender' })
  driver = await createUser(backend, { role: 'driver' })
  const named = await rpc(driver.client, 'set_my_first_name', { p_first_name: 'Marta' })
  expect(named.error).toBeNull()
}, 120_000)

afterAll(async () => {
  await backend?.close()
})

async function outForDelivery() {
  const product = await createProduct(backend, { price: 40, isCannabis: false, quantity: 50 })
  const input = orderInput([{ productId: product.id, quantity: 1 }], { customer: person() })
  const order = accepted(await placeOrder(backend.anon, input))
  for (const [from, to, extra] of [
    ['pending', 'processing', {}],
    ['processing', 'shipped', { p_driver: driver.id }],
  ] as const) {
    const moved = await rpc<{ applied: boolean }>(budtender.client, 'set_order_status', {
      p_id: order.id,
      p_from: from,
      p_to: to,
      ...extra,
    })
    expect(moved.data?.applied).toBe(true)
  }
  return order
}

const handOver = (id: string, signature: string) =>
  rpc<{ applied: boolean; reason?: string }>(driver.client, 'set_order_status', {
    p_id: id,
    p_from: 'shipped',
    p_to: 'delivered',
    p_id_checked: true,
    p_id_number: 'D7654321',
    p_signature: signature,
  })

describe('the size of a signature', () => {
  it('takes a signature of a real pad (tens of thousands of characters)', async () => {
    const order = await outForDelivery()
    const signature = pngOfLength(30_000)
    expect(signature.length).toBeGreaterThan(4096)
    const answer = await handOver(order.id, signature)
    expect(answer.error).toBeNull()
    expect(answer.data?.applied).toBe(true)
    const receipt = await rpc<{ signature: string }>(driver.client, 'admin_delivery_receipt', {
      p_id: order.id,
    })
    expect(receipt.data?.signature).toBe(signature)
  })

  it('refuses a signature past 200,000 characters, and keeps 4,096 for the other texts', async () => {
    const order = await outForDelivery()
    const tooLong = await handOver(order.id, pngOfLength(200_100))
    expect(tooLong.error?.message).toBe(
      'Argument p_signature is too long: the limit is 200000 characters',
    )
    const reason = await rpc(budtender.client, 'set_order_status', {
      p_id: order.id,
      p_from: 'shipped',
      p_to: 'cancelled',
      p_reason: 'x'.repeat(4097),
    })
    expect(reason.error?.message).toBe(
      'Argument p_reason is too long: the limit is 4096 characters',
    )
  })
})
