import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { badge, button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import type { OrderDoc } from '../../../data/schemas/order.schema'
import { taxLinesOf } from '../../../data/outbox/order-outbox'
import { formatMoney } from '../../../lib/money'
import { orderNumber, orderStatusLabel } from '../../../lib/order-status'
import { SHOP_TIME_ZONE } from '../../../lib/shop-hours'
import { formatPickupWindow } from '../../../lib/pickup-windows'
import { reorder, reorderProblemText, type ReorderResult } from '../account.actions'
import { useDeviceOrders } from '../hooks/use-device-orders'

const card = css({
  bg: 'bg.surface',
  borderRadius: 'lg',
  boxShadow: 'card',
  p: { base: '4', md: '5' },
})

function placedAt(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  return date.toLocaleString('en-US', {
    timeZone: SHOP_TIME_ZONE,
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  })
}

/** The order's state in words: its status once the server has it, else where it stands here. */
function statusText(order: OrderDoc): {
  text: string
  tone: 'accent' | 'neutral' | 'danger' | 'deal'
} {
  if (order.sync === 'queued' || order.sync === 'sending')
    return { text: 'Waiting to be sent', tone: 'deal' }
  if (order.sync === 'refused') return { text: 'Not placed', tone: 'danger' }
  const text = orderStatusLabel(order.status, order.fulfilment)
  return { text, tone: order.status === 'cancelled' ? 'danger' : 'accent' }
}

/** "Includes Cannabis excise tax (15%) $4.80, Sales tax (9.75%) $3.59": each tax it was charged. */
function taxesText(order: OrderDoc): string | null {
  if (!order.totals) return null
  const lines = taxLinesOf(order.totals.taxLines)
  const parts = lines
    ? lines.map((line) => `${line.label} ${formatMoney(line.amount)}`)
    : order.totals.tax > 0
      ? [`Tax ${formatMoney(order.totals.tax)}`]
      : []
  return parts.length > 0 ? `Includes ${parts.join(', ')}` : null
}

function itemCount(order: OrderDoc): number {
  const items = Array.isArray(order.items) ? order.items : []
  return items.reduce((n, item) => n + (Number.isFinite(item.quantity) ? item.quantity : 0), 0)
}

function ReorderReport({ result, order }: { result: ReorderResult; order: OrderDoc | undefined }) {
  const added = result.lines.reduce((n, line) => n + line.added, 0)
  const problems = result.lines.filter((line) => line.problem)
  return (
    <section
      role="status"
      aria-label="Reorder"
      className={css({
        bg: problems.length > 0 ? 'deal.subtle' : 'accent.subtle',
        borderRadius: 'md',
        p: '4',
        display: 'grid',
        gap: '2',
      })}
    >
      <p className={css({ fontWeight: 'semibold' })}>
        {added === 0
          ? `Nothing from order ${order ? orderNumber(order.id) : ''} could be added to your cart.`
          : `Added ${added === 1 ? '1 item' : `${added} items`} from order ${order ? orderNumber(order.id) : ''} to your cart, at today's prices.`}
      </p>
      {problems.length > 0 && (
        <div>
          <p className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>Not added in full:</p>
          <ul className={css({ fontSize: 'sm', listStyle: 'disc', pl: '5' })}>
            {problems.map((line) => (
              <li key={line.productId}>
                {line.name}: {reorderProblemText(line)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {added > 0 && (
        <Link to="/cart" className={button({ size: 'sm', variant: 'solid' })}>
          Go to cart
        </Link>
      )}
    </section>
  )
}

function OrderCard({
  order,
  busy,
  onReorder,
}: {
  order: OrderDoc
  busy: boolean
  onReorder: () => void
}) {
  const number = orderNumber(order.id)
  const status = statusText(order)
  const count = itemCount(order)
  const window = order.fulfilment === 'pickup' && order.pickupWindow ? order.pickupWindow : null
  const taxes = taxesText(order)
  return (
    <li className={card} aria-label={`Order ${number}`}>
      <div
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '2',
        })}
      >
        <h2 className={css({ fontFamily: 'heading', fontSize: 'xl', fontWeight: 'bold' })}>
          {number}
        </h2>
        <span className={badge({ tone: status.tone })}>{status.text}</span>
      </div>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
        Placed {placedAt(order.createdAt)} · {count === 1 ? '1 item' : `${count} items`} ·{' '}
        {order.fulfilment === 'pickup' ? 'Pickup' : 'Delivery'}
      </p>
      {window && (
        <p className={css({ fontSize: 'sm', mt: '1' })}>
          Pickup window: {formatPickupWindow(window)}
        </p>
      )}
      <div
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '3',
          mt: '3',
        })}
      >
        <div>
          <p className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
            Total {formatMoney(order.totals?.total)}
          </p>
          {taxes && <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>{taxes}</p>}
        </div>
        <div className={css({ display: 'flex', gap: '2' })}>
          <Link
            to="/orders/$orderId"
            params={{ orderId: order.id }}
            className={button({ size: 'sm', variant: 'outline' })}
          >
            View order
          </Link>
          <button
            type="button"
            disabled={busy}
            onClick={onReorder}
            className={button({ size: 'sm' })}
          >
            Reorder
          </button>
        </div>
      </div>
    </li>
  )
}

/**
 * /account, "Your orders": the orders placed on this device, newest first, with their live
 * status, each with a link to its page and a Reorder button. Shoppers have no account (SPEC.md
 * §6): the device's orders are what it knows; Track Order finds one placed elsewhere.
 * `reorderLatest` (the header's Reorder): with exactly one order it is reordered at once; with
 * several the shopper picks one here.
 */
export function YourOrdersPage({
  reorderLatest = false,
  onReorderLatestHandled,
}: {
  reorderLatest?: boolean
  onReorderLatestHandled?: () => void
}) {
  const { db } = useHumoData()
  const orders = useDeviceOrders()
  const [busy, setBusy] = useState<string | null>(null)
  const [result, setResult] = useState<ReorderResult | null>(null)
  const [failed, setFailed] = useState(false)
  const [choose, setChoose] = useState(false)
  const handled = useRef(false)

  const run = async (orderId: string) => {
    setBusy(orderId)
    setFailed(false)
    try {
      setResult(await reorder(db, orderId))
    } catch (error) {
      console.error('reorder failed', error)
      setResult(null)
      setFailed(true)
    } finally {
      setBusy(null)
    }
  }

  useEffect(() => {
    // Handled once per ask: the route drops the ask, so the header's next Reorder asks anew.
    if (!reorderLatest) handled.current = false
    if (!reorderLatest || orders === undefined || handled.current) return
    handled.current = true
    if (orders.length === 1) void run(orders[0]!.id)
    else if (orders.length > 1) setChoose(true)
    onReorderLatestHandled?.()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the orders are first read
  }, [reorderLatest, orders])

  const resultOrder = result ? orders?.find((o) => o.id === result.orderId) : undefined
  return (
    <main className={css({ maxW: '3xl', mx: 'auto', display: 'grid', gap: '5' })}>
      <div>
        <h1
          className={css({
            fontFamily: 'heading',
            fontSize: { base: '3xl', md: '4xl' },
            fontWeight: 'bold',
          })}
        >
          Your orders
        </h1>
        <p className={css({ color: 'fg.muted', mt: '1' })}>Orders placed on this device.</p>
      </div>
      {result && <ReorderReport result={result} order={resultOrder} />}
      {failed && (
        <p
          role="alert"
          className={css({ bg: 'danger.subtle', color: 'danger.fg', p: '4', borderRadius: 'md' })}
        >
          We couldn&apos;t add that order to your cart. Please try again.
        </p>
      )}
      {choose && !result && (
        <p role="status" className={css({ fontWeight: 'semibold' })}>
          Choose the order to reorder.
        </p>
      )}
      {orders === undefined ? null : orders.length === 0 ? (
        <div
          className={css({
            bg: 'bg.surface',
            borderRadius: 'lg',
            boxShadow: 'card',
            p: '8',
            textAlign: 'center',
            display: 'grid',
            gap: '3',
            justifyItems: 'center',
          })}
        >
          <p className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>
            No orders on this device yet
          </p>
          <p className={css({ color: 'fg.muted', maxW: 'md' })}>
            Orders you place here appear on this page. Ordered on another phone or computer? Find it
            with your order number.
          </p>
          <div
            className={css({
              display: 'flex',
              flexWrap: 'wrap',
              gap: '3',
              justifyContent: 'center',
            })}
          >
            <Link to="/track" className={button()}>
              Track Order
            </Link>
            <Link to="/menu" className={button({ variant: 'outline' })}>
              Browse the menu
            </Link>
          </div>
        </div>
      ) : (
        <>
          <ul className={css({ display: 'grid', gap: '4' })}>
            {orders.map((order) => (
              <OrderCard
                key={order.id}
                order={order}
                busy={busy !== null}
                onReorder={() => void run(order.id)}
              />
            ))}
          </ul>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Looking for an order placed on another device?{' '}
            <Link to="/track" className={css({ color: 'accent.fg', fontWeight: 'semibold' })}>
              Track Order
            </Link>
          </p>
        </>
      )}
    </main>
  )
}
