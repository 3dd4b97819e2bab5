// Staff roles through the real supabase-js with each role's own token (issue 32, docs/decisions/
// 053): the server refuses what a role may not do (prices, products, settings, tax rules, staff,
// exports, other drivers' orders), by RPC and by a plain REST write, and accepts what it may.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP } from '../../../src/lib/shop'
import { accepted, handOverAs, person, useHandoffDriver } from './california-helpers'
import {
  createProduct,
  createUser,
  orderInput,
  placeOrder,
  rpc,
  startRulesBackend,
  type RulesBackend,
  type StaffRole,
  type TestUser,
} from './rules-backend'

let backend: RulesBackend
const staff = {} as Record<StaffRole, TestUser>
let otherDriver: TestUser

beforeAll(async () => {
  backend = await startRulesBackend()
  await useHandoffDriver(backend)
  for (const role of ['owner', 'manager', 'budtender', 'driver'] as const)
    staff[role] = await createUser(backend, { role, email: `${role}@roles.humo.test` })
  otherDriver = await createUser(backend, { role: 'driver', email: 'driver2@roles.humo.test' })
  // Named, as a delivery receipt needs (docs/decisions/055-delivery-by-the-rules.md).
  await backend.db.query(`update public.user_profiles set first_name = 'Rui' where user_id = $1`, [
    staff.driver.id,
  ])
})
afterAll(async () => {
  await backend?.close()
})

const ROLES = ['owner', 'manager', 'budtender', 'driver'] as const

async function roleOf(id: string): Promise<string | null> {
  const { rows } = await backend.db.query<{ role: string }>(
    'select role from public.user_profiles where user_id = $1 and not _deleted',
    [id],
  )
  return rows[0]?.role ?? null
}

async function priceOf(id: string): Promise<number> {
  const { rows } = await backend.db.query<{ price: string }>(
    'select price from public.products where id = $1',
    [id],
  )
  return Number(rows[0]!.price)
}

async function newOrder(driverId: string | null = null): Promise<string> {
  const product = await createProduct(backend, { price: 20, quantity: 10, isCannabis: false })
  const order = accepted(
    await placeOrder(
      backend.anon,
      orderInput([{ productId: product.id, quantity: 1 }], { customer: person() }),
    ),
  )
  if (driverId)
    await backend.db.query('update public.orders set driver_id = $2 where id = $1', [
      order.id,
      driverId,
    ])
  return order.id
}

async function moveAs(who: TestUser, id: string, from: string, to: string) {
  return rpc<{ applied: boolean; order: { status: string } }>(who.client, 'set_order_status', {
    p_id: id,
    p_from: from,
    p_to: to,
  })
}

describe('the role helpers', () => {
  it('say who is what, and is_admin means owner or manager', async () => {
    for (const role of ROLES) {
      const client = staff[role].client
      expect((await client.rpc('staff_role')).data).toBe(role)
      expect((await client.rpc('is_staff')).data).toBe(true)
      expect((await client.rpc('is_owner')).data).toBe(role === 'owner')
      expect((await client.rpc('is_admin')).data).toBe(role === 'owner' || role === 'manager')
    }
    const shopper = await createUser(backend)
    expect((await shopper.client.rpc('staff_role')).data).toBeNull()
    expect((await shopper.client.rpc('is_staff')).data).toBe(false)
  })

  it('stores only the four staff roles and customer', async () => {
    const someone = await createUser(backend)
    const admin = await staff.owner.client
      .from('user_profiles')
      .insert({ user_id: someone.id, role: 'admin' })
    expect(admin.error?.code).toBe('23514')
    expect(await roleOf(someone.id)).toBeNull()
  })
})

describe('prices and products', () => {
  it('a budtender and a driver cannot change a price through REST or the RPCs; a manager can', async () => {
    const product = await createProduct(backend, { price: 30 })
    for (const role of ['budtender', 'driver'] as const) {
      const client = staff[role].client
      const patch = await client
        .from('products')
        .update({ price: 1 })
        .eq('id', product.id)
        .select('id')
      // Row level security: the row is not theirs to update (none updated, or refused).
      expect(patch.data ?? []).toEqual([])
      const saved = await client.rpc('admin_save_product', {
        p_product: { id: product.id, price: 1 },
      })
      expect(saved.error?.code, role).toBe('42501')
      const imported = await client.rpc('admin_import_products', {
        p_rows: [{ id: product.id, price: 1 }],
      })
      expect(imported.error?.code, role).toBe('42501')
      const deleted = await client.rpc('admin_delete_product', { p_id: product.id })
      expect(deleted.error?.code, role).toBe('42501')
      expect(await priceOf(product.id), role).toBe(30)
    }
    const managed = await staff.manager.client.rpc('admin_save_product', {
      p_product: { id: product.id, price: 32, media: [{ media_url: 'seed/flower-1.png' }] },
    })
    expect(managed.error).toBeNull()
    expect(await priceOf(product.id)).toBe(32)
  })

  it('a budtender reads the admin catalogue; a driver does not', async () => {
    const args = { after_modified: null, after_id: null, max_rows: 5, behind_from: null }
    const budtender = await staff.budtender.client.rpc('pull_products_admin', args)
    expect(budtender.error).toBeNull()
    expect((budtender.data as { rows: unknown[] }).rows.length).toBeGreaterThan(0)
    const driver = await staff.driver.client.rpc('pull_products_admin', args)
    expect(driver.error?.code).toBe('42501')
    // A shopper's role is null: refused too, not let through as unknown.
    const shopper = await createUser(backend)
    expect((await shopper.client.rpc('pull_products_admin', args)).error?.code).toBe('42501')
    expect((await backend.anon.rpc('pull_products_admin', args)).error).not.toBeNull()
  })
})

describe('settings, tax rules and exports', () => {
  const settings = {
    standardShipping: 9.99,
    expressDelivery: 19.99,
    freeShippingThreshold: 50,
    facts: SHOP,
  }
  // A month ahead: a rule takes effect today or later, at most ten years ahead.
  const ahead = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
  const rule = (value: number) => ({
    rule: 'limit_adult_concentrate_g',
    value,
    effectiveFrom: ahead,
  })

  it('budtenders and drivers cannot change settings, by RPC or PATCH', async () => {
    for (const role of ['budtender', 'driver'] as const) {
      const client = staff[role].client
      const saved = await client.rpc('admin_save_shop_settings', { p_settings: settings })
      expect(saved.error?.code, role).toBe('42501')
      const patch = await client
        .from('shop_settings')
        .update({ standard_shipping: 0 })
        .eq('id', 'shop')
        .select('id')
      expect(patch.data ?? [], role).toEqual([])
    }
    const { rows } = await backend.db.query<{ standard_shipping: string }>(
      "select standard_shipping from public.shop_settings where id = 'shop'",
    )
    expect(Number(rows[0]!.standard_shipping)).toBe(9.99)
  })

  it('a manager saves the shop settings but not the tax settings; an owner does both', async () => {
    const saved = await staff.manager.client.rpc('admin_save_shop_settings', {
      p_settings: settings,
    })
    expect(saved.error).toBeNull()
    const taxRate = await staff.manager.client.rpc('admin_save_shop_settings', {
      p_settings: { ...settings, taxRate: 0.2 },
    })
    expect(taxRate.error).toMatchObject({
      code: '42501',
      message: 'Only an owner can change tax settings.',
    })
    const patchTax = await staff.manager.client
      .from('shop_settings')
      .update({ tax_rate: 0.2 })
      .eq('id', 'shop')
    expect(patchTax.error?.code).toBe('42501')

    for (const role of ['manager', 'budtender', 'driver'] as const) {
      const save = await staff[role].client.rpc('admin_save_compliance_rule', { p_rule: rule(7) })
      expect(save.error, role).toMatchObject({ code: '42501' })
    }
    const owned = await rpc<{ compliance_rules: { id: string; rule: string; value: number }[] }>(
      staff.owner.client,
      'admin_save_compliance_rule',
      { p_rule: rule(7) },
    )
    expect(owned.error).toBeNull()
    const { rows } = await backend.db.query<{ id: string }>(
      "select id from public.compliance_rules where rule = 'limit_adult_concentrate_g' and effective_from = $1",
      [ahead],
    )
    expect(rows).toHaveLength(1)
    const deletedByManager = await staff.manager.client.rpc('admin_delete_compliance_rule', {
      p_id: rows[0]!.id,
    })
    expect(deletedByManager.error?.code).toBe('42501')
    const deleted = await staff.owner.client.rpc('admin_delete_compliance_rule', {
      p_id: rows[0]!.id,
    })
    expect(deleted.error).toBeNull()
    const taxByOwner = await staff.owner.client.rpc('admin_save_shop_settings', {
      p_settings: { ...settings, taxRate: 0.09 },
    })
    expect(taxByOwner.error).toBeNull()
  })

  it("budtenders and drivers get no export of customers' data; owners and managers do", async () => {
    const period = { p_from: '2026-01-01', p_to: '2026-12-31' }
    for (const role of ROLES) {
      const client = staff[role].client
      const report = await client.rpc('admin_tax_report', period)
      const messages = await client.from('contact_messages').select('id, email').limit(1)
      if (role === 'owner' || role === 'manager') {
        expect(report.error, role).toBeNull()
        expect(messages.error, role).toBeNull()
      } else {
        expect(report.error?.code, role).toBe('42501')
        expect(messages.data ?? [], role).toEqual([])
      }
    }
  })
})

describe('staff and invitations', () => {
  it('only an owner invites, lists staff and changes roles', async () => {
    for (const role of ['manager', 'budtender', 'driver'] as const) {
      const client = staff[role].client
      const invite = await client.rpc('admin_create_staff_invitation', {
        p_note: '',
        p_role: 'owner',
      })
      expect(invite.error?.code, role).toBe('42501')
      expect((await client.rpc('admin_staff_invitations')).error?.code, role).toBe('42501')
      expect((await client.rpc('admin_staff')).error?.code, role).toBe('42501')
      const promote = await client.rpc('admin_set_staff_role', {
        p_user: staff[role].id,
        p_role: 'owner',
      })
      expect(promote.error?.code, role).toBe('42501')
      // Nor by writing their own profile.
      await client.from('user_profiles').update({ role: 'owner' }).eq('user_id', staff[role].id)
      const grant = await client.rpc('admin_grant_by_email', {
        p_email: staff[role].email,
        p_role: 'owner',
      })
      expect(grant.error?.code, role).toBe('42501')
      expect(await roleOf(staff[role].id), role).toBe(role)
    }
  })

  it('an invitation carries its role; the owner changes roles', async () => {
    const invite = await rpc<{ id: string; code: string; role: string }>(
      staff.owner.client,
      'admin_create_staff_invitation',
      { p_note: 'Night driver', p_role: 'driver' },
    )
    expect(invite.error).toBeNull()
    expect(invite.data!.role).toBe('driver')
    const badRole = await staff.owner.client.rpc('admin_create_staff_invitation', {
      p_note: '',
      p_role: 'admin',
    })
    expect(badRole.error?.code).toBe('22023')

    const newcomer = await createUser(backend)
    const joined = await newcomer.client.rpc('accept_staff_invitation', {
      p_code: invite.data!.code,
    })
    expect(joined.data).toEqual({ joined: true, role: 'driver' })
    expect(await roleOf(newcomer.id)).toBe('driver')

    const listed = await rpc<{ userId: string; email: string; role: string }[]>(
      staff.owner.client,
      'admin_staff',
    )
    expect(listed.data).toContainEqual(
      expect.objectContaining({ userId: newcomer.id, email: newcomer.email, role: 'driver' }),
    )
    const changed = await staff.owner.client.rpc('admin_set_staff_role', {
      p_user: newcomer.id,
      p_role: 'budtender',
    })
    expect(changed.error).toBeNull()
    expect(await roleOf(newcomer.id)).toBe('budtender')
    const removed = await staff.owner.client.rpc('admin_set_staff_role', {
      p_user: newcomer.id,
      p_role: 'customer',
    })
    expect(removed.error).toBeNull()
    expect(await roleOf(newcomer.id)).toBe('customer')
  })

  it('the shop always keeps at least one owner', async () => {
    const fresh = await startRulesBackend()
    try {
      const only = await createUser(fresh, { role: 'owner' })
      const demote = await only.client.rpc('admin_set_staff_role', {
        p_user: only.id,
        p_role: 'manager',
      })
      expect(demote.error).toMatchObject({
        code: '42501',
        message: 'The shop must keep at least one owner.',
      })
      const patch = await only.client
        .from('user_profiles')
        .update({ _deleted: true })
        .eq('user_id', only.id)
      expect(patch.error?.message).toBe('The shop must keep at least one owner.')
      const remove = await only.client.from('user_profiles').delete().eq('user_id', only.id)
      expect(remove.error?.message).toBe('The shop must keep at least one owner.')

      // With a second owner, either may step down, but not both.
      const second = await createUser(fresh, { role: 'owner' })
      const stepDown = await only.client.rpc('admin_set_staff_role', {
        p_user: only.id,
        p_role: 'manager',
      })
      expect(stepDown.error).toBeNull()
      const last = await second.client.rpc('admin_set_staff_role', {
        p_user: second.id,
        p_role: 'budtender',
      })
      expect(last.error?.message).toBe('The shop must keep at least one owner.')
    } finally {
      await fresh.close()
    }
  })
})

describe('orders by role', () => {
  it('a budtender sees every order, moves it and hands it off with the ID check', async () => {
    const id = await newOrder()
    const { data } = await staff.budtender.client.from('orders').select('id').eq('id', id)
    expect(data).toEqual([{ id }])
    const moved = await moveAs(staff.budtender, id, 'pending', 'processing')
    expect(moved.error).toBeNull()
    expect(moved.data!.applied).toBe(true)
    const handed = await handOverAs(staff.budtender, id, { from: 'processing' })
    expect(handed.applied).toBe(true)
    expect(handed.order.status).toBe('delivered')
  })

  it("a driver sees only their deliveries and only hands them off, never another's", async () => {
    const mine = await newOrder(staff.driver.id)
    const theirs = await newOrder(otherDriver.id)
    const unassigned = await newOrder()

    const seen = await staff.driver.client
      .from('orders')
      .select('id')
      .in('id', [mine, theirs, unassigned])
    expect(seen.data).toEqual([{ id: mine }])
    const items = await staff.driver.client
      .from('order_items')
      .select('order_id')
      .in('order_id', [mine, theirs, unassigned])
      .returns<{ order_id: string }[]>()
    expect(items.data!.map((i) => i.order_id)).toEqual([mine])
    const pulled = await rpc<{ rows: { id: string; _deleted: boolean }[] }>(
      staff.driver.client,
      'pull_orders_admin',
      { after_modified: null, after_id: null, max_rows: 500, behind_from: null },
    )
    expect(pulled.error).toBeNull()
    expect(pulled.data!.rows.filter((r) => !r._deleted).map((r) => r.id)).toEqual([mine])

    const message = 'Drivers can only hand off the deliveries assigned to them'
    // Not their order, not a handoff, or not from shipped: refused.
    for (const [id, from, to] of [
      [theirs, 'pending', 'processing'],
      [mine, 'pending', 'processing'],
      [mine, 'pending', 'cancelled'],
      [unassigned, 'pending', 'delivered'],
      [theirs, 'shipped', 'delivered'],
    ] as const) {
      const refused = await moveAs(staff.driver, id, from, to)
      expect(refused.error, `${id} ${from}->${to}`).toMatchObject({ code: '42501', message })
    }
    // Nor by PATCH.
    await staff.driver.client.from('orders').update({ status: 'cancelled' }).eq('id', mine)
    const { rows } = await backend.db.query<{ status: string }>(
      'select status from public.orders where id = $1',
      [mine],
    )
    expect(rows[0]!.status).toBe('pending')

    // The counter ships it; the driver hands it off.
    await moveAs(staff.budtender, mine, 'pending', 'shipped')
    const handed = await handOverAs(staff.driver, mine, { from: 'shipped' })
    expect(handed.applied).toBe(true)
    expect(handed.order.status).toBe('delivered')
  })

  it('a driver unassigned from an order gets it as a tombstone', async () => {
    const id = await newOrder(staff.driver.id)
    const args = { after_id: null, max_rows: 500, behind_from: null }
    const first = await rpc<{ rows: { id: string; _modified: string; _deleted: boolean }[] }>(
      staff.driver.client,
      'pull_orders_admin',
      { ...args, after_modified: null },
    )
    const row = first.data!.rows.find((r) => r.id === id)!
    expect(row._deleted).toBe(false)
    await backend.db.query('update public.orders set driver_id = $2 where id = $1', [
      id,
      otherDriver.id,
    ])
    const next = await rpc<{ rows: Record<string, unknown>[] }>(
      staff.driver.client,
      'pull_orders_admin',
      { ...args, after_modified: row._modified, after_id: row.id },
    )
    const tombstone = next.data!.rows.find((r) => r.id === id)!
    expect(tombstone._deleted).toBe(true)
    expect(tombstone).not.toHaveProperty('customer')
  })

  it('a shopper and an unknown order are still refused', async () => {
    const shopper = await createUser(backend)
    const id = await newOrder()
    expect((await moveAs(shopper, id, 'pending', 'processing')).error?.code).toBe('42501')
    const unknown = await moveAs(staff.budtender, randomUUID(), 'pending', 'processing')
    expect(unknown.error?.code).toBe('22023')
  })
})
