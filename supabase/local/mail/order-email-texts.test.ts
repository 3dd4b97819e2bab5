// The order emails' words, without a mail server: what each kind says for each way of
// collecting an order, and that nothing a customer typed reaches the HTML unescaped.
import { describe, expect, it } from 'vitest'
import { orderEmail, trackUrl, type EmailOrder, type EmailShop } from './order-email-texts.ts'

const shop: EmailShop = {
  name: 'Humo',
  email: 'hello@humo.shop',
  phone: '(323) 555-0142',
  address: { street: '1820 Sunset Boulevard', city: 'Los Angeles', state: 'CA', zip: '90026' },
}

const base: EmailOrder = {
  id: '1a2b3c4d-0000-4000-8000-000000000000',
  status: 'pending',
  fulfilment: 'pickup',
  customer: { email: 'rosa@example.com', firstName: 'Rosa', lastName: 'Diaz' },
  shippingAddress: null,
  paymentMethod: 'debit',
  customerKind: 'adult',
  subtotal: 40,
  tax: 3.2,
  // An order priced before the taxes were itemised (docs/decisions/051-california-taxes-and-daily-limits.md): one "Tax" line.
  taxLines: null,
  shipping: 0,
  discount: 0,
  total: 43.2,
  items: [{ name: 'Blue Dream 3.5g', quantity: 1, unitPrice: 40, lineTotal: 40 }],
  // Wednesday 25 November 2026, 2:00 PM - 2:30 PM in Los Angeles.
  pickupWindow: { start: '2026-11-25T22:00:00.000Z', end: '2026-11-25T22:30:00.000Z' },
}
const morning = new Date('2026-11-25T17:00:00.000Z')

describe('order emails', () => {
  it('confirms a pickup order with its window, the store and what will be paid there', () => {
    const email = orderEmail('confirmation', base, shop, 'https://humo.shop', morning)
    expect(email.subject).toBe('Your Humo order #1A2B3C4D')
    expect(email.text).toContain('Pickup window: Today, 2:00 PM – 2:30 PM')
    expect(email.text).toContain('Where: Humo, 1820 Sunset Boulevard, Los Angeles, CA 90026')
    expect(email.text).toContain('Debit card at pickup: $43.20, paid when you collect your order.')
    expect(email.text).toContain('Track your order: https://humo.shop/track?number=1A2B3C4D')
    expect(email.text).not.toMatch(
      /received your payment|payment (was )?received|Shipped|Delivery/i,
    )
  })

  it('names a delivery order’s address and never says pickup', () => {
    const order: EmailOrder = {
      ...base,
      fulfilment: 'delivery',
      paymentMethod: 'cash',
      pickupWindow: null,
      shipping: 9.99,
      total: 53.19,
      shippingAddress: {
        address1: '500 Valencia St',
        address2: null,
        city: 'San Francisco',
        state: 'CA',
        zipCode: '94110',
      },
    }
    const email = orderEmail(
      'out_for_delivery',
      { ...order, status: 'shipped' },
      shop,
      'https://humo.shop/',
    )
    expect(email.subject).toBe('Your order #1A2B3C4D is out for delivery')
    expect(email.text).toContain('500 Valencia St\nSan Francisco, CA 94110')
    expect(email.text).toContain('Cash on delivery: $53.19')
    expect(email.text).not.toMatch(/pickup/i)
  })

  it('says a pickup order is ready with its window', () => {
    const email = orderEmail(
      'ready_for_pickup',
      { ...base, status: 'shipped' },
      shop,
      'https://humo.shop',
      morning,
    )
    expect(email.subject).toBe('Your order #1A2B3C4D is ready for pickup')
    expect(email.text).toContain('Your order #1A2B3C4D is ready for pickup.')
    expect(email.text).toContain('Pickup window: Today, 2:00 PM – 2:30 PM')
  })

  it('escapes customer and shop values in the HTML, links included', () => {
    const order: EmailOrder = {
      ...base,
      customer: { ...base.customer, firstName: '<img src=x onerror=alert(1)>' },
      items: [{ name: 'A & B <i>', quantity: 1, unitPrice: 1, lineTotal: 1 }],
    }
    const email = orderEmail(
      'confirmation',
      order,
      { ...shop, name: 'Humo "&" Co' },
      'https://humo.shop/?a="b"',
      morning,
    )
    expect(email.html).toContain('Hi &lt;img src=x onerror=alert(1)&gt;,')
    expect(email.html).toContain('A &amp; B &lt;i&gt;')
    expect(email.html).toContain('Humo &quot;&amp;&quot; Co')
    expect(email.html).not.toMatch(/<img|<i>|href="[^"]*"b/)
  })

  it('keeps the one "Tax" of an order priced before the taxes were itemised', () => {
    const email = orderEmail('confirmation', base, shop, 'https://humo.shop', morning)
    expect(email.text).toContain('Tax: $3.20')
    expect(email.text).not.toContain('excise')
  })

  it('states each tax on its own line and that the excise is included; a patient brings 18+ ID', () => {
    const order: EmailOrder = {
      ...base,
      customerKind: 'medical',
      subtotal: 35,
      tax: 6.53,
      taxLines: [
        {
          kind: 'excise',
          label: 'Cannabis excise tax (15%)',
          rate: 0.15,
          base: 43.5,
          amount: 6.53,
        },
      ],
      total: 41.53,
    }
    const email = orderEmail('confirmation', order, shop, 'https://humo.shop', morning)
    expect(email.text).toContain(
      'Subtotal: $35.00\nCannabis excise tax (15%): $6.53\nTotal: $41.53\nThe cannabis excise taxes are included in the total amount of this invoice.',
    )
    expect(email.text).not.toContain('Sales tax')
    expect(email.text).toContain('valid government-issued photo ID (18 or older)')
    expect(email.html).toContain('Cannabis excise tax (15%): $6.53')
  })

  it('keeps a shop’s path in the tracking link', () => {
    expect(trackUrl('https://example.com/humo', base.id)).toBe(
      'https://example.com/humo/track?number=1A2B3C4D',
    )
  })
})
