// The shop's settings from the server onto a device: pulled into RxDB with the catalogue, live
// after an admin's save (the catalogue change signal triggers the pull), and the cart's totals
// then computed with the new rates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filter, firstValueFrom } from 'rxjs'
import type { HumoDatabase } from '../../src/data/database'
import { shopSettings$ } from '../../src/data/hooks/use-shop-settings'
import { replicateShopSettings } from '../../src/data/replication/catalogue-replication'
import { CATALOGUE_TABLES, watchChanges } from '../../src/data/replication/live-changes'
import { cartViewOf } from '../../src/features/cart/hooks/use-cart'
import type { CartLineDoc } from '../../src/data/schemas/cart-line.schema'
import { SHOP } from '../../src/lib/shop'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../src/lib/shop-hours'
import { startTestBackend, type TestBackend } from '../fixtures/backend'
import { createTestDatabase } from '../fixtures/memory-database'

let backend: TestBackend
let db: HumoDatabase

beforeAll(async () => {
  backend = await startTestBackend()
  db = (await createTestDatabase(undefined, ['shop_settings'])).db
})
afterAll(async () => {
  await db?.close()
  await backend?.close()
})

const line = (price: number, quantity: number) =>
  ({ productId: 'p1', quantity, product: { price } }) as unknown as CartLineDoc

describe('shop settings on the device', () => {
  it('shows the built-in defaults before the first sync, then the synced row', async () => {
    const first = await firstValueFrom(shopSettings$(db))
    expect(first.serverModified).toBeNull()
    expect(first.money.expressDelivery).toBe(19.99)
    expect(first.facts).toEqual(SHOP)
    expect(first.hours).toEqual(DEFAULT_OPENING_HOURS)
    expect(first.pickup).toEqual(DEFAULT_PICKUP_RULES)
    expect(first.orderEmails).toBe(false)

    const replication = replicateShopSettings(backend.anon, db, { live: false })
    await replication.awaitInitialReplication()
    await replication.cancel()
    const synced = await firstValueFrom(shopSettings$(db))
    expect(synced.serverModified).not.toBeNull()
    expect(synced.money).toEqual({
      taxRate: 0.08,
      standardShipping: 9.99,
      expressDelivery: 19.99,
      freeShippingThreshold: 50,
    })
    expect(synced.facts).toEqual(SHOP)
    // The seeded hours are SPEC.md's, as the defaults; the test server has no mail server.
    expect(synced.hours).toEqual(DEFAULT_OPENING_HOURS)
    expect(synced.pickup).toEqual(DEFAULT_PICKUP_RULES)
    expect(synced.orderEmails).toBe(false)
  })

  it("follows an admin's save live, and the cart totals use the new rates", async () => {
    const replication = replicateShopSettings(backend.anon, db, { identifier: 'live' })
    await replication.awaitInitialReplication()
    const stop = watchChanges(backend.anon, 'test-catalogue', CATALOGUE_TABLES, () =>
      replication.nudge(),
    )
    try {
      const saved = await backend.service.rpc('admin_save_shop_settings', {
        p_settings: {
          taxRate: 0.1,
          standardShipping: 5,
          expressDelivery: 29.5,
          freeShippingThreshold: 100,
          facts: { ...SHOP, phone: { display: '(213) 555-0100', e164: '+12135550100' } },
        },
      })
      expect(saved.error).toBeNull()
      const settings = await firstValueFrom(
        shopSettings$(db).pipe(filter((s) => s.money.expressDelivery === 29.5)),
      )
      expect(settings.money).toEqual({
        taxRate: 0.1,
        standardShipping: 5,
        expressDelivery: 29.5,
        freeShippingThreshold: 100,
      })
      expect(settings.facts.phone).toEqual({ display: '(213) 555-0100', e164: '+12135550100' })
      expect(cartViewOf([line(30, 2)], settings.money).totals).toEqual({
        subtotal: 60,
        tax: 6,
        shipping: 5,
        discount: 0,
        total: 71,
      })
    } finally {
      stop()
      await replication.cancel()
    }
  })
})
