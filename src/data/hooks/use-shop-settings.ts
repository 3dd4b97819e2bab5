/**
 * The shop's settings as the device holds them: the money rules for the checkout preview and the
 * facts pages show. Until the first sync brings `shop_settings`, the built-in defaults (SPEC.md's
 * values in src/lib/money.ts and src/lib/shop.ts).
 */
import { useMemo } from 'react'
import { map } from 'rxjs'
import { DEFAULT_MONEY_RULES, type MoneyRules } from '../../lib/money'
import { SHOP, type ShopConfig } from '../../lib/shop'
import { useHumoData } from '../data-context'
import type { HumoDatabase } from '../database'
import { completeFacts, SHOP_SETTINGS_ID } from '../replication/shop-settings-row'
import type { ShopSettingsDoc } from '../schemas/shop-settings.schema'
import { useObservable } from './use-observable'

export type ShopSettings = {
  money: MoneyRules
  facts: ShopConfig
  /** The server's version of the settings shown, or null while they are the built-in ones. */
  serverModified: string | null
}

export const DEFAULT_SHOP_SETTINGS: ShopSettings = {
  money: DEFAULT_MONEY_RULES,
  facts: SHOP,
  serverModified: null,
}

export function shopSettingsOf(doc: ShopSettingsDoc | null | undefined): ShopSettings {
  if (!doc) return DEFAULT_SHOP_SETTINGS
  return {
    money: {
      taxRate: doc.taxRate,
      standardShipping: doc.standardShipping,
      expressDelivery: doc.expressDelivery,
      freeShippingThreshold: doc.freeShippingThreshold,
    },
    facts: completeFacts(doc.facts),
    serverModified: doc.serverModified,
  }
}

/** The settings, live; the same object until the document changes. */
export function shopSettings$(db: HumoDatabase) {
  return db.shop_settings
    .findOne(SHOP_SETTINGS_ID)
    .$.pipe(map((doc) => shopSettingsOf(doc?.toJSON() as ShopSettingsDoc | undefined)))
}

export function useShopSettings(): ShopSettings {
  const { db } = useHumoData()
  const settings$ = useMemo(() => shopSettings$(db), [db])
  return useObservable(settings$, DEFAULT_SHOP_SETTINGS)
}
