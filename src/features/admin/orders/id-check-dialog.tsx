import { useState, type FormEvent } from 'react'
import { css } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { shopDate } from '../../../lib/compliance-rules'
import {
  customerKindLabel,
  idCheckLabel,
  MMIC_CHECK_LABEL,
  orderNumber,
  orderStatusLabel,
} from '../../../lib/order-status'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { errorBox, fieldError, muted } from '../components/admin-styles'
import { PlainCheckbox } from '../components/plain-checkbox'
import { TextField } from '../components/text-field'
import { formatDay } from '../compliance/compliance-rules.validation'
import {
  mmicExpiredOn,
  needsMmicCheck,
  validateHandoff,
  type HandoffInput,
} from './id-check.validation'

type Props = {
  /** The handoff waiting for the check, or null when none is. */
  order: AdminOrderDoc | null
  onCancel: () => void
  onConfirm: (input: HandoffInput) => void
}

/**
 * Before an order is handed over ("Picked up", "Delivered"), staff check the buyer's ID (21+,
 * or 18+ for a medical patient; California B&P §26140) and enter its number, and for a medical
 * order without sales tax confirm the patient's MMIC. Cancel leaves the order where it was.
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
      {/* Keyed: what was typed for one order never shows for the next. */}
      {order && (
        <HandoffForm key={order.id} order={order} onCancel={onCancel} onConfirm={onConfirm} />
      )}
    </PanelDialog>
  )
}

export function HandoffForm({
  order,
  onCancel,
  onConfirm,
}: {
  order: AdminOrderDoc
  onCancel: () => void
  onConfirm: (input: HandoffInput) => void
}) {
  const [idNumber, setIdNumber] = useState('')
  const [mmicChecked, setMmicChecked] = useState(false)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const medical = order.customerKind === 'medical'
  const mmic = order.mmic
  const askMmic = needsMmicCheck(order)
  const expired = askMmic && mmicExpiredOn(mmic?.expiry, shopDate())

  const confirm = (event: FormEvent) => {
    event.preventDefault()
    const result = validateHandoff({ idNumber, mmicChecked }, order)
    if (!result.ok) return setErrors(result.errors)
    setErrors({})
    onConfirm(result.input)
  }

  return (
    <form noValidate onSubmit={confirm} className={css({ display: 'grid', gap: '4' })}>
      <p className={muted}>
        {medical
          ? `${customerKindLabel('medical')}: California law (B&P §26140) allows a medical patient 18 or older with a physician's recommendation. Verify the age with a valid government ID at handoff.`
          : 'California law (B&P §26140) requires verifying that the buyer is 21 or older, with a valid government ID, at handoff.'}{' '}
        Your confirmation is recorded in the order&apos;s history.
      </p>
      <TextField
        label="ID number"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={idNumber}
        onValueChange={setIdNumber}
        error={errors.idNumber}
      />
      <p className={css({ color: 'fg.subtle', fontSize: 'xs', mt: '-2' })}>
        The number on the ID. The server keeps only a keyed fingerprint of it to count this
        person&apos;s purchases today; it is never shown again.
      </p>
      {askMmic && (
        <div
          className={css({
            borderColor: 'border.default',
            borderRadius: 'md',
            borderWidth: '1px',
            display: 'grid',
            gap: '2',
            p: '3',
          })}
          data-testid="mmic-check"
        >
          <p className={css({ fontSize: 'sm' })}>
            No sales tax was charged: check the patient&apos;s Medical Marijuana ID Card.
            <br />
            Card number <strong>{mmic?.number ?? 'not given'}</strong>, expires{' '}
            <strong>{mmic?.expiry ? formatDay(mmic.expiry) : 'not given'}</strong>
          </p>
          {expired && (
            <p role="alert" className={errorBox}>
              This card expired on {formatDay(mmic!.expiry!)}: the order cannot be handed over
              without sales tax. Cancel it and place it again as a sale with sales tax.
            </p>
          )}
          <PlainCheckbox checked={mmicChecked} onCheckedChange={setMmicChecked} disabled={expired}>
            {MMIC_CHECK_LABEL}
          </PlainCheckbox>
          {errors.mmicChecked && <p className={fieldError}>{errors.mmicChecked}</p>}
        </div>
      )}
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={expired}>
          {idCheckLabel(order.customerKind)}
        </Button>
      </div>
    </form>
  )
}
