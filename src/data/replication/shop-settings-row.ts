/**
 * Wire shape of `pull_shop_settings` (and of `admin_save_shop_settings`'s answer), and the checks
 * of its parts that every page's settings also use (the whole row's mapping onto the device
 * document is ./shop-settings-doc.ts, which only the replication loads). Facts missing from a row fall back to the built-in ones,
 * field by field, so a device never shows an empty phone number or address; so do the opening
 * hours and pickup rules (a bad or missing value never breaks a device: it keeps the defaults).
 */
import { SHOP, type OpeningHours, type ShopConfig } from '../../lib/shop'
import {
  DEFAULT_OPENING_HOURS,
  isValidDay,
  type DayHours,
  type WeeklyHours,
} from '../../lib/shop-hours'
import type { ShopSettingsDoc } from '../schemas/shop-settings.schema'
import type { WireRow } from './rpc-pull'

export const SHOP_SETTINGS_ID = 'shop'

export type ShopSettingsRow = WireRow & {
  tax_rate?: number | string | null
  standard_shipping?: number | string | null
  express_delivery?: number | string | null
  free_shipping_threshold?: number | string | null
  facts?: Partial<ShopConfig> | null
  /** Seven entries, Sunday first, each null (closed) or {open, close} as "HH:MM". */
  opening_hours?: unknown
  pickup_prep_minutes?: unknown
  pickup_slot_minutes?: unknown
  order_emails?: unknown
  unaccepted_order_hours?: unknown
  /** California's rates and limits with their dates (docs/decisions/051-california-taxes-and-daily-limits.md). */
  compliance_rules?: unknown
}

export const amount = (value: number | string | null | undefined, fallback: number) => {
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

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/

function dayOf(value: unknown): DayHours | undefined {
  if (value === null) return null
  if (typeof value !== 'object' || Array.isArray(value)) return undefined
  const { open, close } = value as { open?: unknown; close?: unknown }
  if (typeof open !== 'string' || typeof close !== 'string') return undefined
  if (!HHMM.test(open) || !HHMM.test(close)) return undefined
  const day = { open, close }
  return isValidDay(day) ? day : undefined
}

/**
 * The week's hours, or the defaults when the value is not seven valid days: one bad day would
 * make the rest of the week a guess, so the whole week falls back.
 */
export function openingHoursOf(value: unknown): ShopSettingsDoc['openingHours'] {
  const fallback = () => copyHours(DEFAULT_OPENING_HOURS)
  if (!Array.isArray(value) || value.length !== 7) return fallback()
  const days = value.map(dayOf)
  if (days.some((day) => day === undefined)) return fallback()
  return copyHours(days as DayHours[])
}

/** A mutable copy, as RxDB stores it. */
export function copyHours(hours: WeeklyHours): ShopSettingsDoc['openingHours'] {
  return hours.map((day) => (day ? { open: day.open, close: day.close } : null))
}

/** Whole minutes within [min, max], or the fallback. */
export function minutesOr(value: unknown, fallback: number, min: number, max: number): number {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof parsed === 'number' && Number.isInteger(parsed) && parsed >= min && parsed <= max
    ? parsed
    : fallback
}
