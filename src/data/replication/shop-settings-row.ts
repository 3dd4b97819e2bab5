/**
 * Wire shape of `pull_shop_settings` (and of `admin_save_shop_settings`'s answer), and its
 * mapping onto the device document. Facts missing from a row fall back to the built-in ones,
 * field by field, so a device never shows an empty phone number or address.
 */
import type { WithDeleted } from 'rxdb'
import { DEFAULT_MONEY_RULES } from '../../lib/money'
import { SHOP, type OpeningHours, type ShopConfig } from '../../lib/shop'
import type { ShopSettingsDoc } from '../schemas/shop-settings.schema'
import type { WireRow } from './rpc-pull'

export const SHOP_SETTINGS_ID = 'shop'

export type ShopSettingsRow = WireRow & {
  tax_rate?: number | string | null
  standard_shipping?: number | string | null
  express_delivery?: number | string | null
  free_shipping_threshold?: number | string | null
  facts?: Partial<ShopConfig> | null
}

const amount = (value: number | string | null | undefined, fallback: number) => {
  const parsed = typeof value === 'string' ? Number(value) : value
  return typeof parsed === 'number' && Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback
}

const textOr = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value : fallback

const isHoursLine = (line: unknown): line is OpeningHours =>
  typeof line === 'object' &&
  line !== null &&
  typeof (line as OpeningHours).days === 'string' &&
  typeof (line as OpeningHours).hours === 'string'

/** Completes partial facts with the built-in ones. */
export function completeFacts(
  facts: Partial<ShopConfig> | null | undefined,
): ShopSettingsDoc['facts'] {
  const f = facts ?? {}
  const hours = Array.isArray(f.hours) ? (f.hours as unknown[]).filter(isHoursLine) : []
  return {
    name: textOr(f.name, SHOP.name),
    slogan: textOr(f.slogan, SHOP.slogan),
    licenceNumber: textOr(f.licenceNumber, SHOP.licenceNumber),
    phone: {
      display: textOr(f.phone?.display, SHOP.phone.display),
      e164: textOr(f.phone?.e164, SHOP.phone.e164),
    },
    textUpdates: {
      display: textOr(f.textUpdates?.display, SHOP.textUpdates.display),
      e164: textOr(f.textUpdates?.e164, SHOP.textUpdates.e164),
      keyword: textOr(f.textUpdates?.keyword, SHOP.textUpdates.keyword),
    },
    email: textOr(f.email, SHOP.email),
    address: {
      street: textOr(f.address?.street, SHOP.address.street),
      city: textOr(f.address?.city, SHOP.address.city),
      state: textOr(f.address?.state, SHOP.address.state),
      zip: textOr(f.address?.zip, SHOP.address.zip),
      country: textOr(f.address?.country, SHOP.address.country),
    },
    deliveryArea: textOr(f.deliveryArea, SHOP.deliveryArea),
    hours: (hours.length > 0 ? hours : SHOP.hours).map(({ days, hours }) => ({ days, hours })),
  }
}

export function shopSettingsRowToDoc(row: ShopSettingsRow): WithDeleted<ShopSettingsDoc> {
  const d = DEFAULT_MONEY_RULES
  return {
    id: row.id,
    taxRate: Math.min(amount(row.tax_rate, d.taxRate), 1),
    standardShipping: amount(row.standard_shipping, d.standardShipping),
    expressDelivery: amount(row.express_delivery, d.expressDelivery),
    freeShippingThreshold: amount(row.free_shipping_threshold, d.freeShippingThreshold),
    facts: completeFacts(row.facts),
    serverModified: row._modified,
    _deleted: Boolean(row._deleted),
  }
}
