import { firstValueFrom, filter } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../tests/fixtures/memory-database'
import { DEFAULT_COMPLIANCE_RULES } from '../lib/compliance-defaults'
import type { ComplianceRule } from '../lib/compliance-rules'
import { DEFAULT_MONEY_RULES } from '../lib/money'
import { receiptRows } from '../lib/receipt'
import { cartView$, cartViewOf } from './cart-view'
import type { HumoDatabase } from './database'
import { shopSettingsRowToDoc } from './replication/shop-settings-doc'
import type { CartLineDoc } from './schemas/cart-line.schema'

const NOV_28 = new Date('2026-11-28T20:00:00Z')

function line(
  id: string,
  price: number,
  quantity = 1,
  product: Partial<CartLineDoc['product']> = {},
): CartLineDoc {
  return {
    productId: id,
    quantity,
    addedAt: '2026-11-28T19:00:00.000Z',
    product: {
      name: `Product ${id}`,
      slug: `product-${id}`,
      price,
      originalPrice: null,
      imagePath: null,
      brandName: null,
      categoryName: null,
      categorySlug: 'edibles',
      productTypeName: null,
      weightGrams: null,
      isCannabis: true,
      limitClass: null,
      limitGrams: null,
      stock: null,
      unlimited: true,
      ...product,
    },
  }
}

const flower = (id: string, quantity: number) =>
  line(id, 45, quantity, { categorySlug: 'flower', limitClass: 'flower', weightGrams: 3.5 })

const rule = (r: ComplianceRule['rule'], value: number, passedOn = false): ComplianceRule => ({
  id: `${r}-${value}`,
  rule: r,
  value,
  effectiveFrom: '2020-01-01',
  passedOn,
  label: r === 'local_tax_rate' ? 'City cannabis business tax' : null,
  source: null,
})

/** CDTFA's example: 15% excise, 8.5% sales tax, a 10% city tax passed on separately stated. */
const CDTFA_RULES = [
  rule('excise_rate', 0.15),
  rule('sales_tax_rate', 0.085),
  rule('local_tax_rate', 0.1, true),
  rule('local_tax_rate_medical', 0.05),
  ...DEFAULT_COMPLIANCE_RULES.filter((r) => r.rule.startsWith('limit_')),
]
const FIVE_DOLLAR_DELIVERY = {
  ...DEFAULT_MONEY_RULES,
  standardShipping: 5,
  freeShippingThreshold: 100,
}

const labels = (view: ReturnType<typeof cartViewOf>) => view.totals.taxLines.map((l) => l.label)

describe('the cart priced as the order will be', () => {
  it('reproduces CDTFA’s example to the cent, and its lines add up to the total', () => {
    const view = cartViewOf([line('a', 35)], {
      money: FIVE_DOLLAR_DELIVERY,
      rules: CDTFA_RULES,
      now: NOV_28,
    })
    expect(view.totals.taxLines.map((l) => [l.label, l.amount])).toEqual([
      ['City cannabis business tax (10%)', 3.5],
      ['Cannabis excise tax (15%)', 6.53],
      ['Sales tax (8.5%)', 4.25],
    ])
    expect(view.totals.total).toBe(54.28)
    const rows = receiptRows(view.totals, 'delivery')
    expect(rows.map((r) => r.label)).toEqual([
      'Subtotal',
      'Delivery fee',
      'City cannabis business tax (10%)',
      'Cannabis excise tax (15%)',
      'Sales tax (8.5%)',
    ])
    const cents = rows.reduce((sum, r) => sum + Math.round(Number(r.value.slice(1)) * 100), 0)
    expect(cents).toBe(5428)
  })

  it('charges no delivery fee for pickup, so the excise base has none', () => {
    const view = cartViewOf([line('a', 35)], {
      money: FIVE_DOLLAR_DELIVERY,
      rules: CDTFA_RULES,
      handover: { fulfilment: 'pickup', deliveryMethod: 'standard' },
      now: NOV_28,
    })
    expect(view.totals.shipping).toBe(0)
    // $35 + $3.50 = $38.50 → excise $5.78; sales tax on $44.28 → $3.76.
    expect(view.totals).toMatchObject({ tax: 13.04, total: 48.04 })
  })

  it('prices with the built-in rules while the device has none of the shop’s yet', () => {
    const unsynced = cartViewOf([line('a', 35)], { rules: [], now: NOV_28 })
    const builtIn = cartViewOf([line('a', 35)], { rules: DEFAULT_COMPLIANCE_RULES, now: NOV_28 })
    expect(unsynced.totals.taxLines.map((l) => l.label)).toEqual([
      'Cannabis excise tax (15%)',
      'Sales tax (9.75%)',
    ])
    expect(unsynced.totals).toEqual(builtIn.totals)
    expect(unsynced.dailyLimits).toEqual({ flowerGrams: 28.5, concentrateGrams: 8 })
  })

  it('prices express delivery with its fee whatever the subtotal', () => {
    const view = cartViewOf([line('a', 80)], {
      rules: CDTFA_RULES,
      handover: { fulfilment: 'delivery', deliveryMethod: 'express' },
      now: NOV_28,
    })
    expect(view.totals.shipping).toBe(19.99)
  })

  it('takes no sales tax from a medical patient with a valid MMIC; the excise stays', () => {
    const medical = (mmicExpiry: string | null) =>
      cartViewOf([line('a', 35)], {
        money: FIVE_DOLLAR_DELIVERY,
        rules: CDTFA_RULES,
        buyer: { kind: 'medical', mmicExpiry },
        now: NOV_28,
      })
    const exempt = medical('2026-11-28')
    expect(labels(exempt)).toEqual(['City cannabis business tax (5%)', 'Cannabis excise tax (15%)'])
    expect(exempt.totals.salesTaxExempt).toBe(true)
    // An expired card, or none: sales tax as for anyone.
    expect(labels(medical('2026-11-27'))).toContain('Sales tax (8.5%)')
    expect(medical('2026-11-27').totals.salesTaxExempt).toBe(false)
    expect(labels(medical(null))).toContain('Sales tax (8.5%)')
  })

  it('charges sales tax, never the excise, on a non-cannabis item, even for a patient', () => {
    const view = cartViewOf([line('a', 35), line('bag', 10, 1, { isCannabis: false })], {
      money: FIVE_DOLLAR_DELIVERY,
      rules: CDTFA_RULES,
      buyer: { kind: 'medical', mmicExpiry: '2027-01-01' },
      now: NOV_28,
    })
    const sales = view.totals.taxLines.find((l) => l.kind === 'sales')
    expect(sales).toMatchObject({ base: 10, amount: 0.85 })
    const excise = view.totals.taxLines.find((l) => l.kind === 'excise')
    expect(excise?.base).toBe(41.75)
  })

  it('applies the day’s limits with what the buyer’s orders today already hold', () => {
    const held = { flower: 21, concentrate: 0 }
    const over = cartViewOf([flower('f', 3)], { held, now: NOV_28 })
    expect(over.limits.problems).toEqual([
      "Today's limit is 28.5 g of flower. Your orders today already hold 21 g, so this order can add up to 7.5 g.",
    ])
    expect(cartViewOf([flower('f', 2)], { held, now: NOV_28 }).limits.problems).toEqual([])
    // A medical patient's limit is 8 oz of flower.
    const patient = cartViewOf([flower('f', 9)], {
      held,
      buyer: { kind: 'medical', mmicExpiry: null },
      now: NOV_28,
    })
    expect(patient.limits.problems).toEqual([])
    expect(patient.dailyLimits.flowerGrams).toBe(226.8)
  })
})

describe('the cart, live', () => {
  let db: HumoDatabase | undefined
  afterEach(async () => {
    await db?.close()
    db = undefined
  })

  it('re-prices when the shop’s rules arrive and when checkout changes the buyer or pickup', async () => {
    db = (await createTestDatabase()).db
    await db.cart_lines.insert(line('a', 30, 2))
    const first = await firstValueFrom(cartView$(db).pipe(filter((v) => v.lines.length === 1)))
    expect(labels(first)).toEqual(['Cannabis excise tax (15%)', 'Sales tax (9.75%)'])

    // A settings pull brings a new excise rate in force today: the cart follows.
    const { _deleted, ...settings } = shopSettingsRowToDoc({
      id: 'shop',
      _modified: '2026-11-28T10:00:00.000001+00:00',
      _deleted: false,
      compliance_rules: [
        ...DEFAULT_COMPLIANCE_RULES.map((r) => ({ ...r, effective_from: r.effectiveFrom })),
        {
          id: '00000000-0000-4000-8c00-0000000000ff',
          rule: 'excise_rate',
          value: 0.2,
          effectiveFrom: '2026-01-01',
          passedOn: false,
        },
      ],
    })
    void _deleted
    await db.shop_settings.insert(settings)
    const repriced = await firstValueFrom(
      cartView$(db).pipe(filter((v) => labels(v).includes('Cannabis excise tax (20%)'))),
    )
    expect(repriced.totals.taxLines[0]?.label).toBe('Cannabis excise tax (20%)')

    await db.upsertLocal('guest_checkout_data', {
      customerKind: 'medical',
      mmicNumber: 'A1B2C3',
      mmicExpiry: '2099-01-01',
      fulfilment: 'pickup',
    })
    const patient = await firstValueFrom(
      cartView$(db).pipe(filter((v) => v.handover.fulfilment === 'pickup')),
    )
    expect(patient.totals.shipping).toBe(0)
    expect(labels(patient)).toEqual(['Cannabis excise tax (20%)'])
  })
})
