/**
 * How an order is paid. Mainstream card processors refuse cannabis, so until a compliant
 * processor is connected the shop takes cash or a debit card at the counter or the door and
 * nothing is charged online (docs/decisions/019-pay-at-handoff.md). A processor added later implements
 * `PaymentProvider` with `collectsOnline: true` and its own `authorize`; checkout asks the
 * provider which methods to offer and what to tell the shopper, so no screen promises a payment
 * that did not happen.
 */
import { formatMoney } from '../../../lib/money'
import { asFulfilment, type Fulfilment } from '../../../lib/order-status'

export type PaymentMethod = 'cash' | 'debit'

export type PaymentChoice = { method: PaymentMethod; label: string }

export type PaymentProvider = {
  id: string
  /** True only for a processor that takes the money online (none today). */
  collectsOnline: boolean
  /** The choices checkout offers, in order; the first is the default. */
  choices(fulfilment: Fulfilment): PaymentChoice[]
  /** One sentence for the confirmation: what will be paid, when and where. */
  instructions(method: PaymentMethod, fulfilment: Fulfilment, total: number): string
  /**
   * Takes the payment for an order the server accepted. Paying at handoff has nothing to do
   * online; a processor would authorise here and report what it did.
   */
  authorize?(order: { id: string; total: number }): Promise<{ paid: boolean }>
}

/** Cash or debit card, paid when the order is handed over (pickup counter or delivery door). */
export const payAtHandoff: PaymentProvider = {
  id: 'pay-at-handoff',
  collectsOnline: false,
  choices: (fulfilment) => [
    { method: 'cash', label: 'Cash' },
    {
      method: 'debit',
      label: fulfilment === 'pickup' ? 'Debit card at pickup' : 'Debit card at delivery',
    },
  ],
  instructions(method, fulfilment, total) {
    const amount = formatMoney(total)
    const how = method === 'cash' ? 'in cash' : 'by debit card'
    return asFulfilment(fulfilment) === 'pickup'
      ? `Pay ${amount} ${how} when you pick up your order.`
      : `Pay ${amount} ${how} on delivery.`
  },
}

/** The provider checkout uses. */
export const paymentProvider: PaymentProvider = payAtHandoff

/** A stored method as today's: an old 'card' order is paid by debit card at handoff. */
export function asPaymentMethod(value: string | null | undefined): PaymentMethod {
  return value === 'cash' ? 'cash' : 'debit'
}
