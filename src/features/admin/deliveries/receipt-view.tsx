import { css } from 'styled-system/css'
import { formatMoney } from '../../../lib/money'
import { table } from '../components/admin-styles'
import { shopDateTime } from '../admin-time'
import { deliveredByText, receiptCustomerKind, type DeliveryReceipt } from './delivery-receipt'

const dl = css({
  columnGap: '4',
  display: 'grid',
  fontSize: 'sm',
  gap: '1',
  gridTemplateColumns: 'auto 1fr',
  '& dt': { color: 'fg.muted' },
})

/** The delivery receipt of 4 CCR §15420, as the customer reads and signs it. */
export function ReceiptView({ receipt }: { receipt: DeliveryReceipt }) {
  return (
    <section
      aria-label="Delivery receipt"
      data-testid="delivery-receipt"
      className={css({ display: 'grid', gap: '3' })}
    >
      <header className={css({ fontSize: 'sm' })}>
        <strong className={css({ display: 'block', fontSize: 'md' })}>
          {receipt.retailer.name}
        </strong>
        <span className={css({ display: 'block' })}>Licence {receipt.retailer.licenceNumber}</span>
        <span className={css({ display: 'block' })}>{receipt.retailer.address}</span>
      </header>
      <dl className={dl}>
        <dt>Customer</dt>
        <dd>
          {receipt.customer.firstName} ({receiptCustomerKind(receipt.customer.kind)})
        </dd>
        <dt>Address</dt>
        <dd>{receipt.address}</dd>
        <dt>Requested</dt>
        <dd>{shopDateTime(receipt.requestedAt)}</dd>
        <dt>Delivered</dt>
        <dd>{shopDateTime(receipt.deliveredAt)}</dd>
      </dl>
      <p className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
        {deliveredByText(receipt.driver)}
      </p>
      <table className={table}>
        <thead>
          <tr>
            <th>Item</th>
            <th>Qty</th>
            <th>Each</th>
            <th>Total</th>
          </tr>
        </thead>
        <tbody>
          {receipt.items.map((item, i) => (
            <tr key={`${item.name}-${i}`}>
              <td>{item.name}</td>
              <td>{item.quantity}</td>
              <td>{formatMoney(item.unitPrice)}</td>
              <td>{formatMoney(item.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className={dl}>
        <dt>Subtotal</dt>
        <dd>{formatMoney(receipt.subtotal)}</dd>
        {receipt.shipping > 0 && (
          <>
            <dt>Delivery</dt>
            <dd>{formatMoney(receipt.shipping)}</dd>
          </>
        )}
        {receipt.discount > 0 && (
          <>
            <dt>Discount</dt>
            <dd>-{formatMoney(receipt.discount)}</dd>
          </>
        )}
        {receipt.taxLines.map((line) => (
          <FragmentLine key={line.label} label={line.label} amount={line.amount} />
        ))}
        <dt className={css({ fontWeight: 'bold' })}>Total</dt>
        <dd className={css({ fontWeight: 'bold' })} data-testid="receipt-total">
          {formatMoney(receipt.total)}
        </dd>
      </dl>
      {receipt.signature && (
        <figure className={css({ display: 'grid', gap: '1' })}>
          <img
            src={receipt.signature}
            alt={`Signature of ${receipt.customer.firstName}`}
            className={css({ bg: 'white', borderRadius: 'md', borderWidth: '1px', maxW: 'full' })}
          />
          <figcaption className={css({ color: 'fg.muted', fontSize: 'xs' })}>
            Customer signature
          </figcaption>
        </figure>
      )}
    </section>
  )
}

function FragmentLine({ label, amount }: { label: string; amount: number }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{formatMoney(amount)}</dd>
    </>
  )
}
