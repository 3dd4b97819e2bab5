import { Link } from '@tanstack/react-router'
import { useEffect } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { heldBackText } from '../../../data/outbox/held-back-text'
import { formatMoney } from '../../../lib/money'
import { orderNumber, paymentLabel } from '../../../lib/order-status'
import { formatPickupWindow } from '../../../lib/pickup-windows'
import { restoreCartFromRefusedOrder, takeAcceptedAnnouncement } from '../checkout.actions'
import { toaster } from '../../../ui/toaster'
import { useOrder } from '../hooks/use-order'
import { asPaymentMethod, paymentProvider } from '../payment/payment-provider'

const card = css({ bg: 'bg.surface', borderRadius: 'lg', boxShadow: 'card', p: '6' })

/**
 * After Place Order: says only what is true. "Order Confirmed!" once the shop accepted the order
 * (before that it is saved on the device and waiting to be sent); what will be paid, when and
 * where (nothing is charged online, docs/decisions/019); the pickup window and the store, or the
 * delivery estimate and address; emails only when the shop sends them (docs/decisions/020).
 */
export function OrderConfirmationPage({ orderId }: { orderId: string | undefined }) {
  const { db, sync$ } = useHumoData()
  const sync = useObservable(sync$, sync$.value)
  const { facts, orderEmails } = useShopSettings()
  const order = useOrder(orderId)

  useEffect(() => {
    if (order?.sync !== 'accepted' || !takeAcceptedAnnouncement(order.id)) return
    toaster.create({
      type: 'success',
      title: 'Order placed successfully!',
      description: `Order ${orderNumber(order.id)} has been confirmed.${
        orderEmails ? " You'll receive an email confirmation shortly." : ''
      }`,
    })
  }, [order?.sync, order?.id, orderEmails])

  useEffect(() => {
    if (order?.sync === 'refused' && !order.cartRestoredAt)
      void restoreCartFromRefusedOrder(db, order.id)
  }, [db, order?.sync, order?.cartRestoredAt, order?.id])

  if (order === undefined) return null
  const number = order?.id ? orderNumber(order.id) : '#N/A'

  if (order?.sync === 'refused') {
    return (
      <main
        className={css({
          maxW: '2xl',
          mx: 'auto',
          display: 'flex',
          flexDirection: 'column',
          gap: '6',
        })}
      >
        <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}>
          We couldn&apos;t place your order
        </h1>
        <div
          role="alert"
          className={css({ bg: 'danger.subtle', color: 'danger.fg', p: '4', borderRadius: 'md' })}
        >
          {(order.refusal ?? []).map((r) => (
            <p key={`${r.productId ?? ''}${r.message}`}>{r.message}</p>
          ))}
        </div>
        <p>Your cart has been restored so you can change it and try again.</p>
        <Link to="/cart" className={button({ size: 'lg' })}>
          Review your cart
        </Link>
      </main>
    )
  }

  const waiting = order !== null && order.sync !== 'accepted'
  // Held back by the server's rate limit: it says so, and when the device sends it again.
  const limited = order ? heldBackText('order', order) : null
  const pickup = order?.fulfilment === 'pickup'
  const express = order?.deliveryMethod === 'express'
  const a = facts.address
  const store = `${facts.name}, ${a.street}, ${a.city}, ${a.state} ${a.zip}`
  const deliverTo = order?.shippingAddress
    ? [
        order.shippingAddress.address1,
        order.shippingAddress.address2,
        order.shippingAddress.city,
        order.shippingAddress.state,
      ]
        .filter(Boolean)
        .join(', ') + ` ${order.shippingAddress.zipCode}`
    : null
  const payNote = order
    ? paymentProvider.instructions(
        asPaymentMethod(order.paymentMethod),
        order.fulfilment,
        order.totals.total,
      )
    : null
  return (
    <main
      className={css({
        maxW: '2xl',
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: '6',
        textAlign: 'center',
      })}
    >
      <h1 className={css({ fontFamily: 'heading', fontSize: '4xl', fontWeight: 'bold' })}>
        {waiting ? 'Order saved' : 'Order Confirmed!'}
      </h1>
      {waiting ? (
        <p role="status" className={css({ bg: 'deal.subtle', p: '4', borderRadius: 'md' })}>
          {limited
            ? limited
            : sync.online
              ? 'Your order is saved on this device and is being sent to the shop.'
              : "Your order is saved on this device and waiting to be sent. It will be sent when you're back online; you can close the app, nothing will be lost."}
        </p>
      ) : (
        <p className={css({ color: 'fg.muted' })}>
          Thank you! The shop has your order and will prepare it shortly.
          {orderEmails ? " You'll receive an email confirmation shortly." : ''}
        </p>
      )}
      {payNote && (
        <p className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
          {payNote}
          {order?.totalsFrom === 'preview' ? ' (The shop confirms the total.)' : ''}
        </p>
      )}
      <dl
        className={`${card} ${css({ textAlign: 'left', display: 'grid', gap: '2', gridTemplateColumns: '1fr auto' })}`}
      >
        <dt>Order number</dt>
        <dd className={css({ fontWeight: 'bold' })}>{number}</dd>
        {order && (
          <>
            <dt>Total{order.totalsFrom === 'preview' ? ' (to be confirmed)' : ''}</dt>
            <dd className={css({ fontWeight: 'bold' })}>{formatMoney(order.totals.total)}</dd>
            <dt>Payment</dt>
            <dd>{paymentLabel(order.paymentMethod, order.fulfilment)}</dd>
          </>
        )}
        {order && pickup && (
          <>
            <dt>Pickup window</dt>
            <dd>
              {order.pickupWindow ? formatPickupWindow(order.pickupWindow) : 'To be arranged'}
            </dd>
            <dt>Pickup at</dt>
            <dd>{store}</dd>
          </>
        )}
        {order && !pickup && (
          <>
            <dt>Estimated delivery</dt>
            <dd>{express ? 'Same day' : '2-3 business days'}</dd>
            {deliverTo && (
              <>
                <dt>Deliver to</dt>
                <dd>{deliverTo}</dd>
              </>
            )}
          </>
        )}
        {order && (
          <>
            <dt>Tracking</dt>
            <dd>
              <Link
                to="/orders/$orderId"
                params={{ orderId: order.id }}
                className={css({ color: 'accent.fg', textDecoration: 'underline' })}
              >
                Track your order
              </Link>
            </dd>
          </>
        )}
      </dl>
      <section className={`${card} ${css({ textAlign: 'left' })}`}>
        <h2 className={css({ fontWeight: 'bold', fontSize: 'lg', mb: '3' })}>What&apos;s Next?</h2>
        <ol
          className={css({
            display: 'flex',
            flexDirection: 'column',
            gap: '3',
            listStyle: 'decimal',
            pl: '5',
          })}
        >
          <li>
            <strong>Order Processing</strong>: we prepare your order.
          </li>
          {orderEmails && (
            <li>
              <strong>Email Confirmation</strong>: you will receive an email confirmation shortly.
            </li>
          )}
          <li>
            <strong>Live Status</strong>: your order page shows each step as the shop moves it.
          </li>
          {pickup ? (
            <li>
              <strong>Pickup</strong>: come during your window with a photo ID showing you are 21 or
              older, and pay at the counter.
            </li>
          ) : (
            <li>
              <strong>{express ? 'Same-day delivery' : 'Delivery within 2-3 business days'}</strong>
              : have a photo ID showing you are 21 or older ready, and pay at the door.
            </li>
          )}
        </ol>
      </section>
      <div
        className={css({ display: 'flex', gap: '3', justifyContent: 'center', flexWrap: 'wrap' })}
      >
        <Link to="/" className={button({ size: 'lg' })}>
          Continue Shopping
        </Link>
        <Link to="/menu" className={button({ size: 'lg', variant: 'outline' })}>
          Browse Products
        </Link>
      </div>
    </main>
  )
}
