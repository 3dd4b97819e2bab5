/**
 * The cart priced and limited as the server will (SPEC.md §4 with docs/decisions/051-california-taxes-and-daily-limits.md): the shop's fees
 * (Admin Settings), California's tax rules and daily limits in force today, for the buyer and the
 * pickup or delivery the checkout describes. The cart, the header's button and the checkout all
 * read it from here, and the order the checkout places carries the same figures, so the total
 * the shopper saw is the one the device sends (`expectedTotal`); the server has the last word.
 */
import { combineLatest, map } from 'rxjs'
import { DEFAULT_COMPLIANCE_RULES } from '../lib/compliance-defaults'
import { dailyLimitsOn, type ComplianceRule, type DailyLimits } from '../lib/compliance-rules'
import {
  checkDailyLimits,
  NO_GRAMS,
  type GramsHeld,
  type LimitCheck,
  type LimitedLine,
} from '../lib/daily-limits'
import { DEFAULT_MONEY_RULES, type MoneyRules, type PricedLine } from '../lib/money'
import { taxContextOf, totalsFor, type Totals } from '../lib/order-totals'
import {
  ADULT_BUYER,
  buyerToday$,
  STANDARD_DELIVERY,
  type Buyer,
  type Handover,
} from './buyer-today'
import type { HumoDatabase } from './database'
import { shopSettings$ } from './hooks/use-shop-settings'
import type { CartLineDoc } from './schemas/cart-line.schema'

export type CartTotals = Totals & {
  /** A medical order with an MMIC valid today: its cannabis pays no sales tax. */
  salesTaxExempt: boolean
}

export type CartView = {
  lines: CartLineDoc[]
  /** Number of units (SPEC.md "totalItems"), shown on the header badge. */
  totalItems: number
  totals: CartTotals
  limits: LimitCheck
  /** Today's daily limits for the buyer's kind, and what their other orders today hold. */
  dailyLimits: DailyLimits
  heldToday: GramsHeld
  buyer: Buyer
  handover: Handover
  /** The shop's money rules the totals were computed with (Admin Settings). */
  rules: MoneyRules
}

export type CartPricing = {
  money?: MoneyRules
  rules?: readonly ComplianceRule[]
  buyer?: Buyer
  held?: GramsHeld
  handover?: Handover
  now?: Date
}

/** Cannabis pays the excise; a line of merchandise sales tax only. */
export function pricedLinesOf(lines: readonly CartLineDoc[]): PricedLine[] {
  return lines.map((l) => ({
    price: l.product.price,
    quantity: l.quantity,
    cannabis: l.product.isCannabis !== false,
  }))
}

export function limitedLinesOf(lines: readonly CartLineDoc[]): LimitedLine[] {
  return lines.map((l) => ({
    name: l.product.name,
    limitClass:
      l.product.limitClass === 'flower' || l.product.limitClass === 'concentrate'
        ? l.product.limitClass
        : null,
    unitGrams: l.product.limitGrams ?? l.product.weightGrams,
    quantity: l.quantity,
  }))
}

export function cartViewOf(lines: CartLineDoc[], pricing: CartPricing = {}): CartView {
  const money = pricing.money ?? DEFAULT_MONEY_RULES
  // A device that has not synced the shop's rules yet prices with the built-in ones.
  const rules = pricing.rules?.length ? pricing.rules : DEFAULT_COMPLIANCE_RULES
  const buyer = pricing.buyer ?? ADULT_BUYER
  const held = pricing.held ?? NO_GRAMS
  const handover = pricing.handover ?? STANDARD_DELIVERY
  const context = taxContextOf(rules, buyer.kind, buyer.mmicExpiry, pricing.now)
  const dailyLimits = dailyLimitsOn(rules, context.day, buyer.kind)
  const totals = totalsFor(
    pricedLinesOf(lines),
    handover.deliveryMethod,
    handover.fulfilment,
    money,
    context,
  )
  return {
    lines,
    totalItems: lines.reduce((n, l) => n + l.quantity, 0),
    totals: { ...totals, salesTaxExempt: context.salesTaxExempt },
    limits: checkDailyLimits(limitedLinesOf(lines), dailyLimits, held),
    dailyLimits,
    heldToday: held,
    buyer,
    handover,
    rules: money,
  }
}

/**
 * The cart, live; totals are recalculated on every change (SPEC.md §4): a line, the shop's fees
 * or tax rules (a settings pull), the buyer or the pickup or delivery the checkout draft says.
 */
export function cartView$(db: HumoDatabase) {
  return combineLatest([
    db.cart_lines.find({ sort: [{ addedAt: 'asc' }] }).$,
    shopSettings$(db),
    buyerToday$(db),
  ]).pipe(
    map(([docs, settings, { buyer, held, handover }]) =>
      cartViewOf(
        docs.map((d) => d.toJSON() as CartLineDoc),
        { money: settings.money, rules: settings.rules, buyer, held, handover },
      ),
    ),
  )
}
