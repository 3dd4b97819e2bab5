import { useDraggable } from '@dnd-kit/core'
import { css, cx } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import { orderStatusLabel } from '../../../lib/order-status'
import { ActionMenu } from '../../../ui/menu'
import {
  fulfilmentLine,
  isWaitingToSync,
  itemCount,
  moveTargets,
  shortOrderId,
  statusTone,
  timeSince,
  type OrderStatus,
} from './order-board-model'
import { shopDateTime } from '../admin-time'

type Props = {
  order: AdminOrderDoc
  onOpen: (order: AdminOrderDoc) => void
  onMove: (order: AdminOrderDoc, to: OrderStatus) => void
  /** Rendered in the drag overlay: no drag handlers. */
  overlay?: boolean
  draggable?: boolean
  /** The board's clock (ms), ticking each minute for "12 min ago". */
  now: number
}

/** The status in the order's own words: "Ready for pickup", "Out for delivery". */
export function StatusBadge({ status, fulfilment }: { status: string; fulfilment: string }) {
  return (
    <span className={badge({ tone: statusTone(status) })}>
      {orderStatusLabel(status, fulfilment)}
    </span>
  )
}

const small = css({ color: 'fg.muted', fontSize: 'xs' })
const spread = css({
  alignItems: 'center',
  display: 'flex',
  flexWrap: 'wrap',
  gap: '2',
  justifyContent: 'space-between',
})

const cardClass = css({
  bg: 'bg.surface',
  borderColor: 'border.default',
  borderRadius: 'md',
  borderWidth: '1px',
  boxShadow: 'card',
  cursor: 'grab',
  display: 'grid',
  fontSize: 'sm',
  gap: '1',
  minW: '0',
  p: '3',
  textAlign: 'left',
  touchAction: 'none',
  userSelect: 'none',
  w: 'full',
  _hover: { borderColor: 'border.strong' },
})

/** An order on the board (SPEC.md §2): drag it to another column, or use its "Move to…" menu. */
export function OrderCard({ order, onOpen, onMove, overlay, draggable = true, now }: Props) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: order.id,
    data: { status: order.status },
    disabled: overlay || !draggable,
  })
  const waiting = isWaitingToSync(order)
  // A card that cannot be dragged (a cancelled one) gets no dnd-kit attributes: it is not
  // "disabled", its order opens. A div: ARIA in HTML allows no role="group" on an article (axe's aria-allowed-role).
  return (
    <div
      ref={setNodeRef}
      {...(overlay ? {} : listeners)}
      {...(draggable ? attributes : {})}
      role="group"
      tabIndex={-1}
      aria-roledescription="order card"
      aria-label={`Order ${shortOrderId(order.id)}`}
      data-order-id={order.id}
      data-testid="order-card"
      onClick={() => onOpen(order)}
      className={cx(cardClass, css({ opacity: isDragging ? 0.4 : 1 }))}
    >
      <div
        className={css({
          alignItems: 'center',
          display: 'flex',
          flexWrap: 'wrap',
          gap: '1',
          justifyContent: 'space-between',
        })}
      >
        <button
          type="button"
          onClick={(e) => {
            e.stopPropagation()
            onOpen(order)
          }}
          title={order.id}
          className={css({
            cursor: 'pointer',
            fontFamily: 'mono',
            fontWeight: 'semibold',
            _hover: { textDecoration: 'underline' },
            _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' },
          })}
        >
          {shortOrderId(order.id)}
        </button>
        <StatusBadge status={order.status} fulfilment={order.fulfilment} />
      </div>
      <p className={css({ fontWeight: 'medium' })}>
        {order.customerName}
        {/* Staff prepare differently for a patient: 18+, the MMIC checked at handoff. */}
        {order.customerKind === 'medical' && (
          <span className={cx(badge({ tone: 'accent' }), css({ ml: '2' }))}>Medical</span>
        )}
      </p>
      <p className={css({ color: 'fg.muted', fontSize: 'xs', wordBreak: 'break-all' })}>
        {order.customerEmail}
      </p>
      <div className={spread}>
        <span className={css({ fontWeight: 'bold' })}>{formatMoney(order.total)}</span>
        <span className={small} data-testid="order-items">
          {itemCount(order)}
        </span>
      </div>
      <p className={css({ fontSize: 'xs', fontWeight: 'medium' })} data-testid="order-fulfilment">
        {fulfilmentLine(order, new Date(now))}
      </p>
      {order.status === 'shipped' && order.driver && (
        <p className={small} data-testid="order-driver">
          Driver: {order.driver.firstName ?? 'no first name yet'}
        </p>
      )}
      <div className={spread}>
        <time
          className={small}
          dateTime={order.createdAt}
          title={shopDateTime(order.createdAt)}
          data-testid="order-age"
        >
          {timeSince(order.createdAt, now)}
        </time>
        {!overlay && (
          <ActionMenu
            label={`Move to… (order ${shortOrderId(order.id)})`}
            title="Move to…"
            trigger="Move to…"
            // A finger's target on the staff tablet: 44 px tall, outlined like a button.
            triggerClassName={css({
              display: 'inline-flex',
              alignItems: 'center',
              minH: '11',
              minW: '11',
              px: '3',
              borderWidth: '1px',
              borderColor: 'border.strong',
              borderRadius: 'md',
              color: 'accent.fg',
              fontSize: 'sm',
              fontWeight: 'semibold',
              _hover: { bg: 'bg.muted' },
              _focusVisible: { outline: '2px solid', outlineColor: 'focusRing' },
            })}
            actions={moveTargets(order)}
            onSelect={(value) => onMove(order, value as OrderStatus)}
          />
        )}
      </div>
      {waiting && (
        <p
          className={css({ color: 'deal.fg', fontSize: 'xs', fontWeight: 'semibold' })}
          data-testid="waiting-to-sync"
        >
          Waiting to sync
        </p>
      )}
    </div>
  )
}
