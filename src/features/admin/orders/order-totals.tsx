import { css } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import { receiptNotes, receiptRows } from '../../../lib/receipt'

type Totals = Pick<
  AdminOrderDoc,
  'subtotal' | 'tax' | 'taxLines' | 'shipping' | 'discount' | 'total' | 'salesTaxExempt'
>

type StoredLine = NonNullable<Totals['taxLines']>[number]

/** A stored line (its fields optional in the device schema) as the receipt reads it. */
const lineOf = (line: StoredLine) => ({
  kind: line.kind ?? 'tax',
  label: line.label ?? 'Tax',
  amount: line.amount ?? 0,
})

const list = css({
  display: 'grid',
  fontSize: 'sm',
  gap: '1',
  gridTemplateColumns: '1fr auto',
  ml: 'auto',
  maxW: 'sm',
  mt: '3',
  '& dt': { color: 'fg.muted' },
  '& dd': { textAlign: 'right' },
})

/**
 * The order's money on the board as its receipt states it (src/lib/receipt.ts, the same rows
 * the shopper's screens print): subtotal, delivery or pickup, discount, each tax on its own line
 * ("Cannabis excise tax (15%)", "Sales tax (8.5%)", the local tax passed on; one "Tax" line for
 * an order placed before), the total, and that the excise is included.
 */
export function OrderTotals({ order, pickup }: { order: Totals; pickup: boolean }) {
  const totals = { ...order, taxLines: order.taxLines?.map(lineOf) ?? null }
  const notes = receiptNotes(totals, 'receipt')
  return (
    <div data-testid="order-totals">
      <dl className={list}>
        {receiptRows(totals, pickup ? 'pickup' : 'delivery').map((row, i) => (
          <div key={`${row.label}-${i}`} className={css({ display: 'contents' })}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
        <dt className={css({ fontWeight: 'bold', color: 'fg.default!' })}>Total</dt>
        <dd className={css({ fontWeight: 'bold' })}>{formatMoney(order.total)}</dd>
      </dl>
      {notes.length > 0 && (
        <div
          className={css({
            color: 'fg.muted',
            display: 'grid',
            fontSize: 'xs',
            gap: '1',
            ml: 'auto',
            maxW: 'sm',
            mt: '2',
            textAlign: 'right',
          })}
        >
          {notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
      )}
    </div>
  )
}
