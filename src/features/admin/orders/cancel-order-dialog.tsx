import { useState, type FormEvent } from 'react'
import { css } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { CANCEL_REASONS, orderNumber } from '../../../lib/order-status'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { fieldError } from '../components/admin-styles'
import { TextField } from '../components/text-field'
import { cancelReasonOf, MAX_CANCEL_REASON, OTHER_REASON } from './cancel-reason'

type Props = {
  /** The order about to be cancelled, or null when none is. */
  order: AdminOrderDoc | null
  onKeep: () => void
  onCancelOrder: (reason: string) => void
}

const choice = css({
  alignItems: 'center',
  cursor: 'pointer',
  display: 'flex',
  fontSize: 'sm',
  gap: '2',
  minH: '8',
  '& input': { accentColor: 'accent.solid', h: '4', w: '4' },
})

/**
 * "Cancel order #…?": a cancel says why (issue 32, docs/decisions/055-delivery-by-the-rules.md), in words the shopper reads on
 * their order page. "Keep order" leaves it where it was.
 */
export function CancelOrderDialog({ order, onKeep, onCancelOrder }: Props) {
  return (
    <PanelDialog
      open={order !== null}
      onOpenChange={(open) => !open && onKeep()}
      role="alertdialog"
      title={order ? `Cancel order ${orderNumber(order.id)}?` : 'Cancel the order?'}
      description={order ? `The customer, ${order.customerName}, sees the reason.` : undefined}
    >
      {order && <ReasonForm key={order.id} onKeep={onKeep} onCancelOrder={onCancelOrder} />}
    </PanelDialog>
  )
}

function ReasonForm({ onKeep, onCancelOrder }: Omit<Props, 'order'>) {
  const [picked, setPicked] = useState('')
  const [other, setOther] = useState('')
  const [error, setError] = useState<string | null>(null)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const result = cancelReasonOf(picked, other)
    if (!result.ok) return setError(result.error)
    onCancelOrder(result.reason)
  }
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '3' })}>
      <fieldset className={css({ display: 'grid', gap: '1' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>
          Why is it cancelled?
        </legend>
        {[...CANCEL_REASONS, OTHER_REASON].map((reason) => (
          <label key={reason} className={choice}>
            <input
              type="radio"
              name="cancel-reason"
              value={reason}
              checked={picked === reason}
              onChange={() => setPicked(reason)}
            />
            {reason}
          </label>
        ))}
      </fieldset>
      {picked === OTHER_REASON && (
        <TextField
          label="Reason"
          value={other}
          onValueChange={setOther}
          maxLength={MAX_CANCEL_REASON}
        />
      )}
      {error && (
        <p role="alert" className={fieldError}>
          {error}
        </p>
      )}
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button type="button" variant="outline" onClick={onKeep}>
          Keep order
        </Button>
        <Button type="submit">Cancel order</Button>
      </div>
    </form>
  )
}
