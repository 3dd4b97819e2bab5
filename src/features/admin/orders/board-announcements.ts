/**
 * What a screen reader hears while an order card is dragged on the board (dnd-kit's live region),
 * in the columns' visible names, and the instructions read on a card: dragging is for pointers,
 * the card's "Move to…" menu is the way without one.
 */
import type { Active, Announcements, Over, ScreenReaderInstructions } from '@dnd-kit/core'
import { needsIdCheck } from '../../../lib/order-status'
import { BOARD_COLUMNS, columnTitle, dropTarget, shortOrderId } from './order-board-model'

type Column = (typeof BOARD_COLUMNS)[number]

const columnName = (id: unknown): string =>
  (BOARD_COLUMNS as readonly unknown[]).includes(id) ? columnTitle(id as Column) : String(id)

const order = (active: Active) => `Order ${shortOrderId(String(active.id))}`
const fromStatus = (active: Active): string => String(active.data.current?.status ?? '')

export const boardInstructions: ScreenReaderInstructions = {
  draggable:
    'With a pointer, drag this order to another column to change its status. Without one, use its "Move to…" menu.',
}

export const boardAnnouncements: Announcements = {
  onDragStart: ({ active }) => `Picked up ${order(active)} from ${columnName(fromStatus(active))}.`,
  onDragOver: ({ active, over }) =>
    over
      ? `${order(active)} is over ${columnName(over.id)}.`
      : `${order(active)} is not over a column.`,
  onDragEnd: ({ active, over }) => dropped(active, over),
  onDragCancel: ({ active }) =>
    `Moving ${order(active)} was cancelled. It stays in ${columnName(fromStatus(active))}.`,
}

function dropped(active: Active, over: Over | null): string {
  const from = fromStatus(active)
  const to = dropTarget(from, over?.id as string | undefined)
  if (!to) return `${order(active)} was dropped back in ${columnName(from)}. Nothing changed.`
  if (needsIdCheck(to))
    return `${order(active)} dropped on ${columnName(to)}: confirm the ID check to hand it over.`
  return `${order(active)} moved from ${columnName(from)} to ${columnName(to)}.`
}

/** What the board says after a move from a card's "Move to…" menu or the order's detail. */
export function movedFromMenu(id: string, toLabel: string, idCheck: boolean): string {
  const name = `Order ${shortOrderId(id)}`
  return idCheck
    ? `${name}: confirm the ID check to mark it ${toLabel}.`
    : `${name} moved to ${toLabel}.`
}
