import type { SupabaseClient } from '@supabase/supabase-js'
import {
  DndContext,
  DragOverlay,
  PointerSensor,
  useDroppable,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core'
import { useMemo, useRef, useEffect, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import type { OrderNoticeDoc } from '../../../data/schemas/order-notice.schema'
import {
  asFulfilment,
  needsDriver,
  needsIdCheck,
  orderStatusLabel,
} from '../../../lib/order-status'
import { Button } from '../../../ui/button'
import { Skeleton } from '../../../ui/skeleton'
import { Switch } from '../../../ui/switch'
import { muted } from '../components/admin-styles'
import { boardAnnouncements, boardInstructions, movedFromMenu } from './board-announcements'
import { ChooseDriverDialog } from '../deliveries/choose-driver-dialog'
import { DeliverDialog } from '../deliveries/deliver-dialog'
import { DeliveryReceiptDialog } from '../deliveries/delivery-receipt-dialog'
import { CancelOrderDialog } from './cancel-order-dialog'
import { IdCheckDialog } from './id-check-dialog'
import {
  BOARD_COLUMNS,
  columnTitle,
  dropTarget,
  matchesOrderSearch,
  type OrderStatus,
} from './order-board-model'
import { OrderCard } from './order-card'
import { OrderDetailDialog } from './order-detail-dialog'
import { OrderNotices } from './order-notices'
import type { MoveOptions } from './orders.actions'

export type OrderFilter = 'all' | 'pending' | 'cancelled'

export type { MoveOptions } from './orders.actions'

type Props = {
  /** Drivers' loads, delivery receipts and a completed order's returns come from the server. */
  supabase: SupabaseClient | null
  orders: AdminOrderDoc[] | null
  notices: OrderNoticeDoc[]
  onDismissNotice: (id: string) => void
  /**
   * A move; a handoff (to delivered) comes only once staff confirmed the ID check, with the ID
   * number and, for a medical order without sales tax, "MMIC checked".
   */
  onMove: (order: AdminOrderDoc, to: OrderStatus, options: MoveOptions) => void
  /** Staff opened an order's detail (it no longer counts as unopened). */
  onOpenOrder: (id: string) => void
  muted: boolean
  onMutedChange: (muted: boolean) => void
  search: string
  onSearchChange: (value: string) => void
  filter: OrderFilter
  onFilterChange: (filter: OrderFilter) => void
  /** Changes when "Search Orders" asks for the search box. */
  focusSearchToken: number
}

type Move = (order: AdminOrderDoc, to: OrderStatus) => void

type Asking = { step: 'id' | 'door' | 'driver' | 'cancel'; id: string }

/** What a move asks staff before it is made, or null (docs/decisions/018-order-after-checkout.md, docs/decisions/055-delivery-by-the-rules.md). */
function askFirst(order: AdminOrderDoc, to: OrderStatus): Asking['step'] | null {
  if (to === 'cancelled') return 'cancel'
  if (needsDriver(order.fulfilment, to)) return 'driver'
  if (needsIdCheck(to)) return asFulfilment(order.fulfilment) === 'delivery' ? 'door' : 'id'
  return null
}

/** The board's clock for "12 min ago", ticking each minute. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000)
    return () => clearInterval(timer)
  }, [])
  return now
}

function Column({
  status,
  orders,
  onOpen,
  onMove,
  now,
}: {
  status: (typeof BOARD_COLUMNS)[number]
  orders: AdminOrderDoc[]
  onOpen: (o: AdminOrderDoc) => void
  onMove: Move
  now: number
}) {
  const { setNodeRef, isOver } = useDroppable({ id: status })
  const headingId = `column-${status}`
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      data-status={status}
      data-testid={`column-${status}`}
      className={css({
        bg: isOver ? 'accent.subtle' : 'bg.muted',
        borderRadius: 'lg',
        display: 'flex',
        flexDirection: 'column',
        gap: '2',
        minH: '48',
        minW: '0',
        p: '3',
        transition: 'background 120ms',
      })}
    >
      <header
        className={css({ alignItems: 'center', display: 'flex', justifyContent: 'space-between' })}
      >
        <h3 id={headingId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
          {columnTitle(status)}
        </h3>
        <span
          className={css({
            bg: 'bg.surface',
            borderRadius: 'full',
            fontSize: 'xs',
            fontWeight: 'bold',
            px: '2',
            py: '0.5',
          })}
          aria-label={`${orders.length} orders`}
          data-testid="column-count"
        >
          {orders.length}
        </span>
      </header>
      {orders.length === 0 && (
        <p className={cx(muted, css({ py: '6', textAlign: 'center' }))}>No orders in this status</p>
      )}
      {orders.map((order) => (
        <OrderCard key={order.id} order={order} onOpen={onOpen} onMove={onMove} now={now} />
      ))}
    </section>
  )
}

/** The order status board (SPEC.md §2) with search, the pending filter and cancelled orders. */
export function OrderBoard(props: Props) {
  const { orders, notices, filter, search } = props
  const [openId, setOpenIdState] = useState<string | null>(null)
  const [dragging, setDragging] = useState<AdminOrderDoc | null>(null)
  // A move that asks something first: the ID check (a pickup), the door flow (a delivery's
  // receipt, ID and signature), the driver (a delivery going out), the reason (a cancel).
  const [asking, setAsking] = useState<Asking | null>(null)
  const [receiptId, setReceiptId] = useState<string | null>(null)
  const now = useMinuteClock()
  const setOpenId = (id: string | null) => {
    setOpenIdState(id)
    if (id) props.onOpenOrder(id)
  }
  // A handoff waits for the ID check; cancelling it leaves the order where it was.
  const move: Move = (order, to) => {
    const step = askFirst(order, to)
    if (step) setAsking({ step, id: order.id })
    else props.onMove(order, to, {})
  }
  // Moves without dragging ("Move to…", the detail) are said in the board's live region; drags
  // are said by dnd-kit's own.
  const [said, setSaid] = useState('')
  const moveFromMenu: Move = (order, to) => {
    const step = askFirst(order, to)
    // The driver and reason dialogs say themselves what they ask.
    if (step !== 'driver' && step !== 'cancel')
      setSaid(movedFromMenu(order.id, orderStatusLabel(to, order.fulfilment), needsIdCheck(to)))
    move(order, to)
  }
  const searchRef = useRef<HTMLInputElement>(null)
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 8 } }))

  useEffect(() => {
    if (!props.focusSearchToken) return
    // After the palette has closed and handed focus back.
    const timer = setTimeout(() => searchRef.current?.focus(), 150)
    return () => clearTimeout(timer)
  }, [props.focusSearchToken])

  const visible = useMemo(
    () => (orders ?? []).filter((o) => matchesOrderSearch(o, search)),
    [orders, search],
  )
  const cancelled = visible.filter((o) => o.status === 'cancelled')
  const columns = filter === 'pending' ? (['pending'] as const) : BOARD_COLUMNS
  const open = orders?.find((o) => o.id === openId) ?? null
  const asked = (step: Asking['step'], unless: OrderStatus) =>
    asking?.step === step
      ? (orders?.find((o) => o.id === asking.id && o.status !== unless) ?? null)
      : null
  const handoff = asked('id', 'delivered')
  const door = asked('door', 'delivered')
  const sendOut = asked('driver', 'shipped')
  const cancel = asked('cancel', 'cancelled')
  const done = () => setAsking(null)

  const onDragStart = (event: DragStartEvent) =>
    setDragging(orders?.find((o) => o.id === event.active.id) ?? null)
  const onDragEnd = (event: DragEndEvent) => {
    setDragging(null)
    const order = orders?.find((o) => o.id === event.active.id)
    if (!order) return
    const to = dropTarget(order.status, event.over?.id as string | undefined)
    if (to) move(order, to)
  }

  const filterButton = (value: OrderFilter, label: string) => (
    <Button
      size="sm"
      variant={filter === value ? 'solid' : 'outline'}
      aria-pressed={filter === value}
      onClick={() => props.onFilterChange(value)}
    >
      {label}
    </Button>
  )

  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <OrderNotices notices={notices} onDismiss={props.onDismissNotice} />
      <div className={css({ alignItems: 'center', display: 'flex', flexWrap: 'wrap', gap: '2' })}>
        <input
          ref={searchRef}
          type="search"
          placeholder="Search orders..."
          aria-label="Search orders"
          value={search}
          onChange={(e) => props.onSearchChange(e.target.value)}
          className={cx(input(), css({ maxW: 'xs' }))}
        />
        {filterButton('all', 'All orders')}
        {filterButton('pending', 'Pending only')}
        {filterButton(
          'cancelled',
          `Cancelled (${(orders ?? []).filter((o) => o.status === 'cancelled').length})`,
        )}
        <div className={css({ ml: 'auto' })}>
          <Switch
            label="Mute new order sound"
            checked={props.muted}
            onCheckedChange={props.onMutedChange}
          />
        </div>
      </div>
      {orders === null ? (
        <div
          className={css({
            display: 'grid',
            gap: '3',
            gridTemplateColumns: { base: '1fr', md: 'repeat(4, minmax(0, 1fr))' },
          })}
        >
          {BOARD_COLUMNS.map((s) => (
            <Skeleton key={s} className={css({ h: '48', borderRadius: 'lg' })} />
          ))}
        </div>
      ) : filter === 'cancelled' ? (
        <section aria-label="Cancelled orders">
          {cancelled.length === 0 ? (
            <p className={muted}>No cancelled orders</p>
          ) : (
            <div
              className={css({
                display: 'grid',
                gap: '3',
                gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)', lg: 'repeat(4, 1fr)' },
              })}
            >
              {cancelled.map((order) => (
                <OrderCard
                  key={order.id}
                  order={order}
                  draggable={false}
                  onOpen={(o) => setOpenId(o.id)}
                  onMove={moveFromMenu}
                  now={now}
                />
              ))}
            </div>
          )}
        </section>
      ) : (
        <DndContext
          sensors={sensors}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragging(null)}
          accessibility={{
            announcements: boardAnnouncements,
            screenReaderInstructions: boardInstructions,
          }}
        >
          {/* A landscape tablet (1024 px) shows the four columns side by side; narrower
              screens scroll them sideways rather than stacking any below the fold. */}
          <div
            data-testid="order-columns"
            className={css(
              {
                alignItems: 'start',
                display: 'grid',
                gap: '3',
                gridTemplateColumns: 'repeat(4, minmax(13.5rem, 1fr))',
                overflowX: 'auto',
                overscrollBehaviorX: 'contain',
                pb: '2',
              },
              columns.length === 1 && { gridTemplateColumns: '1fr', maxW: 'md' },
            )}
          >
            {columns.map((status) => (
              <Column
                key={status}
                status={status}
                orders={visible.filter((o) => o.status === status)}
                onOpen={(o) => setOpenId(o.id)}
                onMove={moveFromMenu}
                now={now}
              />
            ))}
          </div>
          <DragOverlay>
            {dragging && (
              <OrderCard
                order={dragging}
                overlay
                onOpen={() => undefined}
                onMove={() => undefined}
                now={now}
              />
            )}
          </DragOverlay>
        </DndContext>
      )}
      <p role="status" className={css({ srOnly: true })} data-testid="board-announcer">
        {said}
      </p>
      <OrderDetailDialog
        order={open}
        onClose={() => setOpenId(null)}
        onMove={moveFromMenu}
        supabase={props.supabase}
        onViewReceipt={(o) => setReceiptId(o.id)}
      />
      <IdCheckDialog
        order={handoff}
        onCancel={done}
        onConfirm={({ idNumber, mmicChecked }) => {
          if (handoff)
            props.onMove(handoff, 'delivered', { idChecked: true, idNumber, mmicChecked })
          done()
        }}
      />
      <DeliverDialog
        order={door}
        onCancel={done}
        onHandOver={(handoff) => {
          if (door) props.onMove(door, 'delivered', { idChecked: true, ...handoff })
          done()
        }}
      />
      <ChooseDriverDialog
        supabase={props.supabase}
        order={sendOut}
        onCancel={done}
        onSend={({ id, firstName, employeeNumber }) => {
          if (sendOut)
            props.onMove(sendOut, 'shipped', { driver: { id, firstName, employeeNumber } })
          done()
        }}
      />
      <CancelOrderDialog
        order={cancel}
        onKeep={done}
        onCancelOrder={(reason) => {
          if (cancel) props.onMove(cancel, 'cancelled', { reason })
          done()
        }}
      />
      <DeliveryReceiptDialog
        supabase={props.supabase}
        orderId={receiptId}
        onClose={() => setReceiptId(null)}
      />
    </div>
  )
}
