/**
 * A medical patient's state Medical Marijuana ID Card (MMIC), as place_order reads it: the
 * number in letters and digits (4 to 20, upper case, spaces and dashes dropped) and the expiry
 * date. With a card valid on the sale's day the cannabis pays no sales tax (R&T Code §6363.7);
 * the cart, the checkout and the order all read the card the same way, so the total the shopper
 * sees is the one the device sends (docs/decisions/051-california-taxes-and-daily-limits.md).
 */
import type { CustomerKind } from './compliance-rules'

/** An MMIC number as the server keeps it: letters and digits, upper case. */
export const normaliseMmicNumber = (value: string) =>
  value.replace(/[^A-Za-z0-9]/g, '').toUpperCase()

export const MMIC_NUMBER = /^[A-Z0-9]{4,20}$/
export const DAY = /^\d{4}-\d{2}-\d{2}$/

export type Mmic = { number: string; expiry: string }

/**
 * The card a medical order gives, or null: none for adult use, and none while the number or
 * the date is incomplete (the checkout says what is missing and waits).
 */
export function mmicFrom(kind: CustomerKind, number: string, expiry: string): Mmic | null {
  if (kind !== 'medical') return null
  const normalised = normaliseMmicNumber(number)
  const day = expiry.trim()
  if (!MMIC_NUMBER.test(normalised) || !DAY.test(day)) return null
  return { number: normalised, expiry: day }
}
