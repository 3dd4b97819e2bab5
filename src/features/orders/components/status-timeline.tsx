import { css } from 'styled-system/css'
import { orderStatusLabel, timelineSteps } from '../../../lib/order-status'
import { formatKnownAt } from '../order-view-model'

/**
 * The order's steps in its own words ("Received", "Preparing", "Ready for pickup", "Picked up" /
 * "Out for delivery", "Delivered"); the current one is marked for assistive technology with
 * aria-current="step". A cancelled order says so plainly instead, with the server's reason when
 * it gave one (an order the shop never confirmed, decision 026).
 */
export function StatusTimeline({
  status,
  fulfilment,
  history,
}: {
  status: string
  fulfilment: string
  history: { status: string; at: string; reason?: string }[]
}) {
  // A live region that stays while the page follows the order: a screen reader hears each new
  // status the moment it arrives (WCAG 4.1.3), not only the steps drawn below.
  const live = (
    <p role="status" aria-atomic="true" className={css({ srOnly: true })}>
      Order status: {orderStatusLabel(status, fulfilment)}
    </p>
  )
  if (status === 'cancelled') {
    const reason = history.findLast((h) => h.status === 'cancelled')?.reason
    return (
      <>
        {live}
        <p
          className={css({
            bg: 'danger.subtle',
            color: 'danger.fg',
            p: '4',
            borderRadius: 'md',
            fontWeight: 'bold',
          })}
        >
          {orderStatusLabel('cancelled', fulfilment)}:{' '}
          {reason ?? 'this order was cancelled by the shop.'}
        </p>
      </>
    )
  }
  const steps = timelineSteps(fulfilment)
  const current = Math.max(
    0,
    steps.findIndex((s) => s.status === status),
  )
  const when = (step: string) => history.findLast((h) => h.status === step)?.at
  return (
    <>
      {live}
      <ol
        aria-label="Order status"
        className={css({ display: 'flex', flexDirection: 'column', gap: '0', listStyle: 'none' })}
      >
        {steps.map((step, i) => {
          const done = i <= current
          const at = done ? when(step.status) : undefined
          return (
            <li
              key={step.status}
              aria-current={i === current ? 'step' : undefined}
              className={css({
                display: 'grid',
                gridTemplateColumns: '2rem 1fr auto',
                alignItems: 'center',
                gap: '3',
                py: '2',
                color: done ? 'fg.default' : 'fg.subtle',
                fontWeight: i === current ? 'bold' : 'normal',
              })}
            >
              <span
                aria-hidden="true"
                className={css({
                  w: '7',
                  h: '7',
                  borderRadius: 'full',
                  display: 'grid',
                  placeItems: 'center',
                  fontSize: 'sm',
                  borderWidth: '2px',
                  borderColor: done ? 'accent.fg' : 'border.default',
                  bg: i === current ? 'accent.fg' : 'transparent',
                  color: i === current ? 'bg.surface' : 'accent.fg',
                })}
              >
                {i < current ? '✓' : i + 1}
              </span>
              <span>{step.label}</span>
              {at && (
                <span className={css({ fontSize: 'sm', color: 'fg.muted', fontWeight: 'normal' })}>
                  {formatKnownAt(at)}
                </span>
              )}
            </li>
          )
        })}
      </ol>
    </>
  )
}
