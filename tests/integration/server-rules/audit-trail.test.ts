// The audit trail through the real supabase-js with each role's own token (issue 32, docs/
// decisions/053): every allowed change (status, handoff with its checks, price, stock, product,
// settings, tax rule, invitation, role) is recorded with who, when, before and after, in the same
// transaction; a refused one leaves nothing; only owners read it (admin_activity, with filters and
// pages); nobody edits or deletes it through the API.
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

beforeAll(async () => {
  backend = await startRulesBackend()
  await useHandoffDriver(backend)
  for (const role of ['owner', 'manager', 'budtender', 'driver'] as const)
    staff[role] = await createUser(backend, { role, email: `${role}@audit.humo.test` })
})
afterAll(async () => {
  await backend?.close()
})

type Entry = {
  id: number
  at: string
  actorId: string | null
  actorEmail: string | null
  actorRole: string | null
  action: string
  entity: string
  entityId: string | null
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}
type Page = { rows: Entry[]; next: { before: string; beforeId: number } | null }

async function activity(args: Record<string, unknown> = {}): Promise<Page> {
  const { data, error } = await rpc<Page>(staff.owner.client, 'admin_activity', args)
  if (error) throw new Error(`${error.code} ${error.message}`)
  return data!
}

async function newOrder(): Promise<{ id: string; productId: string }> {
  const product = await createProduct(backend, { price: 20, quantity: 10, isCannabis: false })
  const order = accepted(
    await placeOrder(
      backend.anon,
      orderInput([{ productId: product.id, quantity: 1 }], { customer: person() }),
    ),
  )
  return { id: order.id, productId: product.id }
}

describe('what the trail records', () => {
  it('every status change and the handoff with its checks, by whom', async () => {
    const { id, productId } = await newOrder()
    const moved = await staff.budtender.client.rpc('set_order_status', {
      p_id: id,
      p_from: 'pending',
      p_to: 'processing',
    })
    expect(moved.error).toBeNull()
    expect((await handOverAs(staff.budtender, id, { from: 'processing' })).applied).toBe(true)

    const { rows: all } = await activity({ p_order: id })
    // A delivery goes out with its driver first (handOverAs; docs/decisions/055-delivery-by-the-rules.md), recorded on its own.
    expect(all.map((r) => r.action)).toEqual([
      'order.handoff',
      'order.driver',
      'order.status',
      'order.status',
    ])
    expect(all[1]).toMatchObject({
      before: { driverId: null },
      after: { driverId: expect.any(String) as unknown },
    })
    const rows = [all[0]!, all[3]!]
    expect(rows[1]).toMatchObject({
      actorId: staff.budtender.id,
      actorEmail: staff.budtender.email,
      actorRole: 'budtender',
      entity: 'order',
      entityId: id,
      before: { status: 'pending' },
      after: { status: 'processing' },
    })
    expect(rows[0]!.before).toEqual({ status: 'shipped' })
    expect(rows[0]!.after).toMatchObject({
      status: 'delivered',
      idChecked: true,
      idNumberRecorded: true,
    })
    // Newest first, to the microsecond.
    expect(rows[0]!.at > rows[1]!.at).toBe(true)
    expect(rows[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    // Placing the order took stock, but that is the order's record, not a product change.
    expect((await activity({ p_product: productId })).rows).toEqual([])
  })

  it('a price, a stock count and other product fields: only what changed', async () => {
    const product = await createProduct(backend, { price: 30, quantity: 4 })
    const save = (fields: Record<string, unknown>) =>
      staff.manager.client.rpc('admin_save_product', {
        p_product: { id: product.id, media: [{ media_url: 'seed/flower-1.png' }], ...fields },
      })
    expect((await save({ price: 35 })).error).toBeNull()
    expect((await save({ quantity_available: 9 })).error).toBeNull()
    expect((await save({ name: 'Renamed', is_featured: true })).error).toBeNull()

    const { rows } = await activity({ p_product: product.id })
    const changes = rows.filter((r) => r.action !== 'product.update' || r.before?.name)
    expect(changes.map((r) => [r.action, r.before, r.after])).toEqual([
      [
        'product.update',
        { name: product.name, is_featured: false },
        { name: 'Renamed', is_featured: true },
      ],
      ['product.stock', { quantity_available: 4 }, { quantity_available: 9 }],
      ['product.price', { price: 30 }, { price: 35 }],
    ])
    expect(rows.every((r) => r.actorRole === 'manager')).toBe(true)
  })

  it('an import writes one row per changed product, in one go', async () => {
    const before = (await activity({ p_limit: 1 })).rows[0]!.id
    const rows = Array.from({ length: 20 }, (_, i) => ({
      id: crypto.randomUUID(),
      is_new: true,
      sku: `AUDIT-${i}`,
      name: `Audit product ${i}`,
      price: 10 + i,
      quantity_available: 3,
      media: [{ media_url: 'seed/flower-1.png' }],
    }))
    const imported = await staff.owner.client.rpc('admin_import_products', { p_rows: rows })
    expect(imported.error).toBeNull()
    const { rows: created } = await backend.db.query<{ entity_id: string; action: string }>(
      "select entity_id, action from public.audit_log where id > $1 and entity = 'product'",
      [before],
    )
    expect(created.filter((r) => r.action === 'product.create')).toHaveLength(20)
    expect(new Set(created.map((r) => r.entity_id))).toEqual(new Set(rows.map((r) => r.id)))
  })

  it('settings, tax rules, invitations and roles', async () => {
    const saved = await staff.manager.client.rpc('admin_save_shop_settings', {
      p_settings: {
        standardShipping: 8.5,
        expressDelivery: 19.99,
        freeShippingThreshold: 50,
        facts: SHOP,
      },
    })
    expect(saved.error).toBeNull()
    const ahead = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    const rule = await staff.owner.client.rpc('admin_save_compliance_rule', {
      p_rule: { rule: 'limit_adult_flower_g', value: 28, effectiveFrom: ahead },
    })
    expect(rule.error).toBeNull()
    const invite = await rpc<{ id: string; code: string }>(
      staff.owner.client,
      'admin_create_staff_invitation',
      { p_note: 'Weekend', p_role: 'budtender' },
    )
    const newcomer = await createUser(backend)
    await newcomer.client.rpc('accept_staff_invitation', { p_code: invite.data!.code })
    const revoked = await rpc<{ id: string }>(staff.owner.client, 'admin_create_staff_invitation', {
      p_role: 'driver',
    })
    await staff.owner.client.rpc('admin_revoke_staff_invitation', { p_id: revoked.data!.id })
    await staff.owner.client.rpc('admin_set_staff_role', { p_user: newcomer.id, p_role: 'manager' })

    const { rows } = await activity({ p_limit: 20 })
    const find = (action: string) => rows.find((r) => r.action === action)
    expect(find('settings.update')).toMatchObject({
      actorRole: 'manager',
      before: { standard_shipping: 9.99 },
      after: { standard_shipping: 8.5 },
    })
    expect(find('compliance_rule.create')).toMatchObject({
      actorRole: 'owner',
      after: { rule: 'limit_adult_flower_g', value: 28 },
    })
    expect(find('invitation.create')).toMatchObject({ after: { role: 'driver' } })
    expect(find('invitation.use')).toMatchObject({
      actorId: newcomer.id,
      entityId: invite.data!.id,
      after: { role: 'budtender', usedBy: newcomer.id },
    })
    expect(find('invitation.revoke')).toMatchObject({ entityId: revoked.data!.id })
    const roles = rows.filter((r) => r.action === 'staff.role' && r.entityId === newcomer.id)
    expect(roles.map((r) => [r.before, r.after?.role])).toEqual([
      [{ role: 'budtender' }, 'manager'],
      [{ role: null }, 'budtender'],
    ])
    // One person's filter: what they did and what was done to their role.
    const theirs = await activity({ p_person: newcomer.id })
    expect(theirs.rows.map((r) => r.action).sort()).toEqual(
      ['invitation.use', 'staff.role', 'staff.role'].sort(),
    )
  })

  it('a refused change leaves no row', async () => {
    const product = await createProduct(backend, { price: 12 })
    const count = async () =>
      (await backend.db.query('select 1 from public.audit_log where entity_id = $1', [product.id]))
        .rows.length
    await staff.budtender.client.rpc('admin_save_product', {
      p_product: { id: product.id, price: 1 },
    })
    await staff.budtender.client.from('products').update({ price: 1 }).eq('id', product.id)
    expect(await count()).toBe(0)
  })
})

describe('who reads it, and nobody rewrites it', () => {
  it('owners only; filters are checked; pages follow one another', async () => {
    for (const role of ['manager', 'budtender', 'driver'] as const) {
      const refused = await staff[role].client.rpc('admin_activity', {})
      expect(refused.error?.code, role).toBe('42501')
      const table = await staff[role].client.from('audit_log').select('id')
      expect(table.data ?? [], role).toEqual([])
    }
    expect((await backend.anon.rpc('admin_activity', {})).error).not.toBeNull()
    const bad = await staff.owner.client.rpc('admin_activity', { p_limit: 0 })
    expect(bad.error?.code).toBe('22023')
    const two = await staff.owner.client.rpc('admin_activity', {
      p_order: crypto.randomUUID(),
      p_product: crypto.randomUUID(),
    })
    expect(two.error?.code).toBe('22023')

    const all = await activity({ p_limit: 1000 })
    const pages: Entry[] = []
    let page = await activity({ p_limit: 3 })
    pages.push(...page.rows)
    while (page.next) {
      page = await activity({
        p_limit: 3,
        p_before: page.next.before,
        p_before_id: page.next.beforeId,
      })
      pages.push(...page.rows)
    }
    expect(pages.map((r) => r.id)).toEqual(all.rows.map((r) => r.id))
  })

  it('nobody updates, deletes or inserts through the API, the owner included', async () => {
    const { rows } = await activity({ p_limit: 1 })
    const id = rows[0]!.id
    const client = staff.owner.client
    const update = await client.from('audit_log').update({ action: 'x' }).eq('id', id)
    expect(update.error).not.toBeNull()
    const remove = await client.from('audit_log').delete().eq('id', id)
    expect(remove.error).not.toBeNull()
    const insert = await client
      .from('audit_log')
      .insert({ action: 'forged', entity: 'order', entity_id: 'x' })
    expect(insert.error).not.toBeNull()
    const service = await backend.db.query<{ n: number }>(
      'select count(*)::int as n from public.audit_log where id = $1 and action <> $2',
      [id, 'x'],
    )
    expect(service.rows[0]!.n).toBe(1)
    // Not even the table's owner, below the API.
    await expect(
      backend.db.query('delete from public.audit_log where id = $1', [id]),
    ).rejects.toThrow(/cannot be changed or deleted/)
    await expect(backend.db.query('truncate public.audit_log')).rejects.toThrow(
      /cannot be changed or deleted/,
    )
  })
})
