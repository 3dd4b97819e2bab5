import { useState } from 'react'
import { css } from 'styled-system/css'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { orderNumber } from '../../../lib/order-status'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { errorBox } from '../components/admin-styles'
import type { HandoffInput } from '../orders/id-check.validation'
import { HandoffForm } from '../orders/id-check-dialog'
import { receiptFromOrder } from './delivery-receipt'
import { ReceiptView } from './receipt-view'
import { SignaturePad } from './signature-pad'

export type DeliveryHandoff = HandoffInput & { signature: string }

type Props = {
  /** The delivery at the door, or null when none is. */
  order: AdminOrderDoc | null
  /** The signed-in driver's name and number, for an order whose driver the device lacks. */
  driver?: { firstName: string | null; employeeNumber: number | null } | null
  onCancel: () => void
  onHandOver: (handoff: DeliveryHandoff) => void
}

/**
 * At the door (issue 32, docs/decisions/055-delivery-by-the-rules.md): the delivery receipt of 4 CCR §15420, built on this
 * device from the order and the shop's facts; then the buyer's ID (B&P §26140); then the
 * customer signs the receipt and the driver hands the order over. Nothing here needs a
 * connection: the handoff is saved on the device and pushed when there is one.
 */
export function DeliverDialog({ order, driver, onCancel, onHandOver }: Props) {
  return (
    <PanelDialog
      open={order !== null}
      onOpenChange={(open) => !open && onCancel()}
      size="lg"
      title={order ? `Delivery receipt: order ${orderNumber(order.id)}` : 'Delivery receipt'}
    >
      {order && (
        <DoorFlow
          key={order.id}
          order={order}
          driver={driver}
          onCancel={onCancel}
          onHandOver={onHandOver}
        />
      )}
    </PanelDialog>
  )
}

function DoorFlow({ order, driver, onCancel, onHandOver }: Props & { order: AdminOrderDoc }) {
  const { facts } = useShopSettings()
  const [openedAt] = useState(() => new Date())
  const [idCheck, setIdCheck] = useState<HandoffInput | null>(null)
  const [signature, setSignature] = useState<string | null>(null)
  const [error, setError] = useState<string | undefined>()
  const by = {
    firstName: order.driver?.firstName ?? driver?.firstName ?? null,
    employeeNumber: order.driver?.employeeNumber ?? driver?.employeeNumber ?? null,
  }
  const receipt = receiptFromOrder(order, facts, by, openedAt)

  const handOver = () => {
    if (!signature) return setError('The customer signs the receipt first')
    if (idCheck) onHandOver({ ...idCheck, signature })
  }

  return (
    <div className={css({ display: 'grid', gap: '5' })}>
      <ReceiptView receipt={receipt} />
      {!by.firstName && (
        <p role="alert" className={errorBox}>
          This order has no driver with a first name: the receipt must name who delivers it.
        </p>
      )}
      {idCheck === null ? (
        <section aria-label="ID check" className={css({ display: 'grid', gap: '2' })}>
          <h3 className={css({ fontSize: 'md', fontWeight: 'semibold' })}>Check the ID</h3>
          <HandoffForm order={order} onCancel={onCancel} onConfirm={setIdCheck} />
        </section>
      ) : (
        <section aria-label="Signature" className={css({ display: 'grid', gap: '3' })}>
          <SignaturePad
            error={error}
            onChange={(value) => {
              setSignature(value)
              if (value) setError(undefined)
            }}
          />
          <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="button" onClick={handOver}>
              Hand over
            </Button>
          </div>
        </section>
      )}
    </div>
  )
}
