// Two admin devices change the same order while offline. The first change to reach the server
// wins; the other device takes the server's state and shows its person a notice (docs/decisions/004-order-status-conflicts.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../fixtures/memory-database'
import {
  clientFor,
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  startRulesBackend,
  type RulesBackend,
  type TestUser,
} from './server-rules/rules-backend'
import { SIGNATURE, useHandoffDriver } from './server-rules/california-helpers'
import { replicateAdminOrders } from '../../src/data/replication/admin-orders-replication'
import { clearAdminData } from '../../src/data/database'
import { moveOrder } from '../../src/features/admin/orders/orders.actions'
import type { HumoDatabase } from '../../src/data/database'
import type { RpcClient } from '../../src/data/backend-client'

let backend: RulesBackend
let alex: TestUser
let driver: TestUser
let bea: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  alex = await createUser(backend, { admin: true, email: 'alex@humo.test' })
  bea = await createUser(backend, { admin: true, email: 'bea@humo.test' })
  // The driver deliveries go out with, named as the receipt needs (docs/decisions/055-delivery-by-the-rules.md).
  driver = await useHandoffDriver(backend)
})
afterAll(async () => {
  await backend?.close()
})

async function device(user: TestUser, name: string) {
  const { db } = await createTestDatabase(undefined, ['admin_orders', 'order_notices'])
  const start = () => replicateAdminOrders(user.client, db, { identifier: `admin-orders-${name}` })
  return { db, start }
}

async function until(check: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function setLocalStatus(db: HumoDatabase, id: string, status: 'processing' | 'shipped') {
  const doc = await db.admin_orders.findOne(id).exec()
  await doc!.incrementalPatch({ status })
}

describe('admin order replication', () => {
  it('pulls every order, and applies the first of two offline changes while telling the second', async () => {
    const product = await createProduct(backend, { price: 30, quantity: 20 })
    const placed = await placeOrder(
      backend.anon,
      orderInput([{ productId: product.id, quantity: 1 }]),
    )
    expect(placed.status).toBe('accepted')
    const orderId = placed.status === 'accepted' ? placed.order.id : ''

    const a = await device(alex, 'a')
    const b = await device(bea, 'b')
    let ra = a.start()
    let rb = b.start()
    await Promise.all([ra.awaitInitialReplication(), rb.awaitInitialReplication()])
    expect((await a.db.admin_orders.findOne(orderId).exec())?.status).toBe('pending')
    expect((await b.db.admin_orders.findOne(orderId).exec())?.total).toBeGreaterThan(0)

    // Both go offline and move the same card to different columns.
    await Promise.all([ra.cancel(), rb.cancel()])
    await setLocalStatus(a.db, orderId, 'processing')
    await setLocalStatus(b.db, orderId, 'shipped')

    // Alex reconnects first: the change applies.
    ra = a.start()
    await ra.awaitInSync()
    const { data: afterA } = await clientFor(backend, backend.serviceRoleKey)
      .from('orders')
      .select('status')
      .eq('id', orderId)
      .single()
    expect(afterA?.status).toBe('processing')

    // Bea reconnects: her change loses, her device shows the server's state and a notice.
    rb = b.start()
    await rb.awaitInSync()
    await until(async () => (await b.db.order_notices.count().exec()) === 1)
    await until(
      async () => (await b.db.admin_orders.findOne(orderId).exec())?.status === 'processing',
    )
    const notice = await b.db.order_notices.findOne().exec()
    expect(notice?.attemptedTo).toBe('shipped')
    expect(notice?.actualStatus).toBe('processing')
    expect(notice?.message).toContain('was not applied')
    expect(notice?.message).toContain('alex@humo.test')

    const { data: final } = await clientFor(backend, backend.serviceRoleKey)
      .from('orders')
      .select('status, status_history')
      .eq('id', orderId)
      .single()
    expect(final?.status).toBe('processing')
    expect(await a.db.order_notices.count().exec()).toBe(0)
    await Promise.all([ra.cancel(), rb.cancel()])

    // Signing out of the admin takes customer data off the device, and pushes nothing.
    await clearAdminData(b.db)
    expect(await b.db.admin_orders.count().exec()).toBe(0)
    expect(await b.db.order_notices.count().exec()).toBe(0)
    rb = b.start()
    await rb.awaitInSync()
    const { count } = await clientFor(backend, backend.serviceRoleKey)
      .from('orders')
      .select('id', { count: 'exact', head: true })
      .eq('_deleted', false)
    expect(count).toBeGreaterThan(0)
    expect((await b.db.admin_orders.findOne(orderId).exec())?.status).toBe('processing')
    await rb.cancel()
    await Promise.all([a.db.close(), b.db.close()])
  })

  it('pulls again once the server applied a move, so no pull read before it has the last word', async () => {
    const product = await createProduct(backend, { price: 14, quantity: 20 })
    const placed = await placeOrder(
      backend.anon,
      orderInput([{ productId: product.id, quantity: 1 }]),
    )
    const orderId = placed.status === 'accepted' ? placed.order.id : ''
    // What the device asks of the server, in order: a pull read before a move and answered after
    // it would otherwise be written over the move (RxDB takes a pulled state as the newer one
    // whenever nothing is left to push), and the board would keep the old column.
    const calls: string[] = []
    const rpc: RpcClient = {
      rpc: async (fn, args) => {
        calls.push(`${fn} asked`)
        const answer = await alex.client.rpc(fn, args)
        calls.push(`${fn} answered`)
        return answer
      },
    }
    const { db } = await createTestDatabase(undefined, ['admin_orders', 'order_notices'])
    const replication = replicateAdminOrders(rpc, db, { identifier: 'admin-orders-last-word' })
    await replication.awaitInSync()
    expect((await db.admin_orders.findOne(orderId).exec())?.status).toBe('pending')

    calls.length = 0
    await setLocalStatus(db, orderId, 'processing')
    await until(() => Promise.resolve(calls.includes('set_order_status answered')))
    await until(() =>
      Promise.resolve(
        calls
          .slice(calls.indexOf('set_order_status answered'))
          .includes('pull_orders_admin answered'),
      ),
    )
    await replication.awaitInSync()
    expect((await db.admin_orders.findOne(orderId).exec())?.status).toBe('processing')
    expect(calls.filter((c) => c === 'set_order_status asked')).toHaveLength(1)
    await replication.cancel()
    await db.close()
  })

  it('hands an order over only with the ID check, and tells an unchecked move why it was refused', async () => {
    const product = await createProduct(backend, { price: 12, quantity: 20 })
    const placed = await placeOrder(
      backend.anon,
      orderInput([{ productId: product.id, quantity: 1 }]),
    )
    expect(placed.status).toBe('accepted')
    const orderId = placed.status === 'accepted' ? placed.order.id : ''
    const service = clientFor(backend, backend.serviceRoleKey)
    for (const [from, to] of [
      ['pending', 'processing'],
      ['processing', 'shipped'],
    ]) {
      await service.rpc('set_order_status', {
        p_id: orderId,
        p_from: from,
        p_to: to,
        p_driver: driver.id,
      })
    }

    const a = await device(alex, 'id-a')
    let ra = a.start()
    await ra.awaitInitialReplication()
    await until(async () => (await a.db.admin_orders.findOne(orderId).exec())?.status === 'shipped')

    // An old offline client's move (version 0: no check confirmed) is refused with the reason.
    await ra.cancel()
    await (await a.db.admin_orders.findOne(orderId).exec())!.incrementalPatch({
      status: 'delivered',
      idChecked: false,
    })
    ra = a.start()
    await ra.awaitInSync()
    await until(async () => (await a.db.order_notices.count().exec()) === 1)
    await until(async () => (await a.db.admin_orders.findOne(orderId).exec())?.status === 'shipped')
    const notice = await a.db.order_notices.findOne().exec()
    expect(notice?.message).toMatch(/^Order #[0-9A-F]{8} was not moved to Delivered: /)
    expect(notice?.message).toContain('ID checked (21+)')
    expect(notice?.message).not.toContain('already been moved')

    // With the check confirmed on the device, it goes through and the history says who checked.
    await moveOrder(a.db, orderId, 'delivered', {
      idChecked: true,
      idNumber: 'D1234567',
      signature: SIGNATURE,
    })
    await ra.awaitInSync()
    await until(async () => {
      const { data } = await service.from('orders').select('status').eq('id', orderId).single()
      return data?.status === 'delivered'
    })
    ra.nudge()
    await until(async () => {
      const doc = await a.db.admin_orders.findOne(orderId).exec()
      return Boolean(doc?.statusHistory.some((h) => h.idChecked && h.by === 'alex@humo.test'))
    })
    await ra.cancel()
    await a.db.close()
  })

  it('refuses the admin pull to a shopper', async () => {
    const shopper = await createUser(backend)
    const { error } = await shopper.client.rpc('pull_orders_admin', {})
    expect(error?.code).toBe('42501')
  })
})
