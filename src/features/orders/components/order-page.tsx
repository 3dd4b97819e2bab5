import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { refusalView } from '../../../lib/order-refusal'
import { orderNumber } from '../../../lib/order-status'
import { useDeviceOrder } from '../hooks/use-device-order'
import { heldBackText } from '../../../data/outbox/held-back-text'
import { formatKnownAt, fromDeviceOrder, isWaitingToSend } from '../order-view-model'
import { OrderArrivalWatch } from './order-arrival-watch'
import { OrderNotice, OrderView } from './order-view'
import { OrderReviews } from './order-reviews'

const page = css({ maxW: '4xl', mx: 'auto', display: 'flex', flexDirection: 'column', gap: '6' })

/**
 * The shopper's page for one of this device's orders (/orders/<id>). Read from the device's
 * database, which order tracking keeps live (src/data/order-tracking.ts): it changes without a
 * reload when staff move the order, and offline it shows the last known status and when it was
 * known. Only this device holds the order's secret; any other device is sent to Track Order.
 */
export function OrderPage({ orderId }: { orderId: string }) {
  const { sync$ } = useHumoData()
  const sync = useObservable(sync$, sync$.value)
  const order = useDeviceOrder(orderId)
  // Seen waiting on this device while this page was open: when it goes, the page says it arrived.
  const [sawWaiting, setSawWaiting] = useState(false)
  if (order && isWaitingToSend(order) && !sawWaiting) setSawWaiting(true)

  if (order === undefined) return null
  if (order === null) {
    return (
      <main className={page}>
        <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}>
          Order not found on this device
        </h1>
        <p>
          This order was not placed on this device, so it can&apos;t be shown here. Look it up with
          its order number and the email or phone it was placed with.
        </p>
        <div>
          <Link to="/track" className={button({ size: 'lg' })}>
            Track Order
          </Link>
        </div>
      </main>
    )
  }

  let notice
  const limited = heldBackText('order', order)
  if (order.sync === 'refused') {
    const refusal = refusalView(order.refusal)
    notice = (
      <OrderNotice tone={refusal.totalChanged ? 'warning' : 'danger'}>
        <p className={css({ fontWeight: 'bold' })}>
          {refusal.totalChanged
            ? 'The total of this order changed, so it was not placed.'
            : "The shop couldn't accept this order."}
        </p>
        {refusal.messages.map((message) => (
          <p key={message}>{message}</p>
        ))}
        {order.cartRestoredAt && (
          <p>
            {refusal.advice}{' '}
            <Link to="/cart" className={css({ color: 'accent.fg', textDecoration: 'underline' })}>
              Go to your cart
            </Link>
          </p>
        )}
      </OrderNotice>
    )
  } else if (limited) {
    notice = <OrderNotice tone="warning">{limited}</OrderNotice>
  } else if (order.sync !== 'accepted') {
    notice = (
      <OrderNotice tone="warning">
        Waiting to be sent: this order was saved on this device at {formatKnownAt(order.createdAt)}{' '}
        and will be sent to the shop
        {sync.online ? ' in a moment.' : " when you're back online."} The shop has not received it
        yet; its status will show here once the shop has it.
      </OrderNotice>
    )
  } else {
    const known = order.statusCheckedAt ?? order.updatedAt
    notice = (
      <OrderNotice tone={sync.online ? 'info' : 'warning'}>
        {sawWaiting && (
          <strong className={css({ display: 'block' })}>
            Order {orderNumber(order.id)} reached the shop.
          </strong>
        )}
        {sync.online ? '' : "You're offline. Showing the last known status. "}
        Last updated {formatKnownAt(known)}.
      </OrderNotice>
    )
  }

  return (
    <main className={page}>
      <OrderArrivalWatch />
      <OrderView order={fromDeviceOrder(order)} notice={notice} />
      {order.sync === 'accepted' && order.status === 'delivered' && (
        <OrderReviews order={order} online={sync.online} />
      )}
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Keep this page: order {orderNumber(order.id)} is saved on this device only. From another
        device, use Track Order with the order number and your email or phone.
      </p>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
        <Link to="/menu" className={button({ size: 'lg', variant: 'outline' })}>
          Browse Products
        </Link>
      </div>
    </main>
  )
}
