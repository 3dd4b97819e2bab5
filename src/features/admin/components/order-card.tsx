import { useDraggable } from '@dnd-kit/core'
import { css, cx } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import { ActionMenu } from '../../../ui/menu'
import {
  ALL_STATUSES,
  isWaitingToSync,
  shortOrderId,
  statusLabel,
  statusTone,
  type OrderStatus,
} from '../order-board-model'

type Props = {
  order: AdminOrderDoc
  onOpen: (order: AdminOrderDoc) => void
  onMove: (order: AdminOrderDoc, to: OrderStatus) => void
  /** Rendered in the drag overlay: no drag handlers. */
  overlay?: boolean
  draggable?: boolean
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={badge({ tone: statusTone(status) })}>{statusLabel(status)}</span>
}

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
  p: '3',
  textAlign: 'left',
  touchAction: 'none',
  userSelect: 'none',
  w: 'full',
  _hover: { borderColor: 'border.strong' },
})

/** An order on the board (SPEC.md §2): drag it to another column, or use its "Move to…" menu. */
export function OrderCard({ order, onOpen, onMove, overlay, draggable = true }: Props) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: order.id,
    data: { status: order.status },
    disabled: overlay || !draggable,
  })
  const waiting = isWaitingToSync(order)
  return (
    <article
      ref={setNodeRef}
      {...(overlay ? {} : listeners)}
      {...attributes}
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
          gap: '2',
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
        <StatusBadge status={order.status} />
      </div>
      <p className={css({ fontWeight: 'medium' })}>{order.customerName}</p>
      <p className={css({ color: 'fg.muted', fontSize: 'xs', wordBreak: 'break-all' })}>
        {order.customerEmail}
      </p>
      <div
        className={css({ alignItems: 'center', display: 'flex', justifyContent: 'space-between' })}
      >
        <span className={css({ fontWeight: 'bold' })}>{formatMoney(order.total)}</span>
        <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>
          {new Date(order.createdAt).toLocaleDateString()}
        </span>
      </div>
      <div
        className={css({ alignItems: 'center', display: 'flex', justifyContent: 'space-between' })}
      >
        <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>
          Delivery: {order.deliveryMethod}
        </span>
        {!overlay && (
          <ActionMenu
            label={`Move order ${shortOrderId(order.id)} to…`}
            title="Move to…"
            trigger="Move to…"
            triggerClassName={css({
              borderRadius: 'sm',
              color: 'accent.fg',
              fontSize: 'xs',
              fontWeight: 'semibold',
              px: '1.5',
              py: '0.5',
              _hover: { bg: 'bg.muted' },
              _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' },
            })}
            actions={ALL_STATUSES.filter((s) => s !== order.status).map((s) => ({
              value: s,
              label: statusLabel(s),
            }))}
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
    </article>
  )
}
