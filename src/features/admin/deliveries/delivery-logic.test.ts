import { describe, expect, it } from 'vitest'
import { SHOP } from '../../../lib/shop'
import { cancelReasonOf } from '../orders/cancel-reason'
import {
  addressLine,
  deliveredByText,
  parseReceipt,
  receiptCustomerKind,
  receiptFromOrder,
} from './delivery-receipt'
import {
  cacheDrivers,
  cachedDrivers,
  driverChoice,
  driverLabel,
  driverLoadText,
  parseDrivers,
} from './driver-choice'

describe('choosing a driver', () => {
  it('says what a driver carries against the cap', () => {
    expect(driverLoadText(1234, 5000)).toBe('$1,234.00 of $5,000.00')
  })

  it('allows a driver up to the cap, to the cent, and says why not past it', () => {
    expect(driverChoice({ load: 4900 }, 5000, 100)).toEqual({ allowed: true })
    expect(driverChoice({ load: 4900.01 }, 5000, 100)).toEqual({
      allowed: false,
      reason: 'This order would take them to $5,000.01, over the $5,000.00 a driver may carry',
    })
    // Floating point must not refuse an exact fit.
    expect(driverChoice({ load: 0.1 + 0.2 }, 0.3, 0)).toEqual({ allowed: true })
  })

  it('names a driver by first name, else by email', () => {
    expect(driverLabel({ firstName: 'Marta', email: 'm@x.test' })).toBe('Marta')
    expect(driverLabel({ firstName: null, email: 'm@x.test' })).toBe('m@x.test')
  })

  it('reads admin_drivers() defensively, numbers as strings too, and keeps a copy', () => {
    const list = parseDrivers({
      cap: '5000',
      drivers: [
        {
          id: 'd1',
          firstName: 'Marta',
          employeeNumber: 7,
          email: 'm@x.test',
          load: '120.5',
          orders: 1,
        },
        { firstName: 'no id' },
        { id: 'd2', firstName: '  ', email: 'e@x.test' },
      ],
    })
    expect(list).toEqual({
      cap: 5000,
      drivers: [
        {
          id: 'd1',
          firstName: 'Marta',
          employeeNumber: 7,
          email: 'm@x.test',
          load: 120.5,
          orders: 1,
        },
        { id: 'd2', firstName: null, employeeNumber: null, email: 'e@x.test', load: 0, orders: 0 },
      ],
    })
    expect(parseDrivers({ drivers: [] })).toBeNull()
    expect(parseDrivers('nonsense')).toBeNull()
    const store = new Map<string, string>()
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    }
    cacheDrivers(list!, storage)
    expect(cachedDrivers(storage)).toEqual(list)
    store.set('humo.admin.drivers', '{broken')
    expect(cachedDrivers(storage)).toBeNull()
  })
})

describe('the cancel reason', () => {
  it('takes a listed reason or staff words, never nothing or too much', () => {
    expect(cancelReasonOf('Out of stock', '')).toEqual({ ok: true, reason: 'Out of stock' })
    expect(cancelReasonOf('Other', '  Store closed early ')).toEqual({
      ok: true,
      reason: 'Store closed early',
    })
    expect(cancelReasonOf('', '')).toEqual({
      ok: false,
      error: 'Choose why the order is cancelled',
    })
    expect(cancelReasonOf('Other', '   ')).toEqual({
      ok: false,
      error: 'Say why the order is cancelled',
    })
    expect(cancelReasonOf('Other', 'x'.repeat(201)).ok).toBe(false)
    expect(cancelReasonOf('Other', 'x'.repeat(200)).ok).toBe(true)
  })
})

describe('the delivery receipt (4 CCR §15420)', () => {
  const order = {
    customerName: 'Avery Staffcheck',
    customerKind: 'medical',
    createdAt: '2026-11-29T18:00:00.000Z',
    shippingAddress: { address1: '12 Grand Ave', city: 'Oakland', state: 'CA', zipCode: '94612' },
    items: [{ name: 'Gummies', quantity: 3, unitPrice: 18, lineTotal: 54, isCannabis: true }],
    subtotal: 54,
    shipping: 5,
    discount: 0,
    taxLines: [
      { kind: 'excise', label: 'Cannabis excise tax (19%)', rate: 0.19, base: 54, amount: 10.26 },
    ],
    total: 69.26,
  }

  it('is built on the device from the order, the shop and the driver', () => {
    const receipt = receiptFromOrder(
      order,
      SHOP,
      { firstName: 'Marta', employeeNumber: 7 },
      new Date('2026-11-29T20:15:00.000Z'),
    )
    expect(receipt).toEqual({
      retailer: {
        name: 'Humo',
        licenceNumber: 'C10-0000421-LIC',
        address: '1820 Sunset Boulevard, Los Angeles, CA 90026',
      },
      driver: { firstName: 'Marta', employeeNumber: 7 },
      customer: { firstName: 'Avery', kind: 'medical' },
      requestedAt: '2026-11-29T18:00:00.000Z',
      deliveredAt: '2026-11-29T20:15:00.000Z',
      address: '12 Grand Ave, Oakland, CA 94612',
      items: [{ name: 'Gummies', quantity: 3, unitPrice: 18, lineTotal: 54 }],
      subtotal: 54,
      shipping: 5,
      discount: 0,
      taxLines: [{ label: 'Cannabis excise tax (19%)', amount: 10.26 }],
      total: 69.26,
    })
    expect(deliveredByText(receipt.driver)).toBe('Delivered by Marta, employee #7')
    expect(receiptCustomerKind(receipt.customer.kind)).toBe('Medical')
    expect(receiptCustomerKind('adult')).toBe('Adult use')
  })

  it("reads the server's receipt, keeping only a PNG signature", () => {
    const server = {
      retailer: { name: 'Humo', licenceNumber: 'L-1', address: SHOP.address },
      driver: { firstName: 'Marta', employeeNumber: 7 },
      customer: { firstName: 'Avery', kind: 'adult' },
      requestedAt: 'a',
      deliveredAt: 'b',
      address: order.shippingAddress,
      items: [{ name: 'Gummies', quantity: 3, unitPrice: '18.00', lineTotal: '54.00' }],
      subtotal: '54.00',
      shipping: 5,
      discount: 0,
      taxLines: null,
      total: '69.26',
      orderId: 'x',
      signature: 'data:image/png;base64,AAAA',
    }
    const receipt = parseReceipt(server)!
    expect(receipt.items).toEqual([{ name: 'Gummies', quantity: 3, unitPrice: 18, lineTotal: 54 }])
    expect(receipt.total).toBe(69.26)
    expect(receipt.taxLines).toEqual([])
    expect(receipt.retailer.address).toBe('1820 Sunset Boulevard, Los Angeles, CA 90026')
    expect(receipt.signature).toBe('data:image/png;base64,AAAA')
    expect(parseReceipt({ ...server, signature: 'javascript:alert(1)' })!.signature).toBeNull()
    expect(parseReceipt(null)).toBeNull()
    expect(deliveredByText({ firstName: null, employeeNumber: null })).toBe(
      'Delivered by the driver',
    )
    expect(addressLine(null)).toBe('')
  })
})
