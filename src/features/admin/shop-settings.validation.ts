/**
 * The Admin Settings form: the shop's facts and money rules as text fields, turned by valibot
 * into what `admin_save_shop_settings` takes. The tax rate is typed as a percent (8 for 8%) and
 * sent as a fraction; phone numbers are typed as people write them and also sent in E.164 for
 * the tel: and sms: links. The server checks the same rules again and has the last word.
 *
 * The opening hours are data (docs/decisions/018-order-after-checkout.md): seven days, each closed or open from a time to a
 * time in the shop's time zone; pickup windows are cut from them. The hours lines the contact page
 * shows are derived from them (hoursLines), so the two never disagree.
 */
import * as v from 'valibot'
import type { MoneyRules } from '../../lib/money'
import type { ShopConfig } from '../../lib/shop'
import { isValidDay, type DayHours, type PickupRules, type WeeklyHours } from '../../lib/shop-hours'
import { hoursLines } from '../../lib/pickup-windows'
import { DEFAULT_UNACCEPTED_ORDER_HOURS } from '../../data/schemas/shop-settings.schema'
import { issuesByField } from './admin.validation'

export const MAX_FEE = 1000
export const MAX_THRESHOLD = 100000
export const MAX_PREP_MINUTES = 720
/** The window lengths the server accepts (admin_save_shop_settings). */
export const PICKUP_SLOT_CHOICES = [15, 20, 30, 45, 60, 90, 120] as const

export const DAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const
/** The editor lists the week Monday first; the data is Sunday first (Date#getDay). */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const

/** One day as the form edits it; the times are kept while the day is closed. */
export type DayForm = { closed: boolean; open: string; close: string }

export type ShopSettingsForm = {
  name: string
  slogan: string
  licenceNumber: string
  phone: string
  textUpdatesPhone: string
  textUpdatesKeyword: string
  email: string
  street: string
  city: string
  state: string
  zip: string
  country: string
  deliveryArea: string
  /** Seven days, Sunday first. */
  openingHours: DayForm[]
  pickupPrepMinutes: string
  pickupSlotMinutes: string
  /** Opening hours before a pending order nobody accepted is cancelled (docs/decisions/026-rate-limits-and-unaccepted-orders.md). */
  unacceptedOrderHours: string
  standardShipping: string
  expressDelivery: string
  freeShippingThreshold: string
}

export type ShopSettingsField = Exclude<
  keyof ShopSettingsForm,
  'openingHours' | 'pickupSlotMinutes'
>

/** What the server takes (`admin_save_shop_settings`). */
export type ShopSettingsPayload = MoneyRules & {
  facts: ShopConfig
  openingHours: DayHours[]
  pickupPrepMinutes: number
  pickupSlotMinutes: number
  unacceptedOrderHours: number
}

const required = (label: string, max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(`${label} is required`),
    v.maxLength(max, `${label} is too long (at most ${max} characters)`),
  )

/** A US phone number as typed, kept for display, with its E.164 form. */
const usPhone = (label: string) =>
  v.pipe(
    required(label, 30),
    v.check(
      (text) => /^1?\d{10}$/.test(text.replace(/\D/g, '')),
      `${label} must be a US number with 10 digits`,
    ),
    v.transform((display) => ({ display, e164: `+1${display.replace(/\D/g, '').slice(-10)}` })),
  )

/** A number typed as text ("9.99", "$9.99"), within [0, max], with at most `places` decimals. */
const amount = (label: string, max: number, places: number, range: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(`${label} is required`),
    v.regex(/^-?\$?(\d+\.?\d*|\.\d+)$/, `${label} must be a number`),
    v.transform((text) => Number(text.replace('$', ''))),
    v.minValue(0, range),
    v.maxValue(max, range),
    v.check(
      (n) => Math.abs(Math.round(n * 10 ** places) - n * 10 ** places) < 1e-6,
      `${label} can have at most ${places} decimals`,
    ),
  )

export const shopSettingsFormSchema = v.object({
  name: required('Shop name', 60),
  slogan: required('Slogan', 120),
  licenceNumber: required('Licence number', 40),
  phone: usPhone('Phone'),
  textUpdatesPhone: usPhone('Text updates number'),
  textUpdatesKeyword: v.pipe(
    required('Text keyword', 20),
    v.regex(/^[A-Za-z0-9]+$/, 'Text keyword must be one word of letters and digits'),
    v.toUpperCase(),
  ),
  email: v.pipe(required('Email', 254), v.email('Email must be a valid email address')),
  street: required('Street', 120),
  city: required('City', 80),
  state: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^[A-Za-z]{2}$/, 'State must be a two-letter state code'),
    v.toUpperCase(),
  ),
  zip: v.pipe(v.string(), v.trim(), v.regex(/^\d{5}$/, 'ZIP code must be 5 digits')),
  country: required('Country', 60),
  deliveryArea: required('Delivery area', 200),
  openingHours: v.pipe(
    v.array(v.object({ closed: v.boolean(), open: v.string(), close: v.string() })),
    v.length(7, 'Opening hours need 7 days'),
  ),
  pickupPrepMinutes: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Preparation time is required'),
    v.regex(/^\d+$/, 'Preparation time must be a whole number of minutes'),
    v.transform(Number),
    v.maxValue(
      MAX_PREP_MINUTES,
      `Preparation time must be between 0 and ${MAX_PREP_MINUTES} minutes`,
    ),
  ),
  pickupSlotMinutes: v.pipe(
    v.string(),
    v.transform(Number),
    v.check(
      (n) => (PICKUP_SLOT_CHOICES as readonly number[]).includes(n),
      `Pickup window length must be ${PICKUP_SLOT_CHOICES.join(', ')} minutes`,
    ),
  ),
  unacceptedOrderHours: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Time to accept an order is required'),
    v.regex(/^\d+$/, 'Time to accept an order must be a whole number of hours'),
    v.transform(Number),
    v.minValue(1, 'Time to accept an order must be between 1 and 168 opening hours'),
    v.maxValue(168, 'Time to accept an order must be between 1 and 168 opening hours'),
  ),
  standardShipping: amount(
    'Standard delivery fee',
    MAX_FEE,
    2,
    `Standard delivery fee must be between $0 and $${MAX_FEE}`,
  ),
  expressDelivery: amount(
    'Express delivery fee',
    MAX_FEE,
    2,
    `Express delivery fee must be between $0 and $${MAX_FEE}`,
  ),
  freeShippingThreshold: amount(
    'Free delivery threshold',
    MAX_THRESHOLD,
    2,
    `Free delivery threshold must be between $0 and $${MAX_THRESHOLD}`,
  ),
})

const DEFAULT_DAY = { open: '10:00', close: '18:00' }

export function dayForm(day: DayHours | undefined): DayForm {
  return day ? { closed: false, ...day } : { closed: true, ...DEFAULT_DAY }
}

/** "Monday: the shop must open before it closes"; null when the day is fine. */
export function dayError(index: number, day: DayForm): string | null {
  if (day.closed) return null
  const name = DAY_NAMES[index] ?? 'That day'
  if (!/^\d{2}:\d{2}$/.test(day.open) || !/^\d{2}:\d{2}$/.test(day.close)) {
    return `${name}: enter the opening and closing times`
  }
  return isValidDay({ open: day.open, close: day.close })
    ? null
    : `${name}: the shop must open before it closes`
}

export function hoursOfForm(days: readonly DayForm[]): DayHours[] {
  return days.map((d) => (d.closed ? null : { open: d.open, close: d.close }))
}

/** The form as it opens: the settings the device holds. */
export function formFromSettings(
  facts: ShopConfig,
  money: MoneyRules,
  hours: WeeklyHours,
  pickup: PickupRules,
  unacceptedOrderHours: number = DEFAULT_UNACCEPTED_ORDER_HOURS,
): ShopSettingsForm {
  return {
    name: facts.name,
    slogan: facts.slogan,
    licenceNumber: facts.licenceNumber,
    phone: facts.phone.display,
    textUpdatesPhone: facts.textUpdates.display,
    textUpdatesKeyword: facts.textUpdates.keyword,
    email: facts.email,
    street: facts.address.street,
    city: facts.address.city,
    state: facts.address.state,
    zip: facts.address.zip,
    country: facts.address.country,
    deliveryArea: facts.deliveryArea,
    openingHours: Array.from({ length: 7 }, (_, i) => dayForm(hours[i])),
    pickupPrepMinutes: String(pickup.prepMinutes),
    pickupSlotMinutes: String(pickup.slotMinutes),
    unacceptedOrderHours: String(unacceptedOrderHours),
    standardShipping: money.standardShipping.toFixed(2),
    expressDelivery: money.expressDelivery.toFixed(2),
    freeShippingThreshold: String(money.freeShippingThreshold),
  }
}

/** Errors are keyed by field (`openingHours.1` for Monday's hours). */
export function validateShopSettings(
  form: ShopSettingsForm,
): { ok: true; payload: ShopSettingsPayload } | { ok: false; errors: Record<string, string> } {
  const result = v.safeParse(shopSettingsFormSchema, form)
  const errors = result.success ? {} : issuesByField(result.issues)
  form.openingHours.forEach((day, i) => {
    const error = dayError(i, day)
    if (error) errors[`openingHours.${i}`] ??= error
  })
  if (!result.success || Object.keys(errors).length > 0) return { ok: false, errors }
  const o = result.output
  const openingHours = hoursOfForm(o.openingHours)
  return {
    ok: true,
    payload: {
      standardShipping: o.standardShipping,
      expressDelivery: o.expressDelivery,
      freeShippingThreshold: o.freeShippingThreshold,
      openingHours,
      pickupPrepMinutes: o.pickupPrepMinutes,
      pickupSlotMinutes: o.pickupSlotMinutes,
      unacceptedOrderHours: o.unacceptedOrderHours,
      facts: {
        name: o.name,
        slogan: o.slogan,
        licenceNumber: o.licenceNumber,
        phone: o.phone,
        textUpdates: { ...o.textUpdatesPhone, keyword: o.textUpdatesKeyword },
        email: o.email,
        address: { street: o.street, city: o.city, state: o.state, zip: o.zip, country: o.country },
        deliveryArea: o.deliveryArea,
        hours: hoursLines(openingHours),
      },
    },
  }
}
