import type { SupabaseClient } from '@supabase/supabase-js'
import { useState } from 'react'
import { css, cx } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import type { OrderNoticeDoc } from '../../../data/schemas/order-notice.schema'
import { formatMoney } from '../../../lib/money'
import { orderNumber } from '../../../lib/order-status'
import { Button } from '../../../ui/button'
import { card, muted } from '../components/admin-styles'
import type { MoveOptions } from '../orders/orders.actions'
import { isWaitingToSync } from '../orders/order-board-model'
import { OrderNotices } from '../orders/order-notices'
import { addressLine, firstNameOf } from './delivery-receipt'
import { DeliverDialog } from './deliver-dialog'
import { FirstNameForm } from './first-name-form'
import { useStaffProfile } from './use-staff-profile'

type Props = {
  supabase: SupabaseClient | null
  userId: string
  orders: AdminOrderDoc[] | null
  notices: OrderNoticeDoc[]
  onDismissNotice: (id: string) => void
  onDeliver: (order: AdminOrderDoc, options: MoveOptions) => void
}

/**
 * A driver's phone (issue 32, docs/decisions/055-delivery-by-the-rules.md): the orders they have out for delivery (the server
 * sends a driver only theirs), each with what the door needs; "Deliver" opens the receipt, the
 * ID check and the customer's signature. Works offline once the orders are on the device.
 */
export function DriverDeliveries(props: Props) {
  const { profile, setFirstName } = useStaffProfile(props.supabase, props.userId)
  const [deliveringId, setDeliveringId] = useState<string | null>(null)
  const out = (props.orders ?? []).filter((o) => o.status === 'shipped')
  const handed = (props.orders ?? []).filter((o) => o.status === 'delivered' && isWaitingToSync(o))
  const delivering = out.find((o) => o.id === deliveringId) ?? null
  const needsName = profile !== null && profile.firstName === null

  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <OrderNotices notices={props.notices} onDismiss={props.onDismissNotice} />
      {needsName && <FirstNameForm onSave={setFirstName} />}
      <section aria-labelledby="out-heading" className={css({ display: 'grid', gap: '3' })}>
        <h2 id="out-heading" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
          Out for delivery
        </h2>
        {props.orders === null && <p className={muted}>Loading your deliveries…</p>}
        {props.orders !== null && out.length === 0 && (
          <p className={muted}>No deliveries assigned to you right now.</p>
        )}
        {out.map((order) => (
          <DeliveryCard
            key={order.id}
            order={order}
            disabled={needsName}
            onDeliver={() => setDeliveringId(order.id)}
          />
        ))}
      </section>
      {handed.length > 0 && (
        <section aria-label="Handed over" className={css({ display: 'grid', gap: '2' })}>
          <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>Handed over</h2>
          {handed.map((order) => (
            <p key={order.id} className={css({ fontSize: 'sm' })}>
              {orderNumber(order.id)}: delivered on this device,{' '}
              <span className={css({ color: 'deal.fg', fontWeight: 'semibold' })}>
                Waiting to sync
              </span>
            </p>
          ))}
        </section>
      )}
      <DeliverDialog
        order={delivering}
        driver={profile}
        onCancel={() => setDeliveringId(null)}
        onHandOver={({ idNumber, mmicChecked, signature }) => {
          if (delivering)
            props.onDeliver(delivering, { idChecked: true, idNumber, mmicChecked, signature })
          setDeliveringId(null)
        }}
      />
    </div>
  )
}

function DeliveryCard({
  order,
  disabled,
  onDeliver,
}: {
  order: AdminOrderDoc
  disabled: boolean
  onDeliver: () => void
}) {
  return (
    <article
      aria-label={`Delivery ${orderNumber(order.id)}`}
      data-order-id={order.id}
      className={cx(card, css({ display: 'grid', gap: '2', p: '4' }))}
    >
      <header className={css({ display: 'flex', justifyContent: 'space-between', gap: '2' })}>
        <strong className={css({ fontFamily: 'mono' })}>{orderNumber(order.id)}</strong>
        <strong>{formatMoney(order.total)}</strong>
      </header>
      <p className={css({ fontWeight: 'medium' })}>
        {firstNameOf(order.customerName)}
        {order.customerKind === 'medical' ? ' (Medical)' : ''}
      </p>
      <address className={css({ fontSize: 'sm', fontStyle: 'normal' })}>
        {addressLine(order.shippingAddress)}
      </address>
      <ul className={css({ fontSize: 'sm' })}>
        {order.items.map((item, i) => (
          <li key={`${item.name}-${i}`}>
            {item.quantity} × {item.name}
          </li>
        ))}
      </ul>
      <Button type="button" onClick={onDeliver} disabled={disabled}>
        Deliver
      </Button>
    </article>
  )
}
