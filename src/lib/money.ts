/**
 * Money rules of the shop (SPEC.md §9 with DESIGN.md §8's deviation: the price asked is charged,
 * `original_price` is only shown struck through). The server's `place_order` applies the same
 * rules with the rates staff set in Admin Settings (`shop_settings`) and has the last word; these
 * give the shopper an honest preview. The constants are SPEC.md's values: the defaults a device
 * uses until it has synced the shop's settings.
 */
export const TAX_RATE = 0.08
export const FREE_SHIPPING_THRESHOLD = 50
export const STANDARD_SHIPPING = 9.99
export const EXPRESS_DELIVERY = 19.99

export type MoneyRules = {
  /** A fraction: 0.08 is 8%. */
  taxRate: number
  freeShippingThreshold: number
  standardShipping: number
  expressDelivery: number
}

export const DEFAULT_MONEY_RULES: MoneyRules = {
  taxRate: TAX_RATE,
  freeShippingThreshold: FREE_SHIPPING_THRESHOLD,
  standardShipping: STANDARD_SHIPPING,
  expressDelivery: EXPRESS_DELIVERY,
}

export type DeliveryMethod = 'standard' | 'express'
export type Fulfilment = 'delivery' | 'pickup'

export type PricedLine = { price: number; quantity: number }

export type Totals = {
  subtotal: number
  tax: number
  shipping: number
  discount: number
  total: number
}

export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100
}

export function formatMoney(value: number | null | undefined): string {
  return `$${roundMoney(value ?? 0).toFixed(2)}`
}

export function subtotalOf(lines: readonly PricedLine[]): number {
  return roundMoney(lines.reduce((sum, line) => sum + line.price * line.quantity, 0))
}

/**
 * Tax in cents, rounded half up like Postgres's `round(subtotal * tax_rate, 2)` in place_order
 * (the rate is stored with 5 decimals). Integer arithmetic, so 8.875% of $22 is $1.95 as on the
 * server, not whatever a binary float makes of 1.9525.
 */
export function taxOf(subtotal: number, taxRate: number): number {
  const cents = Math.round(subtotal * 100)
  const rate = Math.round(taxRate * 100_000)
  return Math.floor((cents * rate + 50_000) / 100_000) / 100
}

/** "$50" for whole dollars, "$49.50" otherwise: the threshold in marketing texts. */
export function formatThreshold(value: number): string {
  const rounded = roundMoney(value)
  return Number.isInteger(rounded) ? `$${rounded}` : formatMoney(rounded)
}

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

export function totalsFor(
  lines: readonly PricedLine[],
  method: DeliveryMethod = 'standard',
  fulfilment: Fulfilment = 'delivery',
  rules: MoneyRules = DEFAULT_MONEY_RULES,
): Totals {
  const subtotal = subtotalOf(lines)
  const tax = taxOf(subtotal, rules.taxRate)
  const shipping = shippingFor(subtotal, method, fulfilment, rules)
  const discount = 0
  return {
    subtotal,
    tax,
    shipping,
    discount,
    total: roundMoney(subtotal + tax + shipping - discount),
  }
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
