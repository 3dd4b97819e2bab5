// The shop's settings from the server onto a device: pulled into RxDB with the catalogue, live
// after an admin's save (the catalogue change signal triggers the pull), and the cart's totals
// then computed with the new fees and tax rates (docs/decisions/051-california-taxes-and-daily-limits.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filter, firstValueFrom } from 'rxjs'
import type { HumoDatabase } from '../../src/data/database'
import { shopSettings$ } from '../../src/data/hooks/use-shop-settings'
import { replicateShopSettings } from '../../src/data/replication/catalogue-replication'
import { CATALOGUE_TABLES, watchChanges } from '../../src/data/replication/live-changes'
import { cartViewOf } from '../../src/data/cart-view'
import { shopDate } from '../../src/lib/compliance-rules'
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
  ({ productId: 'p1', quantity, product: { price, isCannabis: true } }) as unknown as CartLineDoc

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
      // A new excise rate in force today (as Admin Settings enters it), then the fees: the
      // device prices with both.
      await backend.db.query(
        `insert into public.compliance_rules (rule, value, effective_from) values ('excise_rate', 0.2, $1)`,
        [shopDate()],
      )
      const saved = await backend.service.rpc('admin_save_shop_settings', {
        p_settings: {
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
        standardShipping: 5,
        expressDelivery: 29.5,
        freeShippingThreshold: 100,
      })
      expect(settings.facts.phone).toEqual({ display: '(213) 555-0100', e164: '+12135550100' })
      // $60 of cannabis delivered for $5: excise 20% of $65, sales tax 9.75% of $78.
      const totals = cartViewOf([line(30, 2)], {
        money: settings.money,
        rules: settings.rules,
      }).totals
      expect(totals.taxLines.map((l) => [l.label, l.amount])).toEqual([
        ['Cannabis excise tax (20%)', 13],
        ['Sales tax (9.75%)', 7.61],
      ])
      expect(totals).toMatchObject({ subtotal: 60, tax: 20.61, shipping: 5, total: 85.61 })
    } finally {
      stop()
      await replication.cancel()
    }
  })
})
