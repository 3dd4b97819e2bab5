/**
 * 4 CCR §15409's daily limits, applied where the shopper adds and in the cart, with the texts
 * `place_order` refuses with (public.daily_limit_message; docs/decisions/051-california-taxes-and-daily-limits.md): per person and
 * day, across orders, for the customer's kind (adult use or medical). A device knows "today"
 * from its own orders of the shop's calendar day; the server also counts the same person's orders
 * from other devices (same email, phone or ID number) and has the last word.
 *
 * A product counts toward the flower or the concentrate limit (its limit class) with the grams of
 * one unit (its limit grams, else its weight); merchandise counts toward neither.
 */
import type { DailyLimits } from './compliance-rules'

export type LimitClass = 'flower' | 'concentrate'

export type LimitedLine = {
  name: string
  limitClass: LimitClass | null | undefined
  /** Grams one unit counts toward its limit. */
  unitGrams: number | null | undefined
  quantity: number
}

export type GramsHeld = { flower: number; concentrate: number }

export const NO_GRAMS: GramsHeld = { flower: 0, concentrate: 0 }

export type LimitCheck = {
  /** This order's grams per limit. */
  grams: GramsHeld
  /** One message per limit passed or unit that cannot be sold, ready to show. */
  problems: string[]
}

/** Grams as the messages print them: at most three decimals, no trailing zeros. */
export const gramsText = (value: number) => String(Number(value.toFixed(3)))

const round3 = (value: number) => Math.round(value * 1000) / 1000

/** The text of public.daily_limit_message, or null within the limit. */
export function dailyLimitMessage(
  limitClass: LimitClass,
  limit: number | null,
  already: number,
  thisOrder: number,
): string | null {
  if (limit === null || round3(already + thisOrder) <= limit) return null
  const head = `Today's limit is ${gramsText(limit)} g of ${limitClass}.`
  if (already <= 0)
    return `${head} This order holds ${gramsText(thisOrder)} g, ${gramsText(thisOrder - limit)} g over the limit.`
  if (already >= limit)
    return `${head} Your orders today already hold ${gramsText(already)} g, so this order can add no more ${limitClass} today.`
  return `${head} Your orders today already hold ${gramsText(already)} g, so this order can add up to ${gramsText(limit - already)} g.`
}

const limitOf = (limits: DailyLimits, limitClass: LimitClass) =>
  limitClass === 'flower' ? limits.flowerGrams : limits.concentrateGrams

/** The text place_order gives a unit above a limit (a wholesale pound). */
export function oversizeMessage(
  name: string,
  limitClass: LimitClass,
  unitGrams: number,
  limit: number,
) {
  return `${name} cannot be sold to a consumer: one unit holds ${gramsText(unitGrams)} g of ${limitClass}, more than the ${gramsText(limit)} g one customer may buy in a day.`
}

/** Whether one unit alone is above the day's limit: such a product is never sold to a consumer. */
export function unitOverLimit(
  line: Pick<LimitedLine, 'limitClass' | 'unitGrams'>,
  limits: DailyLimits,
): boolean {
  if (!line.limitClass) return false
  const limit = limitOf(limits, line.limitClass)
  return limit !== null && (line.unitGrams ?? 0) > limit
}

export function checkDailyLimits(
  lines: readonly LimitedLine[],
  limits: DailyLimits,
  alreadyToday: GramsHeld = NO_GRAMS,
): LimitCheck {
  const grams = { flower: 0, concentrate: 0 }
  const problems: string[] = []
  let oversize = false
  for (const line of lines) {
    if (!line.limitClass) continue
    const unit = line.unitGrams ?? 0
    if (unitOverLimit(line, limits)) {
      oversize = true
      problems.push(
        oversizeMessage(line.name, line.limitClass, unit, limitOf(limits, line.limitClass)!),
      )
      continue
    }
    grams[line.limitClass] += unit * line.quantity
  }
  grams.flower = round3(grams.flower)
  grams.concentrate = round3(grams.concentrate)
  if (!oversize) {
    for (const limitClass of ['flower', 'concentrate'] as const) {
      const message = dailyLimitMessage(
        limitClass,
        limitOf(limits, limitClass),
        alreadyToday[limitClass],
        grams[limitClass],
      )
      if (message) problems.push(message)
    }
  }
  return { grams, problems }
}

/**
 * How many more units of a product fit today's limit beside what the cart (and the day's other
 * orders) hold; Infinity for a product no limit counts.
 */
export function unitsThatFit(
  line: Pick<LimitedLine, 'limitClass' | 'unitGrams'>,
  limits: DailyLimits,
  held: GramsHeld,
): number {
  if (!line.limitClass || !line.unitGrams) return Infinity
  const limit = limitOf(limits, line.limitClass)
  if (limit === null) return Infinity
  return Math.max(0, Math.floor(round3((limit - held[line.limitClass]) / line.unitGrams)))
}

export type DeviceOrderLike = {
  createdAt: string
  status: string
  sync: string
  customer?: { email?: string; phone?: string }
  items: readonly {
    quantity: number
    categorySlug?: string | null
    weightGrams?: number | null
    limitClass?: string | null
    limitGrams?: number | null
  }[]
}

const emailKey = (value: string | undefined) => (value ?? '').replace(/\s/g, '').toLowerCase()
const phoneKey = (value: string | undefined) => {
  const digits = (value ?? '').replace(/\D/g, '')
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits
}

/**
 * What this device's orders of `day` (the shop's calendar) already hold: those not refused or
 * cancelled, of the same person when the checkout knows their email or phone (the server's
 * public.person_email_key and person_phone_key), all of them otherwise.
 */
export function gramsHeldByOrders(
  orders: readonly DeviceOrderLike[],
  day: string,
  dayOf: (iso: string) => string,
  person: { email?: string; phone?: string } = {},
): GramsHeld {
  const email = emailKey(person.email)
  const phone = phoneKey(person.phone)
  const held = { flower: 0, concentrate: 0 }
  for (const order of orders) {
    if (order.sync === 'refused' || order.status === 'cancelled') continue
    if (dayOf(order.createdAt) !== day) continue
    const known = email !== '' || phone !== ''
    const same =
      (email !== '' && emailKey(order.customer?.email) === email) ||
      (phone !== '' && phoneKey(order.customer?.phone) === phone)
    if (known && !same) continue
    for (const item of order.items) {
      const limitClass =
        item.limitClass === 'flower' || item.limitClass === 'concentrate'
          ? item.limitClass
          : item.limitClass === undefined
            ? legacyClass(item.categorySlug)
            : null
      if (!limitClass) continue
      held[limitClass] += (item.limitGrams ?? item.weightGrams ?? 0) * item.quantity
    }
  }
  return { flower: round3(held.flower), concentrate: round3(held.concentrate) }
}

/** An order item from before limit classes: counted by its category, as the server counted it. */
function legacyClass(categorySlug: string | null | undefined): LimitClass | null {
  return categorySlug === 'flower'
    ? 'flower'
    : categorySlug === 'concentrates'
      ? 'concentrate'
      : null
}
