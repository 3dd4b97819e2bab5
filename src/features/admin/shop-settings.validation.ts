/**
 * The Admin Settings form: the shop's facts and money rules as text fields, turned by valibot
 * into what `admin_save_shop_settings` takes. The tax rate is typed as a percent (8 for 8%) and
 * sent as a fraction; phone numbers are typed as people write them and also sent in E.164 for
 * the tel: and sms: links. The server checks the same rules again and has the last word.
 */
import * as v from 'valibot'
import type { MoneyRules } from '../../lib/money'
import type { ShopConfig } from '../../lib/shop'
import { issuesByField } from './admin.validation'

export const MAX_TAX_PERCENT = 25
export const MAX_FEE = 1000
export const MAX_THRESHOLD = 100000
export const MAX_HOURS_LINES = 7

export type HoursLine = { days: string; hours: string }

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
  hours: HoursLine[]
  taxPercent: string
  standardShipping: string
  expressDelivery: string
  freeShippingThreshold: string
}

export type ShopSettingsField = Exclude<keyof ShopSettingsForm, 'hours'>

/** What the server takes (`admin_save_shop_settings`). */
export type ShopSettingsPayload = MoneyRules & { facts: ShopConfig }

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
  hours: v.pipe(
    v.array(v.object({ days: required('Days', 40), hours: required('Hours', 60) })),
    v.minLength(1, 'Add at least one line of opening hours'),
    v.maxLength(MAX_HOURS_LINES, `At most ${MAX_HOURS_LINES} lines of opening hours`),
  ),
  taxPercent: amount('Tax rate', MAX_TAX_PERCENT, 3, 'Tax rate must be between 0% and 25%'),
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

/** The form as it opens: the settings the device holds. */
export function formFromSettings(facts: ShopConfig, money: MoneyRules): ShopSettingsForm {
  // 0.08875 * 100 is 8.875000000000002 in binary floats; the rate has at most 5 decimals.
  const percent = Math.round(money.taxRate * 100_000) / 1000
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
    hours: facts.hours.map(({ days, hours }) => ({ days, hours })),
    taxPercent: String(percent),
    standardShipping: money.standardShipping.toFixed(2),
    expressDelivery: money.expressDelivery.toFixed(2),
    freeShippingThreshold: String(money.freeShippingThreshold),
  }
}

/** Errors are keyed by field (`hours.0.days` for a line of hours; `hours` for the list). */
export function validateShopSettings(
  form: ShopSettingsForm,
): { ok: true; payload: ShopSettingsPayload } | { ok: false; errors: Record<string, string> } {
  const result = v.safeParse(shopSettingsFormSchema, form)
  if (!result.success) return { ok: false, errors: issuesByField(result.issues) }
  const o = result.output
  return {
    ok: true,
    payload: {
      taxRate: Math.round(o.taxPercent * 1000) / 100_000,
      standardShipping: o.standardShipping,
      expressDelivery: o.expressDelivery,
      freeShippingThreshold: o.freeShippingThreshold,
      facts: {
        name: o.name,
        slogan: o.slogan,
        licenceNumber: o.licenceNumber,
        phone: o.phone,
        textUpdates: { ...o.textUpdatesPhone, keyword: o.textUpdatesKeyword },
        email: o.email,
        address: { street: o.street, city: o.city, state: o.state, zip: o.zip, country: o.country },
        deliveryArea: o.deliveryArea,
        hours: o.hours,
      },
    },
  }
}
