import { Link } from '@tanstack/react-router'
import { useEffect } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { heldBackText } from '../../../data/outbox/held-back-text'
import type { OrderDoc } from '../../../data/schemas/order.schema'
import { deliveryEstimate, deliveryStep } from '../../../lib/delivery-promises'
import { formatMoney } from '../../../lib/money'
import { refusalView } from '../../../lib/order-refusal'
import { orderNumber, paymentLabel } from '../../../lib/order-status'
import { formatPickupWindow, formatShopTime } from '../../../lib/pickup-windows'
import { receiptNotes, receiptRows } from '../../../lib/receipt'
import { ReceiptCard } from '../../../ui/receipt-card'
import { restoreCartFromRefusedOrder, takeAcceptedAnnouncement } from '../checkout.actions'
import { toaster } from '../../../ui/toaster'
import { useOrder } from '../hooks/use-order'
import { asPaymentMethod, paymentProvider } from '../payment/payment-provider'
import { SafetyInformationLink } from './safety-information-link'

const card = css({ bg: 'bg.surface', borderRadius: 'lg', boxShadow: 'card', p: '6' })

/**
 * After Place Order: says only what is true. "Order Confirmed!" once the shop accepted the order
 * (before that it is saved on the device and waiting to be sent); what will be paid, when and
 * where (nothing is charged online, docs/decisions/019-pay-at-handoff.md); the pickup window and the store, or the
 * delivery estimate and address; emails only when the shop sends them (docs/decisions/020-texts-that-tell-the-truth.md).
 */
export function OrderConfirmationPage({ orderId }: { orderId: string | undefined }) {
  const { db, sync$ } = useHumoData()
  const sync = useObservable(sync$, sync$.value)
  const { facts, orderEmails, hours } = useShopSettings()
  const order = useOrder(orderId)

  useEffect(() => {
    if (order?.sync !== 'accepted' || !takeAcceptedAnnouncement(order.id)) return
    // It waited (its first send failed): "reached the shop" says it instead (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md).
    if (order.attempts > 0) return
    toaster.create({
      type: 'success',
      title: 'Order placed successfully!',
      description: `Order ${orderNumber(order.id)} has been confirmed.${
        orderEmails ? " You'll receive an email confirmation shortly." : ''
      }`,
    })
  }, [order?.sync, order?.id, order?.attempts, orderEmails])

  useEffect(() => {
    if (order?.sync === 'refused' && !order.cartRestoredAt)
      void restoreCartFromRefusedOrder(db, order.id)
  }, [db, order?.sync, order?.cartRestoredAt, order?.id])

  if (order === undefined) return null
  const number = order?.id ? orderNumber(order.id) : '#N/A'

  if (order?.sync === 'refused') return <RefusedOrder order={order} />

  const waiting = order !== null && order.sync !== 'accepted'
  // Held back by the server's rate limit: it says so, and when the device sends it again.
  const limited = order ? heldBackText('order', order) : null
  const pickup = order?.fulfilment === 'pickup'
  const placedAt = order ? new Date(order.createdAt) : null
  const idText =
    order?.customerKind === 'medical'
      ? "a photo ID showing you are 18 or older and your physician's recommendation or MMIC"
      : 'a photo ID showing you are 21 or older'
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
        <div
          role="status"
          className={css({
            bg: 'deal.subtle',
            p: '4',
            borderRadius: 'md',
            display: 'grid',
            gap: '1',
          })}
        >
          <p>
            {limited
              ? limited
              : sync.online
                ? 'Your order is saved on this device and is being sent to the shop.'
                : "Your order is saved on this device and waiting to be sent. It will be sent when you're back online; you can close the app, nothing will be lost."}
          </p>
          {placedAt && <p>Saved {formatShopTime(placedAt)}; the shop has not received it yet.</p>}
        </div>
      ) : (
        <p className={css({ color: 'fg.muted' })}>
          Thank you! The shop has your order and will prepare it shortly.
          {orderEmails ? " You'll receive an email confirmation shortly." : ''}
        </p>
      )}
      {order && (
        // High on the page, as its main action: on a phone the toasts (at the foot of the
        // screen) never cover it (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md).
        <div>
          <Link
            to="/orders/$orderId"
            params={{ orderId: order.id }}
            className={button({ size: 'lg' })}
          >
            Track your order
          </Link>
        </div>
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
            <dd>{deliveryEstimate(order.deliveryMethod, placedAt, hours)}</dd>
            {deliverTo && (
              <>
                <dt>Deliver to</dt>
                <dd>{deliverTo}</dd>
              </>
            )}
          </>
        )}
      </dl>
      {order && <OrderReceipt order={order} />}
      <p className={css({ fontSize: 'sm' })}>
        Before you use cannabis, read <SafetyInformationLink />.
      </p>
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
              <strong>Pickup</strong>: come during your window with {idText}, and pay at the
              counter.
            </li>
          ) : (
            <li>
              <strong>{deliveryStep(order?.deliveryMethod ?? 'standard', placedAt, hours)}</strong>:
              our own driver brings it during opening hours; have {idText} ready, and pay at the
              door.
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

/** What the order costs, each tax on its own line, and that the excise is in the total. */
function OrderReceipt({ order }: { order: OrderDoc }) {
  const preview = order.totalsFrom === 'preview'
  return (
    <div className={css({ textAlign: 'left' })}>
      <ReceiptCard
        title="Order Summary"
        items={order.items.map((item) => ({
          key: item.productId,
          label: `${item.name} × ${item.quantity}`,
          value: formatMoney(item.unitPrice * item.quantity),
        }))}
        rows={receiptRows(order.totals, order.fulfilment)}
        total={{
          label: preview ? 'Total (to be confirmed)' : 'Total',
          value: formatMoney(order.totals.total),
        }}
        notes={receiptNotes(order.totals, 'receipt')}
      />
    </div>
  )
}

/**
 * The shop refused the order: why, in its words, and the cart given back. When only the taxes
 * changed since the device priced it ('total_changed'), the shop's new total is said before
 * anything is final, and the shop's settings are pulled again so the cart shows the new rates.
 */
function RefusedOrder({ order }: { order: OrderDoc }) {
  const data = useHumoData()
  const view = refusalView(order.refusal)
  useEffect(() => {
    if (view.totalChanged) data.resync()
  }, [data, view.totalChanged])
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
        {view.title}
      </h1>
      <div
        role="alert"
        className={css({
          bg: view.totalChanged ? 'deal.subtle' : 'danger.subtle',
          color: view.totalChanged ? 'fg.default' : 'danger.fg',
          p: '4',
          borderRadius: 'md',
          display: 'grid',
          gap: '2',
        })}
      >
        {view.messages.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      {view.newTotal !== null && (
        <p className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
          New total: {formatMoney(view.newTotal)}
        </p>
      )}
      <p>{view.advice}</p>
      <Link to="/cart" className={button({ size: 'lg' })}>
        Review your cart
      </Link>
    </main>
  )
}
