import type { SupabaseClient } from '@supabase/supabase-js'
import { css } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import {
  idCheckLabel,
  MMIC_CHECK_LABEL,
  orderStatusLabel,
  paymentLabel,
} from '../../../lib/order-status'
import { formatPickupWindow } from '../../../lib/pickup-windows'
import { Button } from '../../../ui/button'
import { ActionMenu } from '../../../ui/menu'
import { PanelDialog } from '../../../ui/panel-dialog'
import { muted, sectionTitle, table } from '../components/admin-styles'
import { isWaitingToSync, moveTargets, shortOrderId, type OrderStatus } from './order-board-model'
import { StatusBadge } from './order-card'
import { OrderReturnsSection } from './order-returns-section'
import { OrderTotals } from './order-totals'
import { SaleFacts } from './sale-facts'
import { shopDate, shopDateTime } from '../admin-time'

type Props = {
  order: AdminOrderDoc | null
  onClose: () => void
  onMove: (order: AdminOrderDoc, to: OrderStatus) => void
  /** For a completed order's returns (they are recorded on the server). */
  supabase?: SupabaseClient | null
  /** A delivered delivery's signed receipt (from the server). */
  onViewReceipt: (order: AdminOrderDoc) => void
}

const dl = css({
  display: 'grid',
  fontSize: 'sm',
  gap: '1',
  gridTemplateColumns: 'auto 1fr',
  columnGap: '4',
  '& dt': { color: 'fg.muted' },
})

/** One order in full: items, customer, address, totals, payment and the history of its status. */
export function OrderDetailDialog({
  order,
  onClose,
  onMove,
  supabase = null,
  onViewReceipt,
}: Props) {
  const words = (status: string) => orderStatusLabel(status, order?.fulfilment)
  const pickup = order?.fulfilment === 'pickup'
  const pickupWindow = order?.pickupWindow
  const idCheck = idCheckLabel(order?.customerKind)
  return (
    <PanelDialog
      open={order !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={order ? `Order ${shortOrderId(order.id)}` : 'Order'}
      description={order ? `Placed ${shopDateTime(order.createdAt)}` : undefined}
    >
      {order && (
        <div className={css({ display: 'grid', gap: '5' })}>
          <div
            className={css({ alignItems: 'center', display: 'flex', flexWrap: 'wrap', gap: '3' })}
          >
            <StatusBadge status={order.status} fulfilment={order.fulfilment} />
            {isWaitingToSync(order) && (
              <span className={css({ color: 'deal.fg', fontSize: 'xs', fontWeight: 'semibold' })}>
                Waiting to sync
              </span>
            )}
            <ActionMenu
              label="Change status"
              title="Move to…"
              trigger="Change status"
              triggerClassName={css({
                borderColor: 'border.strong',
                borderRadius: 'full',
                borderWidth: '1px',
                fontSize: 'sm',
                px: '3',
                py: '1',
              })}
              actions={moveTargets(order)}
              onSelect={(value) => onMove(order, value as OrderStatus)}
            />
            {!pickup && order.status === 'delivered' && order.signed && (
              <Button size="sm" variant="outline" onClick={() => onViewReceipt(order)}>
                View delivery receipt
              </Button>
            )}
          </div>
          <DeliveryFacts order={order} />
          <section>
            <h3 className={sectionTitle}>Items</h3>
            <table className={table}>
              <thead>
                <tr>
                  <th>Product</th>
                  <th>Qty</th>
                  <th>Each</th>
                  <th>Total</th>
                </tr>
              </thead>
              <tbody>
                {order.items.map((item, i) => (
                  <tr key={`${item.productId ?? item.name}-${i}`}>
                    <td>
                      {item.name}
                      {item.sku && (
                        <span className={css({ color: 'fg.subtle', fontSize: 'xs', ml: '2' })}>
                          {item.sku}
                        </span>
                      )}
                    </td>
                    <td>{item.quantity}</td>
                    <td>{formatMoney(item.unitPrice)}</td>
                    <td>{formatMoney(item.lineTotal)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <OrderTotals order={order} pickup={pickup} />
          </section>
          {order.status === 'delivered' && !isWaitingToSync(order) && (
            <OrderReturnsSection orderId={order.id} supabase={supabase} />
          )}
          <div
            className={css({
              display: 'grid',
              gap: '5',
              gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
            })}
          >
            <section>
              <h3 className={sectionTitle}>Customer</h3>
              <dl className={dl}>
                <dt>Name</dt>
                <dd>{order.customerName}</dd>
                <dt>Email</dt>
                <dd>
                  <a href={`mailto:${order.customerEmail}`}>{order.customerEmail}</a>
                </dd>
                {order.customerPhone && (
                  <>
                    <dt>Phone</dt>
                    <dd>
                      <a href={`tel:${order.customerPhone}`}>{order.customerPhone}</a>
                    </dd>
                  </>
                )}
                <SaleFacts order={order} />
              </dl>
            </section>
            <section>
              <h3 className={sectionTitle}>{pickup ? 'Pickup' : 'Delivery address'}</h3>
              {pickup ? (
                <p className={css({ fontSize: 'sm' })} data-testid="pickup-window">
                  {pickupWindow?.start && pickupWindow.end
                    ? `Pickup window: ${formatPickupWindow({ start: pickupWindow.start, end: pickupWindow.end })}`
                    : 'In-store pickup'}
                </p>
              ) : order.shippingAddress ? (
                <address className={css({ fontSize: 'sm', fontStyle: 'normal' })}>
                  {order.shippingAddress.address1}
                  {order.shippingAddress.address2 && <>, {order.shippingAddress.address2}</>}
                  <br />
                  {order.shippingAddress.city}, {order.shippingAddress.state}{' '}
                  {order.shippingAddress.zipCode}
                </address>
              ) : (
                <p className={muted}>No address</p>
              )}
            </section>
            <section>
              <h3 className={sectionTitle}>{pickup ? 'Payment' : 'Payment and delivery'}</h3>
              <dl className={dl}>
                <dt>Payment method</dt>
                <dd>{paymentLabel(order.paymentMethod, order.fulfilment)}</dd>
                {!pickup && (
                  <>
                    <dt>Delivery</dt>
                    <dd>{order.deliveryMethod}</dd>
                  </>
                )}
                {!pickup && order.estimatedDelivery && (
                  <>
                    <dt>Estimated</dt>
                    <dd>{shopDate(order.estimatedDelivery)}</dd>
                  </>
                )}
                {order.trackingNumber && (
                  <>
                    <dt>Tracking</dt>
                    <dd>{order.trackingNumber}</dd>
                  </>
                )}
              </dl>
            </section>
            <section>
              <h3 className={sectionTitle}>Status history</h3>
              <ol className={css({ display: 'grid', fontSize: 'sm', gap: '1' })}>
                {order.statusHistory.map((h, i) => (
                  <li key={`${h.at}-${i}`}>
                    <strong>{words(h.status ?? '')}</strong>{' '}
                    <span className={css({ color: 'fg.muted' })}>
                      {shopDateTime(h.at)}
                      {h.by ? ` by ${h.by}` : ''}
                    </span>
                    {h.idChecked && (
                      <span className={css({ display: 'block', fontSize: 'xs' })}>
                        {idCheck}
                        {h.mmicChecked ? `, ${MMIC_CHECK_LABEL}` : ''}
                        {h.by ? ` by ${h.by}` : ''}
                        {h.at ? ` at ${shopDateTime(h.at)}` : ''}
                      </span>
                    )}
                  </li>
                ))}
                {isWaitingToSync(order) && (
                  <li>
                    <strong>{words(order.status)}</strong>{' '}
                    <span className={css({ color: 'deal.fg' })}>
                      {order.idChecked
                        ? `${idCheck}${order.mmicChecked ? `, ${MMIC_CHECK_LABEL}` : ''} on this device, `
                        : 'on this device, '}
                      waiting to sync
                    </span>
                  </li>
                )}
              </ol>
            </section>
          </div>
        </div>
      )}
    </PanelDialog>
  )
}

/** Why the order was cancelled, and who drives it (docs/decisions/055-delivery-by-the-rules.md). */
function DeliveryFacts({ order }: { order: AdminOrderDoc }) {
  const reason =
    order.cancelReason ??
    [...order.statusHistory].reverse().find((h) => h.status === 'cancelled')?.reason
  return (
    <>
      {order.status === 'cancelled' && reason && (
        <p className={css({ fontSize: 'sm' })} data-testid="cancel-reason">
          <strong>Cancelled:</strong> {reason}
        </p>
      )}
      {order.fulfilment !== 'pickup' && order.driver && (
        <p className={css({ fontSize: 'sm' })} data-testid="order-driver">
          <strong>Driver:</strong> {order.driver.firstName ?? 'no first name yet'}
          {order.driver.employeeNumber != null ? `, employee #${order.driver.employeeNumber}` : ''}
        </p>
      )}
    </>
  )
}
