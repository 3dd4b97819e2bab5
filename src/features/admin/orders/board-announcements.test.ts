import type { Active, Over } from '@dnd-kit/core'
import { describe, expect, it } from 'vitest'
import { boardAnnouncements, boardInstructions, movedFromMenu } from './board-announcements'

const ID = '1a2b3c4d-0000-4000-8000-000000000000'
const active = (status: string) =>
  ({
    id: ID,
    data: { current: { status } },
    rect: { current: { initial: null, translated: null } },
  }) as unknown as Active
const over = (id: string) =>
  ({ id, data: { current: undefined }, rect: {}, disabled: false }) as unknown as Over

describe('the order board’s drag and drop announcements (dnd-kit live region)', () => {
  it('names the order and the columns as the board shows them', () => {
    const a = active('pending')
    expect(boardAnnouncements.onDragStart({ active: a })).toBe(
      'Picked up Order #1A2B3C4D from Pending.',
    )
    expect(boardAnnouncements.onDragOver({ active: a, over: over('processing') })).toBe(
      'Order #1A2B3C4D is over Processing.',
    )
    expect(boardAnnouncements.onDragOver({ active: a, over: null })).toBe(
      'Order #1A2B3C4D is not over a column.',
    )
    expect(boardAnnouncements.onDragEnd({ active: a, over: over('shipped') })).toBe(
      'Order #1A2B3C4D moved from Pending to Ready / Out for delivery.',
    )
  })

  it('says when a drop changes nothing, waits for the ID check, or is cancelled', () => {
    const a = active('processing')
    expect(boardAnnouncements.onDragEnd({ active: a, over: over('processing') })).toBe(
      'Order #1A2B3C4D was dropped back in Processing. Nothing changed.',
    )
    expect(boardAnnouncements.onDragEnd({ active: a, over: null })).toBe(
      'Order #1A2B3C4D was dropped back in Processing. Nothing changed.',
    )
    expect(boardAnnouncements.onDragEnd({ active: a, over: over('delivered') })).toBe(
      'Order #1A2B3C4D dropped on Completed: confirm the ID check to hand it over.',
    )
    expect(boardAnnouncements.onDragCancel({ active: a, over: null })).toBe(
      'Moving Order #1A2B3C4D was cancelled. It stays in Processing.',
    )
  })

  it('tells how to move without dragging, and says menu moves', () => {
    expect(boardInstructions.draggable).toContain('"Move to…" menu')
    expect(movedFromMenu(ID, 'Ready for pickup', false)).toBe(
      'Order #1A2B3C4D moved to Ready for pickup.',
    )
    expect(movedFromMenu(ID, 'Picked up', true)).toBe(
      'Order #1A2B3C4D: confirm the ID check to mark it Picked up.',
    )
  })
})
