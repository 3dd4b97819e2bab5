import { css } from 'styled-system/css'
import type { OrderNoticeDoc } from '../../../data/schemas/order-notice.schema'
import { Button } from '../../../ui/button'

/** What the server said about moves made on this device (refusals), until dismissed. */
export function OrderNotices({
  notices,
  onDismiss,
}: {
  notices: OrderNoticeDoc[]
  onDismiss: (id: string) => void
}) {
  if (notices.length === 0) return null
  return (
    <ul className={css({ display: 'grid', gap: '2' })} aria-label="Order notices">
      {notices.map((notice) => (
        <li
          key={notice.id}
          role="alert"
          className={css({
            alignItems: 'center',
            bg: 'deal.subtle',
            borderRadius: 'md',
            color: 'fg.default',
            display: 'flex',
            fontSize: 'sm',
            gap: '3',
            justifyContent: 'space-between',
            px: '3',
            py: '2',
          })}
        >
          <span>{notice.message}</span>
          <Button size="sm" variant="ghost" onClick={() => onDismiss(notice.id)}>
            Dismiss
          </Button>
        </li>
      ))}
    </ul>
  )
}
