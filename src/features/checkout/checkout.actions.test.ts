import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../tests/fixtures/memory-database'
import type { HumoDatabase } from '../../data/database'
import { productRowToDoc } from '../../data/replication/product-row'
import type { ProductDoc } from '../../data/schemas/product.schema'
import { loadDraft, placeOrder, restoreCartFromRefusedOrder, saveDraft } from './checkout.actions'
import { emptyDraft, type CheckoutDraft } from './checkout.validation'

function product(
  id: string,
  price: number,
  category = 'edibles',
  weight: number | null = null,
): ProductDoc {
  const { _deleted, ...doc } = productRowToDoc({
    id,
    _modified: '2026-11-22T20:00:00+00:00',
    _deleted: false,
    name: `Product ${id}`,
    slug: `product-${id}`,
    price,
    weight_grams: weight,
    category: { id: category, name: category, slug: category },
  })
  void _deleted
  return doc
}

const draft: CheckoutDraft = {
  ...emptyDraft,
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Reyes',
  phone: '5105550100',
  address1: '12 Grand Ave',
  city: 'Oakland',
  zipCode: '94612',
  paymentMethod: 'debit',
}

/** Cart lines as the cart feature writes them (features do not import each other). */
async function addToCart(db: HumoDatabase, p: ProductDoc, quantity: number) {
  await db.cart_lines.insert({
    productId: p.id,
    quantity,
    addedAt: new Date().toISOString(),
    product: {
      name: p.name,
      slug: p.slug,
      price: p.price,
      originalPrice: null,
      imagePath: null,
      brandName: null,
      categoryName: p.category?.name ?? null,
      categorySlug: p.categorySlug,
      productTypeName: null,
      weightGrams: p.weightGrams ?? null,
      stock: null,
      unlimited: true,
    },
  })
}

/** A day the rules of compliance-defaults know: 15% excise, 9.75% sales tax. */
const NOV_28 = new Date('2026-11-28T20:00:00Z')

let db: HumoDatabase
beforeEach(async () => {
  db = (await createTestDatabase()).db
})
afterEach(async () => {
  await db.close()
})

describe('checkout actions', () => {
  it('keeps the guest draft between visits, without anything but its own fields', async () => {
    await saveDraft(db, {
      ...draft,
      cardNumber: '4242 4242 4242 4242',
      cvv: '123',
    } as CheckoutDraft)
    const stored = JSON.stringify((await db.getLocal('guest_checkout_data'))?.toJSON())
    expect(stored).toContain('ana@example.com')
    expect(stored).not.toContain('4242')
    expect(stored).not.toContain('cvv')
    expect(await loadDraft(db)).toEqual(draft)
  })

  it('reads an old draft that chose a card as paying by debit card at handoff', async () => {
    await db.upsertLocal('guest_checkout_data', { ...draft, paymentMethod: 'card' })
    expect((await loadDraft(db)).paymentMethod).toBe('debit')
    await db.upsertLocal('guest_checkout_data', { email: 'x@y.co', paymentMethod: 7 })
    expect(await loadDraft(db)).toMatchObject({ email: 'x@y.co', paymentMethod: 'cash' })
  })

  it('keeps the chosen pickup window on a pickup order, none on a delivery order', async () => {
    await addToCart(db, product('a', 20), 1)
    const window = { start: '2026-11-26T18:00:00.000Z', end: '2026-11-26T18:30:00.000Z' }
    const lines = (await db.cart_lines.find().exec()).map((l) => l.toJSON())
    const order = await placeOrder(db, {
      draft: { ...draft, fulfilment: 'pickup', pickupWindow: window, paymentMethod: 'cash' },
      lines,
    })
    expect(order.pickupWindow).toEqual(window)
    expect(order.shippingAddress).toBeNull()
    expect(order.paymentMethod).toBe('cash')
    await addToCart(db, product('b', 20), 1)
    const delivery = await placeOrder(db, {
      draft: { ...draft, pickupWindow: window },
      lines: (await db.cart_lines.find().exec()).map((l) => l.toJSON()),
    })
    expect(delivery.pickupWindow).toBeNull()
    expect(delivery.paymentMethod).toBe('debit')
  })

  it('writes the order at once with a preview of the totals, asks no card, and empties the cart', async () => {
    await addToCart(db, product('a', 20), 2)
    await addToCart(db, product('b', 5.5), 1)
    const lines = (await db.cart_lines.find().exec()).map((l) => l.toJSON())
    const order = await placeOrder(db, { draft, lines })
    expect(order.sync).toBe('queued')
    expect(order.cardLast4).toBeNull()
    // $45.50 of cannabis delivered for $9.99: excise on $55.49, sales tax on $63.81 (docs/decisions/051-california-taxes-and-daily-limits.md).
    expect(order.totals).toEqual({
      subtotal: 45.5,
      tax: 14.54,
      taxLines: [
        {
          kind: 'excise',
          label: 'Cannabis excise tax (15%)',
          rate: 0.15,
          base: 55.49,
          amount: 8.32,
        },
        { kind: 'sales', label: 'Sales tax (9.75%)', rate: 0.0975, base: 63.81, amount: 6.22 },
      ],
      salesTaxExempt: false,
      shipping: 9.99,
      discount: 0,
      total: 70.03,
    })
    expect(order.customerKind).toBe('adult')
    expect(order.mmic).toBeNull()
    expect(order.shippingAddress).toMatchObject({ state: 'CA', zipCode: '94612' })
    expect(order.secret.length).toBeGreaterThanOrEqual(32)
    expect(await db.cart_lines.count().exec()).toBe(0)
    expect((await db.orders.findOne(order.id).exec())?.items).toHaveLength(2)
  })

  it('puts a refused order back in the cart, once', async () => {
    await addToCart(db, product('a', 20), 3)
    const lines = (await db.cart_lines.find().exec()).map((l) => l.toJSON())
    const order = await placeOrder(db, { draft: { ...draft, paymentMethod: 'cash' }, lines })
    await db.orders.findOne(order.id).incrementalPatch({
      sync: 'refused',
      refusal: [{ productId: 'a', message: 'Only 1 left in stock!' }],
    })
    await restoreCartFromRefusedOrder(db, order.id)
    await restoreCartFromRefusedOrder(db, order.id)
    const restored = await db.cart_lines.find().exec()
    expect(restored.map((l) => [l.productId, l.quantity])).toEqual([['a', 3]])
    expect((await db.orders.findOne(order.id).exec())?.cartRestoredAt).toBeTruthy()
  })
  it('prices a pickup order with no delivery fee, as the checkout showed it', async () => {
    await addToCart(db, product('a', 20), 1)
    const lines = (await db.cart_lines.find().exec()).map((l) => l.toJSON())
    const order = await placeOrder(db, {
      draft: { ...draft, fulfilment: 'pickup', paymentMethod: 'cash' },
      lines,
      now: NOV_28,
    })
    // $20 excise base → $3.00; sales tax on $23.00 → $2.24.
    expect(order.totals).toMatchObject({ subtotal: 20, shipping: 0, tax: 5.24, total: 25.24 })
  })

  it('keeps a medical patient’s MMIC with the order and charges no sales tax on its cannabis', async () => {
    await addToCart(db, product('a', 40), 1)
    const lines = (await db.cart_lines.find().exec()).map((l) => l.toJSON())
    const order = await placeOrder(db, {
      draft: {
        ...draft,
        customerKind: 'medical',
        mmicNumber: 'abc-1234',
        mmicExpiry: '2027-03-01',
        paymentMethod: 'cash',
      },
      lines,
      now: NOV_28,
    })
    expect(order.customerKind).toBe('medical')
    expect(order.mmic).toEqual({ number: 'ABC1234', expiry: '2027-03-01' })
    expect(order.totals.taxLines?.map((l) => l.label)).toEqual(['Cannabis excise tax (15%)'])
    // Delivered for $9.99: excise on $49.99 only, nothing else.
    expect(order.totals).toMatchObject({
      salesTaxExempt: true,
      shipping: 9.99,
      tax: 7.5,
      total: 57.49,
    })
  })

  it('starts a draft that never chose from the age gate’s answer, and keeps a choice made', async () => {
    expect((await loadDraft(db, 'medical')).customerKind).toBe('medical')
    expect((await loadDraft(db, null)).customerKind).toBe('adult')
    await saveDraft(db, { ...draft, customerKind: 'adult' })
    expect((await loadDraft(db, 'medical')).customerKind).toBe('adult')
    // A draft saved before medical sales has no kind: the gate's answer fills it in.
    await db.upsertLocal('guest_checkout_data', { email: 'x@y.co' })
    expect(await loadDraft(db, 'medical')).toMatchObject({
      email: 'x@y.co',
      customerKind: 'medical',
    })
  })
})
