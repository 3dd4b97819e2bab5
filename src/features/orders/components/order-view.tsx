import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { deliveryEstimate } from '../../../lib/delivery-promises'
import { formatMoney } from '../../../lib/money'
import { orderNumber, paymentLabel } from '../../../lib/order-status'
import { formatPickupWindow } from '../../../lib/pickup-windows'
import { receiptNotes, receiptRows } from '../../../lib/receipt'
import { ReceiptCard } from '../../../ui/receipt-card'
import type { OrderViewData } from '../order-view-model'
import { StatusTimeline } from './status-timeline'

const card = css({ bg: 'bg.surface', borderRadius: 'lg', boxShadow: 'card', p: '6' })
const cardTitle = css({ fontFamily: 'heading', fontSize: 'xl', fontWeight: 'bold', mb: '3' })

/**
 * One order as a shopper sees it: number, status timeline, how and when it is collected, payment
 * in words, items and totals. The order page (this device's order) and Track Order (another
 * device's, from the server) both show it; `notice` says how fresh the status is.
 */
export function OrderView({ order, notice }: { order: OrderViewData; notice?: ReactNode }) {
  const { facts, hours } = useShopSettings()
  const pickup = order.fulfilment === 'pickup'
  const address = order.shippingAddress
  const a = facts.address
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}>
        Order {orderNumber(order.id)}
      </h1>
      {notice}
      <section aria-labelledby="order-status-title" className={card}>
        <h2 id="order-status-title" className={cardTitle}>
          Status
        </h2>
        {order.refused ? (
          <p className={css({ fontWeight: 'bold' })}>Not placed: the shop did not accept it.</p>
        ) : (
          <StatusTimeline
            status={order.status}
            fulfilment={order.fulfilment}
            history={order.statusHistory}
            savedAt={order.savedAt}
          />
        )}
      </section>
      <div
        className={css({
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
          alignItems: 'start',
        })}
      >
        <section aria-labelledby="order-collect-title" className={card}>
          <h2 id="order-collect-title" className={cardTitle}>
            {pickup ? 'Pickup' : 'Delivery'}
          </h2>
          <dl className={css({ display: 'grid', gap: '1' })}>
            {pickup ? (
              <>
                <dt className={css({ color: 'fg.muted', fontSize: 'sm' })}>Pickup window</dt>
                <dd>{order.pickupWindow ? formatPickupWindow(order.pickupWindow) : 'Not set'}</dd>
                <dt className={css({ color: 'fg.muted', fontSize: 'sm', mt: '2' })}>Store</dt>
                <dd>
                  {facts.name}, {a.street}, {a.city}, {a.state} {a.zip}
                </dd>
              </>
            ) : (
              <>
                <dt className={css({ color: 'fg.muted', fontSize: 'sm' })}>Deliver to</dt>
                <dd>
                  {address
                    ? [address.address1, address.address2, address.city, address.state]
                        .filter(Boolean)
                        .join(', ') + ` ${address.zipCode}`
                    : 'No address'}
                </dd>
                <dt className={css({ color: 'fg.muted', fontSize: 'sm', mt: '2' })}>
                  Estimated delivery
                </dt>
                <dd>
                  {deliveryEstimate(
                    order.deliveryMethod,
                    order.createdAt ? new Date(order.createdAt) : null,
                    hours,
                  )}
                </dd>
              </>
            )}
            <dt className={css({ color: 'fg.muted', fontSize: 'sm', mt: '2' })}>Payment</dt>
            <dd>{paymentLabel(order.paymentMethod, order.fulfilment)}</dd>
          </dl>
        </section>
        <ReceiptCard
          title="Items"
          items={order.items.map((item) => ({
            key: item.productId,
            label: `${item.name} × ${item.quantity}`,
            value: formatMoney(item.unitPrice * item.quantity),
          }))}
          rows={receiptRows(order.totals, order.fulfilment)}
          total={{ label: 'Total', value: formatMoney(order.totals.total) }}
          notes={receiptNotes(order.totals, 'receipt')}
        />
      </div>
    </div>
  )
}

/** A short line under the heading: how fresh the status is, or why it cannot be. */
export function OrderNotice({
  tone = 'info',
  children,
}: {
  tone?: 'info' | 'warning' | 'danger'
  children: ReactNode
}) {
  return (
    <div
      role="status"
      className={css({
        p: '4',
        borderRadius: 'md',
        fontSize: 'sm',
        bg: tone === 'danger' ? 'danger.subtle' : tone === 'warning' ? 'deal.subtle' : 'bg.muted',
        color: tone === 'danger' ? 'danger.fg' : 'fg.default',
      })}
    >
      {children}
    </div>
  )
}
