/**
 * How a refused order reads on the shopper's screens (the confirmation and the order page). A
 * refusal lists place_order's reasons; one with the code 'total_changed' means the rules (the tax
 * rates) changed since the device priced the order: the server charged nothing and placed
 * nothing, and says the new total, which the shopper must see before anything is final
 * (DESIGN.md §11: a device's stale figures lose with a clear message; docs/decisions/051-california-taxes-and-daily-limits.md).
 */
import { formatMoney } from './money'

export const TOTAL_CHANGED = 'total_changed'

export type RefusalView = {
  title: string
  /** The server's messages, in its order, each once. */
  messages: string[]
  totalChanged: boolean
  /** The total the server priced the order at, when it said. */
  newTotal: number | null
  /** What happens next, for the shopper. */
  advice: string
}

type ReasonLike = { message?: unknown; code?: unknown; total?: unknown }

export function refusalView(reasons: readonly unknown[] | null | undefined): RefusalView {
  const list = (Array.isArray(reasons) ? reasons : []).filter(
    (r): r is ReasonLike => typeof r === 'object' && r !== null,
  )
  const messages = [
    ...new Set(
      list.flatMap((r) => (typeof r.message === 'string' && r.message.trim() ? [r.message] : [])),
    ),
  ]
  const changed = list.find((r) => r.code === TOTAL_CHANGED)
  const total = Number(changed?.total)
  const newTotal = changed && Number.isFinite(total) ? total : null
  if (!changed)
    return {
      title: "We couldn't place your order",
      messages: messages.length > 0 ? messages : ['The shop could not accept this order.'],
      totalChanged: false,
      newTotal: null,
      advice: 'Your cart has been restored so you can change it and try again.',
    }
  return {
    title: 'The total of your order changed',
    messages:
      messages.length > 0
        ? messages
        : [
            `The taxes changed since your cart was priced: this order now comes to ${formatMoney(newTotal)}.`,
          ],
    totalChanged: true,
    newTotal,
    advice:
      'Nothing was charged and the order was not placed. Your cart has been restored with the new taxes: check the new total and place the order again.',
  }
}
