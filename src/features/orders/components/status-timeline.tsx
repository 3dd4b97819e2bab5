import { css } from 'styled-system/css'
import { orderStatusLabel, timelineSteps } from '../../../lib/order-status'
import { formatKnownAt } from '../order-view-model'

export const WAITING_STEP = 'Waiting to be sent'

/**
 * The order's steps in its own words ("Received", "Preparing", "Ready for pickup", "Picked up" /
 * "Out for delivery", "Delivered"); the current one is marked for assistive technology with
 * aria-current="step". A cancelled order says so plainly instead, with the server's reason when
 * it gave one (an order the shop never confirmed, docs/decisions/026-rate-limits-and-unaccepted-orders.md).
 * An order still on the device (`savedAt`: when it was saved) has not been received: its current
 * step is "Waiting to be sent", before every step of the shop's (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md).
 */
export function StatusTimeline({
  status,
  fulfilment,
  history,
  savedAt = null,
}: {
  status: string
  fulfilment: string
  history: { status: string; at: string; reason?: string }[]
  savedAt?: string | null
}) {
  // A live region that stays while the page follows the order: a screen reader hears each new
  // status the moment it arrives (WCAG 4.1.3), not only the steps drawn below.
  const live = (
    <p role="status" aria-atomic="true" className={css({ srOnly: true })}>
      Order status: {savedAt ? WAITING_STEP : orderStatusLabel(status, fulfilment)}
    </p>
  )
  if (status === 'cancelled' && !savedAt) {
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
  const steps: { status: string; label: string }[] = timelineSteps(fulfilment)
  if (savedAt) steps.unshift({ status: 'waiting', label: WAITING_STEP })
  const current = savedAt
    ? 0
    : Math.max(
        0,
        steps.findIndex((s) => s.status === status),
      )
  // Only the shop's history tells when a step of the shop's was reached.
  const when = (step: string) =>
    step === 'waiting' ? (savedAt ?? undefined) : history.findLast((h) => h.status === step)?.at
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
                  {step.status === 'waiting' ? `Saved ${formatKnownAt(at)}` : formatKnownAt(at)}
                </span>
              )}
            </li>
          )
        })}
      </ol>
    </>
  )
}
