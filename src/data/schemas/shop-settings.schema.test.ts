// A device that stored the settings before version 1 (no hours, no pickup rules) opens with
// them filled from the defaults, keeping the rest; the next pull brings the server's own.
import { createRxDatabase } from 'rxdb'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDatabase, testStorage } from '../../../tests/fixtures/memory-database'
import { SHOP } from '../../lib/shop'
import { DEFAULT_OPENING_HOURS, DEFAULT_PICKUP_RULES } from '../../lib/shop-hours'
import type { HumoDatabase } from '../database'
import { shopSettingsOf } from '../hooks/use-shop-settings'
import { shopSettingsRowToDoc } from '../replication/shop-settings-doc'
import { completeFacts } from '../replication/shop-settings-row'
import {
  DEFAULT_UNACCEPTED_ORDER_HOURS,
  shopSettingsSchemaLiteral,
  type ShopSettingsDoc,
} from './shop-settings.schema'

let opened: HumoDatabase | undefined
afterEach(async () => {
  await opened?.close()
  opened = undefined
})

/** Version 0 as it shipped: today's version without the fields versions 1 to 3 added. */
function versionZeroSchema() {
  const {
    openingHours: _h,
    pickupPrepMinutes: _p,
    pickupSlotMinutes: _s,
    orderEmails: _e,
    unacceptedOrderHours: _u,
    complianceRules: _c,
    ...properties
  } = shopSettingsSchemaLiteral.properties
  void [_h, _p, _s, _e, _u, _c]
  const added = [
    'openingHours',
    'pickupPrepMinutes',
    'pickupSlotMinutes',
    'orderEmails',
    'unacceptedOrderHours',
    'complianceRules',
  ]
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
      unacceptedOrderHours: DEFAULT_UNACCEPTED_ORDER_HOURS,
      // Version 3: none until the next pull brings the shop's (prices use the built-in ones).
      complianceRules: [],
    })
    expect(doc?.facts.email).toBe('old@humo.shop')
    const settings = shopSettingsOf(doc)
    expect(settings.hours).toEqual(DEFAULT_OPENING_HOURS)
    expect(settings.pickup).toEqual(DEFAULT_PICKUP_RULES)
    expect(doc?.taxRate).toBe(0.095)
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

/** Version 1 as it shipped: version 2 without the time to accept an order. */
function versionOneSchema() {
  const { unacceptedOrderHours: _u, ...properties } = shopSettingsSchemaLiteral.properties
  void _u
  return {
    ...shopSettingsSchemaLiteral,
    version: 1,
    properties,
    required: shopSettingsSchemaLiteral.required.filter((n) => n !== 'unacceptedOrderHours'),
  }
}

describe('shop settings schema migration 1 → 2', () => {
  it('adds the time to accept an order with its default and keeps the rest', async () => {
    const name = `humo-settings-migration-2-${process.pid}`
    const old = await createRxDatabase({ name, storage: testStorage(), multiInstance: false })
    await old.addCollections({
      shop_settings: {
        schema: versionOneSchema() as never,
        migrationStrategies: { 1: (doc: Record<string, unknown>) => doc },
      },
    })
    const { unacceptedOrderHours: _u, ...v1 } = shopSettingsRowToDoc({
      id: 'shop',
      _modified: '2026-11-25T10:00:00.000001+00:00',
      _deleted: false,
      pickup_prep_minutes: 45,
    })
    void _u
    const { _deleted, ...stored } = v1
    void _deleted
    await old.shop_settings!.insert(stored)
    await old.close()

    const { db } = await createTestDatabase(name, ['shop_settings'])
    opened = db
    const doc = (await db.shop_settings.findOne('shop').exec())?.toJSON() as
      ShopSettingsDoc | undefined
    expect(doc?.unacceptedOrderHours).toBe(DEFAULT_UNACCEPTED_ORDER_HOURS)
    expect(doc?.pickupPrepMinutes).toBe(45)
    expect(shopSettingsOf(doc).unacceptedOrderHours).toBe(DEFAULT_UNACCEPTED_ORDER_HOURS)
  })

  it("takes the server's value from the pull, and the default for a bad one", () => {
    const row = (value: unknown) =>
      shopSettingsRowToDoc({
        id: 'shop',
        _modified: '2026-11-25T10:00:00.000001+00:00',
        _deleted: false,
        unaccepted_order_hours: value,
      }).unacceptedOrderHours
    expect(row(24)).toBe(24)
    expect(row(0)).toBe(DEFAULT_UNACCEPTED_ORDER_HOURS)
    expect(row('x')).toBe(DEFAULT_UNACCEPTED_ORDER_HOURS)
    expect(row(undefined)).toBe(DEFAULT_UNACCEPTED_ORDER_HOURS)
  })
})
