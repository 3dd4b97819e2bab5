import { css } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { shopDate } from '../../../lib/compliance-rules'
import { mmicValidOn } from '../../../lib/order-totals'
import { customerKindLabel, MMIC_CHECK_LABEL } from '../../../lib/order-status'
import { formatDay } from '../compliance/compliance-rules.validation'

type Sale = Pick<AdminOrderDoc, 'customerKind' | 'mmic' | 'salesTaxExempt' | 'idNumberRecorded'>

/**
 * What the law asks staff to know of a sale (docs/decisions/051-california-taxes-and-daily-limits.md), as <dt>/<dd> pairs of the
 * order's customer list: adult use or medical, and for a medical patient the MMIC's number and
 * expiry (staff only: the shopper's document never carries them). The ID document's number is
 * never shown: the server keeps only a keyed hash, and the board says only that it was recorded.
 */
export function SaleFacts({ order, today = shopDate() }: { order: Sale; today?: string }) {
  const medical = order.customerKind === 'medical'
  const mmic = order.mmic
  const expired = mmic?.expiry ? !mmicValidOn(mmic.expiry, today) : false
  return (
    <>
      <dt>Sale</dt>
      <dd data-testid="customer-kind">{customerKindLabel(order.customerKind)}</dd>
      {medical && (
        <>
          <dt>MMIC</dt>
          <dd data-testid="mmic">
            {mmic ? mmic.number : 'None given: sales tax charged'}
            {mmic && order.salesTaxExempt && (
              <span className={css({ color: 'fg.muted', display: 'block', fontSize: 'xs' })}>
                No sales tax on the cannabis
              </span>
            )}
          </dd>
        </>
      )}
      {mmic && (
        <>
          <dt>Expires</dt>
          <dd>
            {mmic.expiry ? formatDay(mmic.expiry) : 'Not given'}
            {expired && (
              <strong className={css({ color: 'danger.fg', display: 'block', fontSize: 'xs' })}>
                {order.salesTaxExempt
                  ? 'Expired: this order cannot be handed over without sales tax'
                  : 'Expired'}
              </strong>
            )}
          </dd>
          {mmic.checked && (
            <>
              <dt>At handoff</dt>
              <dd>{MMIC_CHECK_LABEL}</dd>
            </>
          )}
        </>
      )}
      {order.idNumberRecorded && (
        <>
          <dt>ID number</dt>
          <dd>Recorded at handoff</dd>
        </>
      )}
    </>
  )
}
