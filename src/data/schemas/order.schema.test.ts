// The order schema's migration on a real (fake-indexeddb) Dexie store: a device that stored
// orders under version 0 opens version 1 and keeps every one, a queued order above all.
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { addRxPlugin, createRxDatabase, type RxJsonSchema } from 'rxdb'
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema'
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie'
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv'
import { describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../tests/fixtures/memory-database'
import { orderSchemaLiteral } from './order.schema'

addRxPlugin(RxDBMigrationSchemaPlugin)

/** Version 0 as it shipped: card or cash, no window, topic or check time. */
const v0 = (() => {
  const properties: Record<string, unknown> = { ...orderSchemaLiteral.properties }
  delete properties.pickupWindow
  delete properties.channel
  delete properties.statusCheckedAt
  delete properties.customerKind
  delete properties.mmic
  properties.paymentMethod = { type: 'string', enum: ['card', 'cash'] }
  const required = orderSchemaLiteral.required.filter((name) => name !== 'customerKind')
  return {
    ...orderSchemaLiteral,
    version: 0,
    properties,
    required,
  } as unknown as RxJsonSchema<object>
})()

const base = {
  secret: 's'.repeat(48),
  status: 'pending',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  refusal: null,
  customer: { email: 'a@b.co', firstName: 'A', lastName: 'B', phone: '1' },
  fulfilment: 'pickup',
  deliveryMethod: 'standard',
  shippingAddress: null,
  billingAddress: null,
  cardLast4: null,
  items: [{ productId: 'p1', name: 'P', unitPrice: 10, quantity: 2 }],
  totals: { subtotal: 20, tax: 1.6, shipping: 0, discount: 0, total: 21.6 },
  totalsFrom: 'preview',
  estimatedDelivery: null,
  statusHistory: [{ status: 'pending', at: '2026-11-22T00:00:00Z' }],
  cartRestoredAt: null,
  createdAt: '2026-11-22T00:00:00Z',
  updatedAt: '2026-11-22T00:00:00Z',
}

describe('order schema migration', () => {
  it('carries every version 0 order over to today’s version, the queued one included', async () => {
    const name = `humo-order-migration-${process.pid}`
    const storage = wrappedValidateAjvStorage({
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    })
    const old = await createRxDatabase({ name, storage, multiInstance: false })
    await old.addCollections({ orders: { schema: v0 } })
    await old.orders!.bulkInsert([
      { ...base, id: 'queued-1', sync: 'queued', paymentMethod: 'cash' },
      { ...base, id: 'accepted-1', sync: 'accepted', paymentMethod: 'card', totalsFrom: 'server' },
    ] as never[])
    await old.close()

    const { db } = await createTestDatabase(name, ['orders'])
    const queued = (await db.orders.findOne('queued-1').exec())?.toJSON()
    const accepted = (await db.orders.findOne('accepted-1').exec())?.toJSON()
    expect(queued).toMatchObject({
      sync: 'queued',
      paymentMethod: 'cash',
      pickupWindow: null,
      channel: null,
      statusCheckedAt: null,
      items: base.items,
      secret: base.secret,
      // Version 2: every order before was adult use, priced with its one "Tax".
      customerKind: 'adult',
      mmic: null,
      totals: base.totals,
    })
    expect(accepted).toMatchObject({
      sync: 'accepted',
      paymentMethod: 'debit',
      statusCheckedAt: base.updatedAt,
    })
    await db.close()
  })
})
