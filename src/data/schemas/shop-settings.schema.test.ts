// A device that stored the settings before version 1 (no hours, no pickup rules) opens with
// them filled from the defaults, keeping the rest; the next pull brings the server's own.
import { createRxDatabase } from 'rxdb'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDatabase, testStorage } from '../../../tests/fixtures/memory-database'
import { SHOP } from '../../lib/shop'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../lib/shop-hours'
import type { HumoDatabase } from '../database'
import { shopSettingsOf } from '../hooks/use-shop-settings'
import { completeFacts, shopSettingsRowToDoc } from '../replication/shop-settings-row'
import { shopSettingsSchemaLiteral, type ShopSettingsDoc } from './shop-settings.schema'

let opened: HumoDatabase | undefined
afterEach(async () => {
  await opened?.close()
  opened = undefined
})

/** Version 0 as it shipped: version 1 without the fields it added. */
function versionZeroSchema() {
  const {
    openingHours: _h,
    pickupPrepMinutes: _p,
    pickupSlotMinutes: _s,
    orderEmails: _e,
    ...properties
  } = shopSettingsSchemaLiteral.properties
  void [_h, _p, _s, _e]
  const added = ['openingHours', 'pickupPrepMinutes', 'pickupSlotMinutes', 'orderEmails']
  return {
    ...shopSettingsSchemaLiteral,
    version: 0,
    properties,
    required: shopSettingsSchemaLiteral.required.filter((name) => !added.includes(name)),
  }
}

describe('shop settings schema migration 0 → 1', () => {
  it('fills the hours, pickup rules and email switch with the defaults and keeps the rest', async () => {
    const name = `humo-settings-migration-${process.pid}`
    const old = await createRxDatabase({ name, storage: testStorage(), multiInstance: false })
    await old.addCollections({ shop_settings: { schema: versionZeroSchema() as never } })
    await old.shop_settings!.insert({
      id: 'shop',
      taxRate: 0.095,
      standardShipping: 7,
      expressDelivery: 15,
      freeShippingThreshold: 60,
      facts: completeFacts({ ...SHOP, email: 'old@humo.shop' }),
      serverModified: '2026-11-24T10:00:00.000001+00:00',
    })
    await old.close()

    const { db } = await createTestDatabase(name, ['shop_settings'])
    opened = db
    const doc = (await db.shop_settings.findOne('shop').exec())?.toJSON() as
      ShopSettingsDoc | undefined
    expect(doc).toMatchObject({
      taxRate: 0.095,
      standardShipping: 7,
      serverModified: '2026-11-24T10:00:00.000001+00:00',
      openingHours: DEFAULT_OPENING_HOURS,
      pickupPrepMinutes: DEFAULT_PICKUP_RULES.prepMinutes,
      pickupSlotMinutes: DEFAULT_PICKUP_RULES.slotMinutes,
      orderEmails: false,
    })
    expect(doc?.facts.email).toBe('old@humo.shop')
    const settings = shopSettingsOf(doc)
    expect(settings.hours).toEqual(DEFAULT_OPENING_HOURS)
    expect(settings.pickup).toEqual(DEFAULT_PICKUP_RULES)
    expect(settings.money.taxRate).toBe(0.095)
  })
})

describe('shop settings schema version 1', () => {
  it('stores a week with a closed day and refuses one that is not seven days', async () => {
    const { db } = await createTestDatabase(undefined, ['shop_settings'])
    opened = db
    const hours = [null, ...DEFAULT_OPENING_HOURS.slice(1)]
    const { _deleted, ...doc } = shopSettingsRowToDoc({
      id: 'shop',
      _modified: '2026-11-25T10:00:00.000001+00:00',
      _deleted: false,
      opening_hours: hours,
    })
    void _deleted
    await db.shop_settings.insert(doc)
    const stored = (await db.shop_settings.findOne('shop').exec())?.toJSON() as
      ShopSettingsDoc | undefined
    expect(shopSettingsOf(stored).hours).toEqual(hours)
    await expect(
      db.shop_settings.upsert({ ...doc, openingHours: hours.slice(1) }),
    ).rejects.toThrow()
  })
})
