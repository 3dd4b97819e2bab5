import { css } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { ID_CHECK_LABEL, orderNumber, orderStatusLabel } from '../../../lib/order-status'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { muted } from '../components/admin-styles'

type Props = {
  /** The handoff waiting for the check, or null when none is. */
  order: AdminOrderDoc | null
  onCancel: () => void
  onConfirm: () => void
}

/**
 * Before an order is handed over ("Picked up", "Delivered"), staff confirm they checked the
 * buyer's ID (21+, California B&P §26140). Cancel leaves the order where it was.
 */
export function IdCheckDialog({ order, onCancel, onConfirm }: Props) {
  const to = order ? orderStatusLabel('delivered', order.fulfilment) : ''
  return (
    <PanelDialog
      open={order !== null}
      onOpenChange={(open) => !open && onCancel()}
      role="alertdialog"
      title={order ? `${to}: order ${orderNumber(order.id)}` : 'Hand over the order'}
      description={
        order
          ? `Check the ID of ${order.customerName || 'the buyer'} before the order is ${to.toLowerCase()}.`
          : undefined
      }
    >
      <div className={css({ display: 'grid', gap: '4' })}>
        <p className={muted}>
          California law (B&amp;P §26140) requires verifying that the buyer is 21 or older, with a
          valid government ID, at handoff. Your confirmation is recorded in the order&apos;s
          history.
        </p>
        <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={onConfirm}>{ID_CHECK_LABEL}</Button>
        </div>
      </div>
    </PanelDialog>
  )
}
