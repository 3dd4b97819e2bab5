/**
 * Money rules of the shop (SPEC.md §9 with DESIGN.md §8's deviation: the price asked is charged,
 * `original_price` is only shown struck through). The server's `place_order` applies the same
 * rules and has the last word; these give the shopper an honest preview.
 */
export const TAX_RATE = 0.08
export const FREE_SHIPPING_THRESHOLD = 50
export const STANDARD_SHIPPING = 9.99
export const EXPRESS_DELIVERY = 19.99

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

/** Standard delivery is free from $50; express always costs its fee; pickup costs nothing. */
export function shippingFor(
  subtotal: number,
  method: DeliveryMethod = 'standard',
  fulfilment: Fulfilment = 'delivery',
): number {
  if (subtotal <= 0 || fulfilment === 'pickup') return 0
  if (method === 'express') return EXPRESS_DELIVERY
  return subtotal >= FREE_SHIPPING_THRESHOLD ? 0 : STANDARD_SHIPPING
}

export function totalsFor(
  lines: readonly PricedLine[],
  method: DeliveryMethod = 'standard',
  fulfilment: Fulfilment = 'delivery',
): Totals {
  const subtotal = subtotalOf(lines)
  const tax = roundMoney(subtotal * TAX_RATE)
  const shipping = shippingFor(subtotal, method, fulfilment)
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
export function missingForFreeShipping(subtotal: number): number {
  return subtotal > 0 && subtotal < FREE_SHIPPING_THRESHOLD
    ? roundMoney(FREE_SHIPPING_THRESHOLD - subtotal)
    : 0
}

/** Sale percent = round((original - price) / original * 100), only when original exceeds price. */
export function salePercent(price: number, originalPrice: number | null | undefined): number {
  if (!originalPrice || originalPrice <= price) return 0
  return Math.round(((originalPrice - price) / originalPrice) * 100)
}
