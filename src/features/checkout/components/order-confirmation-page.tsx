import { Link } from '@tanstack/react-router'
import { useEffect } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { formatMoney } from '../../../lib/money'
import { restoreCartFromRefusedOrder } from '../checkout.actions'
import { useOrder } from '../hooks/use-order'

const card = css({ bg: 'bg.surface', borderRadius: 'lg', boxShadow: 'card', p: '6' })

export function OrderConfirmationPage({ orderId }: { orderId: string | undefined }) {
  const { db } = useHumoData()
  const order = useOrder(orderId)

  useEffect(() => {
    if (order?.sync === 'refused' && !order.cartRestoredAt)
      void restoreCartFromRefusedOrder(db, order.id)
  }, [db, order?.sync, order?.cartRestoredAt, order?.id])

  if (order === undefined) return null
  const number = order?.id ? order.id.slice(0, 8).toUpperCase() : 'N/A'

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
          Your order is saved on this device and will be sent when the shop is back online. You can
          close the app; nothing will be lost.
        </p>
      ) : (
        <p className={css({ color: 'fg.muted' })}>
          Thank you! Your payment was received and your items will be processed shortly.
        </p>
      )}
      <dl
        className={`${card} ${css({ textAlign: 'left', display: 'grid', gap: '2', gridTemplateColumns: '1fr auto' })}`}
      >
        <dt>Order number</dt>
        <dd className={css({ fontWeight: 'bold' })}>#{number}</dd>
        {order && (
          <>
            <dt>Total{order.totalsFrom === 'preview' ? ' (to be confirmed)' : ''}</dt>
            <dd className={css({ fontWeight: 'bold' })}>{formatMoney(order.totals.total)}</dd>
          </>
        )}
        <dt>Estimated delivery</dt>
        <dd>2-3 business days</dd>
        <dt>Tracking</dt>
        <dd>Will be provided via email</dd>
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
          <li>
            <strong>Email Confirmation</strong>: you will receive an email confirmation shortly.
          </li>
          <li>
            <strong>Delivery within 2-3 business days</strong>
          </li>
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
