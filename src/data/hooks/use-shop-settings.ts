/**
 * The shop's settings as the device holds them: the money rules for the checkout preview, the
 * facts pages show, the opening hours and pickup rules (docs/decisions/018-order-after-checkout.md) and whether the server
 * sends order emails. Until the first sync brings `shop_settings`, the built-in defaults
 * (SPEC.md's values in src/lib/money.ts, src/lib/shop.ts and src/lib/shop-hours.ts).
 */
import { useMemo } from 'react'
import { map } from 'rxjs'
import type { ComplianceRule } from '../../lib/compliance-rules'
import { DEFAULT_MONEY_RULES, type MoneyRules } from '../../lib/money'
import { SHOP, type ShopConfig } from '../../lib/shop'
import {
  DEFAULT_OPENING_HOURS,
  DEFAULT_PICKUP_RULES,
  type PickupRules,
  type WeeklyHours,
} from '../../lib/shop-hours'
import { useHumoData } from '../data-context'
import type { HumoDatabase } from '../database'
import {
  completeFacts,
  minutesOr,
  openingHoursOf,
  SHOP_SETTINGS_ID,
} from '../replication/shop-settings-row'
import {
  DEFAULT_UNACCEPTED_ORDER_HOURS,
  type ShopSettingsDoc,
} from '../schemas/shop-settings.schema'
import { useObservable } from './use-observable'

export type ShopSettings = {
  money: MoneyRules
  facts: ShopConfig
  /** Seven days, Sunday first, in the shop's time zone. */
  hours: WeeklyHours
  pickup: PickupRules
  /** The server sends order emails (it has a mail server); only then may a screen promise one. */
  orderEmails: boolean
  /** Opening hours staff have to accept an order before it is cancelled (docs/decisions/026-rate-limits-and-unaccepted-orders.md). */
  unacceptedOrderHours: number
  /**
   * California's tax rates and daily limits with their dates (docs/decisions/051-california-taxes-and-daily-limits.md); empty until the
   * first sync brings them (whoever computes with them falls back on src/lib/compliance-defaults).
   */
  rules: readonly ComplianceRule[]
  /** The server's version of the settings shown, or null while they are the built-in ones. */
  serverModified: string | null
}

export const DEFAULT_SHOP_SETTINGS: ShopSettings = {
  money: DEFAULT_MONEY_RULES,
  facts: SHOP,
  hours: DEFAULT_OPENING_HOURS,
  pickup: DEFAULT_PICKUP_RULES,
  orderEmails: false,
  unacceptedOrderHours: DEFAULT_UNACCEPTED_ORDER_HOURS,
  rules: [],
  serverModified: null,
}

export function shopSettingsOf(doc: ShopSettingsDoc | null | undefined): ShopSettings {
  if (!doc) return DEFAULT_SHOP_SETTINGS
  return {
    money: {
      standardShipping: doc.standardShipping,
      expressDelivery: doc.expressDelivery,
      freeShippingThreshold: doc.freeShippingThreshold,
    },
    facts: completeFacts(doc.facts),
    // Checked again: a document written before version 1's checks is still read safely.
    hours: openingHoursOf(doc.openingHours),
    pickup: {
      prepMinutes: minutesOr(doc.pickupPrepMinutes, DEFAULT_PICKUP_RULES.prepMinutes, 0, 1440),
      slotMinutes: minutesOr(doc.pickupSlotMinutes, DEFAULT_PICKUP_RULES.slotMinutes, 5, 1440),
    },
    orderEmails: doc.orderEmails === true,
    unacceptedOrderHours: minutesOr(
      doc.unacceptedOrderHours,
      DEFAULT_UNACCEPTED_ORDER_HOURS,
      1,
      168,
    ),
    rules: (doc.complianceRules ?? []) as ComplianceRule[],
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
