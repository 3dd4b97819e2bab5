import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { lostChangeNotice } from '../../data/replication/admin-order-conflicts'
import {
  adminOrderRowToDoc,
  refusedState,
  setStatusArgs,
  type AdminOrderRow,
} from '../../data/replication/admin-orders-replication'
import { adminOrderMigrationStrategies } from '../../data/schemas/admin-order.schema'
import { ordersToCsv } from './admin-csv'
import { ordersByStatusWords } from './order-stats'
import { adminTitle, arrivals, unopenedCount } from './orders/order-alerts'
import {
  BOARD_COLUMNS,
  columnTitle,
  fulfilmentLine,
  itemCount,
  moveTargets,
  timeSince,
} from './orders/order-board-model'

const NOW = new Date('2026-11-25T20:00:00Z') // Wednesday, 12:00 PM in Los Angeles
const WINDOW = { start: '2026-11-25T22:00:00.000Z', end: '2026-11-25T22:30:00.000Z' }

function row(over: Partial<AdminOrderRow> = {}): AdminOrderRow {
  return {
    id: '1a2b3c4d-0000-4000-8000-000000000001',
    _modified: '2026-11-25T19:00:00.000Z',
    _deleted: false,
    status: 'pending',
    customerName: 'Devon Park',
    customerEmail: 'devon@example.com',
    fulfilment: 'pickup',
    deliveryMethod: 'standard',
    paymentMethod: 'cash',
    subtotal: 40,
    tax: 3.2,
    shipping: 0,
    discount: 0,
    total: 43.2,
    pickupWindow: WINDOW,
    statusHistory: [{ status: 'pending', at: '2026-11-25T19:00:00.000Z', by: null }],
    items: [
      { productId: 'p1', name: 'Gummies', unitPrice: 10, quantity: 2, lineTotal: 20 },
      { productId: 'p2', name: 'Pre-roll', unitPrice: 20, quantity: 1, lineTotal: 20 },
    ],
    createdAt: '2026-11-25T19:48:00.000Z',
    ...over,
  }
}

const pickup = () => adminOrderRowToDoc(row())
const delivery = () =>
  adminOrderRowToDoc(row({ fulfilment: 'delivery', deliveryMethod: 'express', pickupWindow: null }))

describe('the board in each order’s own words', () => {
  it('names the columns for both paths (docs/decisions/018-order-after-checkout.md)', () => {
    expect(BOARD_COLUMNS.map(columnTitle)).toEqual([
      'Pending',
      'Processing',
      'Ready / Out for delivery',
      'Completed',
    ])
  })

  it('offers "Ready for pickup" and "Picked up" for a pickup order, never "Shipped"', () => {
    const labels = moveTargets(pickup()).map((t) => t.label)
    expect(labels).toEqual(['Preparing', 'Ready for pickup', 'Picked up', 'Cancelled'])
    expect(moveTargets(delivery()).map((t) => t.label)).toEqual([
      'Preparing',
      'Out for delivery',
      'Delivered',
      'Cancelled',
    ])
  })

  it('shows a pickup order’s window instead of "Delivery: …"', () => {
    expect(fulfilmentLine(pickup(), NOW)).toBe('Pickup · Today, 2:00 PM – 2:30 PM')
    expect(fulfilmentLine({ ...pickup(), pickupWindow: null }, NOW)).toBe('Pickup')
    expect(fulfilmentLine(delivery(), NOW)).toBe('Delivery: express')
  })

  it('counts the units and says how long ago the order came', () => {
    expect(itemCount(pickup())).toBe('3 items')
    expect(itemCount({ items: [{ ...pickup().items[0]!, quantity: 1 }] })).toBe('1 item')
    expect(timeSince('2026-11-25T19:48:00.000Z', NOW.getTime())).toBe('12 min ago')
    expect(timeSince('2026-11-25T19:59:40.000Z', NOW.getTime())).toBe('just now')
    expect(timeSince('2026-11-25T17:00:00.000Z', NOW.getTime())).toBe('3 h ago')
  })

  it('reports statuses in words, pickup and delivery apart', () => {
    const orders = [
      { ...pickup(), status: 'shipped' as const },
      { ...delivery(), status: 'shipped' as const },
      { ...delivery(), status: 'shipped' as const },
      { ...pickup(), status: 'delivered' as const },
    ]
    expect(ordersByStatusWords(orders)).toEqual([
      { label: 'Ready for pickup', count: 1 },
      { label: 'Out for delivery', count: 2 },
      { label: 'Picked up', count: 1 },
    ])
  })
})

describe('Export Orders CSV', () => {
  it('writes the status in words with the fulfilment and the pickup window', () => {
    const csv = ordersToCsv([
      { ...pickup(), status: 'shipped' },
      { ...delivery(), status: 'shipped', paymentMethod: 'card' },
    ])
    const [a, b] = Papa.parse<Record<string, string>>(csv, { header: true }).data
    expect(a).toMatchObject({
      order_number: '#1A2B3C4D',
      status: 'Ready for pickup',
      status_code: 'shipped',
      fulfilment: 'pickup',
      pickup_window_start: WINDOW.start,
      pickup_window_end: WINDOW.end,
      delivery_method: '',
      payment_method: 'Cash at pickup',
    })
    expect(b).toMatchObject({
      status: 'Out for delivery',
      fulfilment: 'delivery',
      pickup_window_start: '',
      delivery_method: 'express',
      payment_method: 'Debit card on delivery',
    })
    expect(csv).not.toContain('Shipped')
  })

  it('keeps a spreadsheet from running a customer’s text as a formula', () => {
    const csv = ordersToCsv([{ ...pickup(), customerName: '=HYPERLINK("http://evil")' }])
    const [a] = Papa.parse<Record<string, string>>(csv, { header: true }).data
    expect(a!.customer_name).toBe(`'=HYPERLINK("http://evil")`)
  })
})

describe('ID check at handoff (push)', () => {
  it('sends the checks only with a handoff: the ID check, the ID number and "MMIC checked"', () => {
    const doc = pickup()
    expect(setStatusArgs({ ...doc, status: 'shipped', idChecked: false }, 'processing')).toEqual({
      p_id: doc.id,
      p_from: 'processing',
      p_to: 'shipped',
    })
    expect(
      setStatusArgs(
        { ...doc, status: 'delivered', idChecked: true, idNumber: 'D1234567', mmicChecked: true },
        'shipped',
      ),
    ).toEqual({
      p_id: doc.id,
      p_from: 'shipped',
      p_to: 'delivered',
      p_id_checked: true,
      p_id_number: 'D1234567',
      p_mmic_checked: true,
    })
    // No number typed (a move queued before version 2): the server refuses it, with its reason.
    expect(setStatusArgs({ ...doc, status: 'delivered', idChecked: true }, 'shipped')).toEqual(
      expect.objectContaining({ p_id_number: null, p_mmic_checked: false }),
    )
    // A move queued before version 1 never confirmed a check.
    const migrated = adminOrderMigrationStrategies[1]!(
      { ...doc, status: 'delivered' },
      undefined as never,
    ) as { idChecked: boolean }
    expect(migrated.idChecked).toBe(false)
    expect(setStatusArgs({ ...doc, status: 'delivered', idChecked: false }, 'shipped')).toEqual(
      expect.objectContaining({ p_id_checked: false }),
    )
  })

  it('keeps who checked the ID from the server’s history', () => {
    const doc = adminOrderRowToDoc(
      row({
        status: 'delivered',
        statusHistory: [
          { status: 'pending', at: '2026-11-25T19:00:00.000Z', by: null },
          {
            status: 'delivered',
            at: '2026-11-25T22:10:00.000Z',
            by: 'bea@humo.test',
            idChecked: true,
          },
        ],
      }),
    )
    expect(doc.statusHistory[1]).toEqual({
      status: 'delivered',
      at: '2026-11-25T22:10:00.000Z',
      by: 'bea@humo.test',
      idChecked: true,
    })
    expect(doc.idChecked).toBe(false)
  })

  it('turns an id_check_required answer into a notice with the server’s words', () => {
    const server = refusedState(
      {
        applied: false,
        reason: 'id_check_required',
        message: 'Confirm "ID checked (21+)" before handing over the order.',
        order: row({ status: 'shipped' }),
      },
      'shipped',
      '2026-11-25T19:00:00.000Z',
    )
    expect(server.status).toBe('shipped')
    const mine = { ...pickup(), status: 'delivered' as const }
    const notice = lostChangeNotice(mine, { ...pickup(), status: 'shipped' }, server, NOW)
    expect(notice.message).toBe(
      'Order #1A2B3C4D was not moved to Picked up: Confirm "ID checked (21+)" before handing over the order.',
    )
    expect(notice.message).not.toMatch(/already been moved/)
  })

  it('still names the colleague when one moved the order first', () => {
    const server = refusedState(
      {
        applied: false,
        order: row({
          status: 'cancelled',
          statusHistory: [
            { status: 'cancelled', at: '2026-11-25T19:30:00.000Z', by: 'alex@humo.test' },
          ],
        }),
      },
      'processing',
      '2026-11-25T19:00:00.000Z',
    )
    expect(server.refusal).toBeNull()
    const notice = lostChangeNotice(
      { ...pickup(), status: 'shipped' },
      { ...pickup(), status: 'processing' },
      server,
      NOW,
    )
    expect(notice.message).toBe(
      'Your move of order #1A2B3C4D from Preparing to Ready for pickup was not applied: it had already been moved to Cancelled by alex@humo.test.',
    )
  })
})

describe('staff alerts', () => {
  it('counts pending orders not opened on this device for the tab title', () => {
    const orders = [
      { id: 'a', status: 'pending' },
      { id: 'b', status: 'pending' },
      { id: 'c', status: 'processing' },
    ]
    expect(unopenedCount(orders, new Set(['a']))).toBe(1)
    expect(adminTitle(2)).toBe('(2) Humo Admin')
    expect(adminTitle(0)).toBe('Humo Admin')
  })

  it('finds the orders that arrived since the board was last seen', () => {
    expect(arrivals(new Set(['a', 'b']), [{ id: 'c' }, { id: 'a' }, { id: 'd' }])).toEqual([
      'c',
      'd',
    ])
  })
})
