// shop_settings through the real supabase-js: anyone reads, only admins save (with messages for
// bad values), place_order charges the saved rates, and the pull hands devices the new row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP } from '../../../src/lib/shop'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  rpc,
  startRulesBackend,
  type OrderDoc,
  type RulesBackend,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
let admin: TestUser
let shopper: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  admin = await createUser(backend, { admin: true })
  shopper = await createUser(backend)
})
afterAll(async () => {
  await backend?.close()
})

type SettingsRow = {
  id: string
  tax_rate: number
  standard_shipping: number
  express_delivery: number
  free_shipping_threshold: number
  facts: typeof SHOP
  _modified: string
}

const TODAY = {
  taxRate: 0.08,
  standardShipping: 9.99,
  expressDelivery: 19.99,
  freeShippingThreshold: 50,
  facts: SHOP,
}

async function pull(after?: SettingsRow) {
  const { data, error } = await rpc<{ rows: SettingsRow[]; behind: SettingsRow[] }>(
    backend.anon,
    'pull_shop_settings',
    {
      after_modified: after?._modified ?? null,
      after_id: after?.id ?? null,
      max_rows: 100,
      behind_from: null,
    },
  )
  if (error) throw new Error(error.message)
  return data!
}

const accepted = (result: Awaited<ReturnType<typeof placeOrder>>): OrderDoc => {
  if (result.status !== 'accepted') throw new Error(`refused: ${JSON.stringify(result.reasons)}`)
  return result.order
}

describe('shop_settings', () => {
  it("is seeded with today's values and anyone may read it", async () => {
    const read = await backend.anon.from('shop_settings').select('*').single<SettingsRow>()
    expect(read.error).toBeNull()
    expect(read.data).toMatchObject({
      id: 'shop',
      tax_rate: 0.08,
      standard_shipping: 9.99,
      express_delivery: 19.99,
      free_shipping_threshold: 50,
      facts: SHOP,
    })
    const { rows, behind } = await pull()
    expect(rows).toHaveLength(1)
    expect(behind).toEqual([])
    expect(rows[0]).toMatchObject({ id: 'shop', tax_rate: 0.08, facts: SHOP })
    // Nothing new after the checkpoint of the row already held.
    expect((await pull(rows[0])).rows).toEqual([])
  })

  it('refuses a save by a shopper or an anonymous caller, through the RPC or a plain update', async () => {
    for (const client of [backend.anon, shopper.client]) {
      const saved = await rpc(client, 'admin_save_shop_settings', {
        p_settings: { ...TODAY, taxRate: 0 },
      })
      expect(saved.error?.code).toBe('42501')
      await client.from('shop_settings').update({ tax_rate: 0 }).eq('id', 'shop')
    }
    const { data } = await backend.anon.from('shop_settings').select('tax_rate').single()
    expect(data).toEqual({ tax_rate: 0.08 })
    const shopperSave = await rpc(shopper.client, 'admin_save_shop_settings', {
      p_settings: TODAY,
    })
    expect(shopperSave.error?.message).toBe('Admin privileges required')
  })

  it('refuses invalid values with a message saying what is wrong', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ taxRate: 0.3 }, 'Tax rate must be between 0% and 25%'],
      [{ taxRate: -0.01 }, 'Tax rate must be between 0% and 25%'],
      [{ taxRate: '8%' }, 'Tax rate is required'],
      [{ expressDelivery: -1 }, 'Express delivery fee must be between $0 and $1000'],
      [{ standardShipping: 5000 }, 'Standard delivery fee must be between $0 and $1000'],
      [{ facts: { ...SHOP, email: 'nope' } }, 'Email must be a valid email address'],
      [{ facts: { ...SHOP, name: ' ' } }, 'Shop name is required'],
      [{ facts: { ...SHOP, hours: [] } }, 'Add at least one line of opening hours'],
      [
        { facts: { ...SHOP, phone: { display: '555', e164: '555' } } },
        'Phone number must be a valid phone number',
      ],
    ]
    for (const [change, message] of cases) {
      const { error } = await rpc(admin.client, 'admin_save_shop_settings', {
        p_settings: { ...TODAY, ...change },
      })
      expect(error, message).toMatchObject({ code: '22023', message })
    }
    // The table's checks hold even for an admin's plain update past the RPC.
    const direct = await admin.client.from('shop_settings').update({ tax_rate: 2 }).eq('id', 'shop')
    expect(direct.error?.code).toBe('23514')
    const { data } = await backend.anon.from('shop_settings').select('tax_rate').single()
    expect(data).toEqual({ tax_rate: 0.08 })
  })

  it('an admin changes the delivery fees and place_order charges them', async () => {
    // Merchandise: sales tax only (9.75%, the rules' rate in force), so the fees show plainly.
    const gummies = await createProduct(backend, { price: 22, quantity: 50, isCannabis: false })
    const before = (await pull()).rows[0]!
    const { data: signals } = await backend.anon
      .from('catalogue_changes')
      .select('changed_at')
      .eq('table_name', 'shop_settings')
    const facts = { ...SHOP, name: 'Humo Echo Park', hours: [{ days: 'Daily', hours: '8-8' }] }
    const saved = await rpc<SettingsRow>(admin.client, 'admin_save_shop_settings', {
      p_settings: {
        // No taxRate: the single rate gave way to compliance_rules (docs/decisions/051-california-taxes-and-daily-limits.md); kept as it was.
        standardShipping: 7.5,
        expressDelivery: 24.99,
        freeShippingThreshold: 75,
        facts,
      },
    })
    expect(saved.error).toBeNull()
    expect(saved.data).toMatchObject({
      tax_rate: before.tax_rate,
      standard_shipping: 7.5,
      express_delivery: 24.99,
      free_shipping_threshold: 75,
      facts,
    })

    // Devices holding the old row get the new one, and shoppers hear that it changed.
    const { rows } = await pull(before)
    expect(rows).toEqual([saved.data])
    const { data: after } = await backend.anon
      .from('catalogue_changes')
      .select('changed_at')
      .eq('table_name', 'shop_settings')
      .single()
    expect(after).not.toEqual(signals?.[0] ?? null)

    // $66: under the new $75 threshold, standard costs $7.50; sales tax 9.75% of 73.50 = 7.17.
    const standard = accepted(
      await placeOrder(backend.anon, orderInput([{ productId: gummies.id, quantity: 3 }])),
    )
    expect(standard).toMatchObject({ subtotal: 66, tax: 7.17, shipping: 7.5, total: 80.67 })
    const express = accepted(
      await placeOrder(
        backend.anon,
        orderInput([{ productId: gummies.id, quantity: 4 }], { deliveryMethod: 'express' }),
      ),
    )
    // 9.75% of 88 + 24.99 = 11.02
    expect(express).toMatchObject({ subtotal: 88, tax: 11.02, shipping: 24.99, total: 124.01 })
    const free = accepted(
      await placeOrder(backend.anon, orderInput([{ productId: gummies.id, quantity: 4 }])),
    )
    expect(free).toMatchObject({ subtotal: 88, shipping: 0, total: 96.58 })

    const restored = await rpc(admin.client, 'admin_save_shop_settings', { p_settings: TODAY })
    expect(restored.error).toBeNull()
    const again = accepted(
      await placeOrder(backend.anon, orderInput([{ productId: gummies.id, quantity: 1 }])),
    )
    expect(again).toMatchObject({ subtotal: 22, tax: 3.12, shipping: 9.99, total: 35.11 })
  })
})
