import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { CartView } from '../../../data/cart-view'
import { formatMoney } from '../../../lib/money'
import { receiptNotes, receiptRows } from '../../../lib/receipt'
import { ReceiptCard } from '../../../ui/receipt-card'
import { problem } from './checkout-form-parts'
import { SafetyInformationLink } from './safety-information-link'

const note = css({ fontSize: 'xs', color: 'fg.muted' })

/**
 * Checkout's Order Summary: the lines, the money priced for the buyer and the pickup or
 * delivery chosen (each tax on its own line), what still stops the order, and Place Order.
 */
export function CheckoutSummary({
  view,
  online,
  error,
  busy,
  blocked,
}: {
  view: CartView
  online: boolean
  error: string | null
  busy: boolean
  blocked: boolean
}) {
  const { totals } = view
  return (
    <ReceiptCard
      title="Order Summary"
      landmark="aside"
      items={view.lines.map((l) => ({
        key: l.productId,
        label: `${l.product.name} × ${l.quantity}`,
        value: formatMoney(l.product.price * l.quantity),
      }))}
      rows={receiptRows(totals, view.handover.fulfilment)}
      total={{ label: 'Total', value: formatMoney(totals.total) }}
      notes={receiptNotes(totals, 'preview')}
    >
      {view.limits.problems.map((p) => (
        <p key={p} role="alert" className={problem}>
          {p}
        </p>
      ))}
      {!online && (
        <p
          role="status"
          className={css({ fontSize: 'sm', bg: 'deal.subtle', p: '3', borderRadius: 'md' })}
        >
          You are offline. Your order will be saved on this device and sent when you&apos;re back
          online.
        </p>
      )}
      {error && (
        <p role="alert" className={problem}>
          {error}
        </p>
      )}
      <button type="submit" className={button({ size: 'lg' })} disabled={busy || blocked}>
        {busy ? 'Placing order…' : 'Place Order'}
      </button>
      <p className={note}>
        Prices, taxes and stock are confirmed by the shop when your order arrives. You pay in cash
        or by debit card when you get your order.
      </p>
      <p className={css({ fontSize: 'sm' })}>
        Before you buy, read <SafetyInformationLink />.
      </p>
    </ReceiptCard>
  )
}
