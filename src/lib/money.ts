/**
 * Money rules of the shop (SPEC.md §9 with DESIGN.md §8's deviation: the price asked is charged,
 * `original_price` is only shown struck through): amounts, the subtotal and the delivery fee. An
 * order's taxes and total are src/lib/order-totals.ts (California's taxes in place of SPEC.md's
 * single 8% line, docs/decisions/051-california-taxes-and-daily-limits.md), kept apart so every page that only shows a price does not load
 * the tax rules. The server's `place_order` has the last word; the fee constants are SPEC.md's
 * values, the defaults a device uses until it has synced the settings.
 */
export const FREE_SHIPPING_THRESHOLD = 50
export const STANDARD_SHIPPING = 9.99
export const EXPRESS_DELIVERY = 19.99

export type MoneyRules = {
  freeShippingThreshold: number
  standardShipping: number
  expressDelivery: number
}

export const DEFAULT_MONEY_RULES: MoneyRules = {
  freeShippingThreshold: FREE_SHIPPING_THRESHOLD,
  standardShipping: STANDARD_SHIPPING,
  expressDelivery: EXPRESS_DELIVERY,
}

export type DeliveryMethod = 'standard' | 'express'
export type Fulfilment = 'delivery' | 'pickup'

export type PricedLine = {
  price: number
  quantity: number
  /** Cannabis pays the excise; accessories and merchandise sales tax only. */
  cannabis: boolean
}

export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100
}

// One formatter for every price the shop shows, storefront and admin (issue 33): dollars with
// thousands grouped and cents ("$1,820.32"), minus before the sign ("-$5.00"). Intl is built in,
// so the storefront pays no bytes for it.
const DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

// `|| 0` turns a rounded -0 into 0: no "-$0.00".
export const formatMoney = (value: number | null | undefined): string =>
  DOLLARS.format(roundMoney(value ?? 0) || 0)

export function subtotalOf(lines: readonly Pick<PricedLine, 'price' | 'quantity'>[]): number {
  return roundMoney(lines.reduce((sum, line) => sum + line.price * line.quantity, 0))
}

/** "$50" for whole dollars, "$49.50" otherwise: the threshold in marketing texts. */
export const formatThreshold = (value: number): string => formatMoney(value).replace(/\.00$/, '')

/**
 * Standard delivery is free from the threshold ($50); express always costs its fee; pickup
 * costs nothing.
 */
export function shippingFor(
  subtotal: number,
  method: DeliveryMethod = 'standard',
  fulfilment: Fulfilment = 'delivery',
  rules: MoneyRules = DEFAULT_MONEY_RULES,
): number {
  if (subtotal <= 0 || fulfilment === 'pickup') return 0
  if (method === 'express') return roundMoney(rules.expressDelivery)
  return subtotal >= rules.freeShippingThreshold ? 0 : roundMoney(rules.standardShipping)
}

/** "Add $X more for free shipping!" — how much is missing, or 0. */
export function missingForFreeShipping(
  subtotal: number,
  rules: MoneyRules = DEFAULT_MONEY_RULES,
): number {
  return subtotal > 0 && subtotal < rules.freeShippingThreshold
    ? roundMoney(rules.freeShippingThreshold - subtotal)
    : 0
}

/** Sale percent = round((original - price) / original * 100), only when original exceeds price. */
export function salePercent(price: number, originalPrice: number | null | undefined): number {
  if (!originalPrice || originalPrice <= price) return 0
  return Math.round(((originalPrice - price) / originalPrice) * 100)
}
