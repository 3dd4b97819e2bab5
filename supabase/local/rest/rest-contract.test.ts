// @vitest-environment node
// Contract tests of /rest/v1 beyond reads: inserts, upserts, updates, deletes, the remaining
// filters, rpc shapes and PostgREST's error statuses, driven by the real supabase-js. The tables
// and functions here are test fixtures created as the superuser (then announced with
// NOTIFY pgrst, as after any DDL), so these tests do not depend on the evolving catalogue schema.
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, signedInUser, waitFor } from '../contract-testing.ts'
import { startHumoBackend, type HumoBackend } from '../server.ts'

let backend: HumoBackend
let anon: SupabaseClient
let service: SupabaseClient
let admin: SupabaseClient
let customer: SupabaseClient

const FIXTURES = `
create table public.widgets (
  id serial primary key,
  name text not null unique,
  qty integer check (qty >= 0),
  note text,
  tags text[],
  meta jsonb,
  kind text not null default 'plain',
  created_at timestamptz not null default now()
);
create table public.widget_parts (
  id serial primary key,
  widget_id integer not null references public.widgets (id) on delete cascade,
  label text not null,
  position integer
);
alter table public.widgets enable row level security;
alter table public.widget_parts enable row level security;
create policy "widgets: read" on public.widgets for select to anon, authenticated using (true);
create policy "widgets: admins write" on public.widgets for all to authenticated
  using (public.is_admin()) with check (public.is_admin());
create policy "parts: read" on public.widget_parts for select to anon, authenticated using (true);
create policy "parts: admins write" on public.widget_parts for all to authenticated
  using (public.is_admin()) with check (public.is_admin());

create function public.widgets_heavier_than(min_qty integer) returns setof public.widgets
language sql stable as $$ select * from public.widgets where qty > min_qty $$;
create function public.widget_summary() returns table (kind text, total bigint)
language sql stable as $$ select kind, sum(qty) from public.widgets group by kind $$;
create function public.add_numbers(a integer, b integer default 1) returns integer
language sql immutable as $$ select a + b $$;
create function public.touch_nothing() returns void language plpgsql as $$ begin end $$;
create function public.refuse(reason text) returns void language plpgsql as $$
begin
  raise exception 'Refused: %', reason using detail = 'because', hint = 'try again';
end $$;
create function public.pay_first() returns void language plpgsql as $$
begin
  raise exception 'Payment required' using errcode = 'PT402';
end $$;
notify pgrst, 'reload schema';
`

beforeAll(async () => {
  backend = await startHumoBackend({ dataDir: null, port: 0, quiet: true, seed: false })
  anon = clientFor(backend, backend.anonKey)
  service = clientFor(backend, backend.serviceRoleKey)
  admin = (await signedInUser(backend, 'owner')).client
  customer = (await signedInUser(backend)).client
  await backend.db.exec(FIXTURES)
  // The schema cache reloads asynchronously after the notification.
  let ready = false
  const poll = async () => {
    ready = (await anon.from('widgets').select('id')).status === 200
  }
  await waitFor(() => {
    void poll()
    return ready
  })
}, 60_000)

afterAll(async () => {
  await backend?.close()
})

describe('insert and upsert', () => {
  it('inserts one row with return=minimal and with representation', async () => {
    const minimal = await admin.from('widgets').insert({ name: 'bolt', qty: 5 })
    expect(minimal.status).toBe(201)
    expect(minimal.error).toBeNull()
    expect(minimal.data).toBeNull()

    const full = await admin
      .from('widgets')
      .insert({ name: 'nut', qty: 3, tags: ['m4', 'steel'], meta: { finish: 'zinc' } })
      .select('id, name, qty, tags, meta, kind')
      .single()
    expect(full.status).toBe(201)
    expect(full.data).toEqual({
      id: expect.any(Number) as number,
      name: 'nut',
      qty: 3,
      tags: ['m4', 'steel'],
      meta: { finish: 'zinc' },
      kind: 'plain',
    })
  })

  it('bulk-inserts with columns= (absent keys null) or with missing=default', async () => {
    const bulk = await admin
      .from('widgets')
      .insert([
        { name: 'washer', qty: 100, kind: 'round' },
        { name: 'spring', note: 'coiled', kind: 'round' },
      ])
      .select('name, qty, note')
      .order('name')
    expect(bulk.error).toBeNull()
    expect(bulk.data).toEqual([
      { name: 'spring', qty: null, note: 'coiled' },
      { name: 'washer', qty: 100, note: null },
    ])

    const defaults = await admin
      .from('widgets')
      .insert(
        [
          { name: 'rivet', qty: 1 },
          { name: 'pin', kind: 'long' },
        ],
        { defaultToNull: false },
      )
      .select('name, kind')
    expect(defaults.error).toBeNull()
    expect(defaults.data).toEqual(
      expect.arrayContaining([
        { name: 'rivet', kind: 'plain' },
        { name: 'pin', kind: 'long' },
      ]),
    )
  })

  it('upserts with merge-duplicates and ignore-duplicates on a chosen conflict column', async () => {
    const merged = await admin
      .from('widgets')
      .upsert({ name: 'bolt', qty: 50 }, { onConflict: 'name' })
      .select('name, qty')
    expect(merged.error).toBeNull()
    expect(merged.data).toEqual([{ name: 'bolt', qty: 50 }])

    const ignored = await admin
      .from('widgets')
      .upsert(
        [
          { name: 'bolt', qty: 1 },
          { name: 'screw', qty: 9 },
        ],
        {
          onConflict: 'name',
          ignoreDuplicates: true,
        },
      )
      .select('name, qty')
    expect(ignored.error).toBeNull()
    expect(ignored.data).toEqual([{ name: 'screw', qty: 9 }])
    const bolt = await anon.from('widgets').select('qty').eq('name', 'bolt').single()
    expect(bolt.data).toEqual({ qty: 50 })
  })

  it('returns inserted rows with their embedded resources', async () => {
    const widget = await admin.from('widgets').select('id').eq('name', 'nut').single()
    const parts = await admin
      .from('widget_parts')
      .insert([
        { widget_id: widget.data!.id as number, label: 'thread', position: 2 },
        { widget_id: widget.data!.id as number, label: 'head', position: null },
        { widget_id: widget.data!.id as number, label: 'body', position: 1 },
      ])
      .select('label, widgets(name)')
    expect(parts.error).toBeNull()
    expect(parts.data).toContainEqual({ label: 'head', widgets: { name: 'nut' } })
  })
})

describe('update and delete', () => {
  it('updates filtered rows and returns them; an empty match changes nothing', async () => {
    const updated = await admin
      .from('widgets')
      .update({ note: 'updated', meta: 'plain string is json too' })
      .in('name', ['washer', 'spring'])
      .select('name, note, meta')
      .order('name')
    expect(updated.error).toBeNull()
    expect(updated.data).toEqual([
      { name: 'spring', note: 'updated', meta: 'plain string is json too' },
      { name: 'washer', note: 'updated', meta: 'plain string is json too' },
    ])
    const none = await admin.from('widgets').update({ note: 'x' }).eq('name', 'nope').select()
    expect(none.data).toEqual([])
  })

  it('deletes filtered rows with and without representation', async () => {
    await admin.from('widgets').insert([{ name: 'temp-1' }, { name: 'temp-2' }])
    const removed = await admin.from('widgets').delete().like('name', 'temp-*').select('name')
    expect(removed.error).toBeNull()
    expect(removed.data!.map((r) => r.name as string).sort()).toEqual(['temp-1', 'temp-2'])
    const minimal = await admin.from('widgets').delete().eq('name', 'temp-1')
    expect(minimal.status).toBe(204)
  })
})

describe('filters, order and count', () => {
  it('supports not. on every operator, is, in, isdistinct and nested or/and', async () => {
    const names = async (query: PromiseLike<{ data: { name: string }[] | null }>) =>
      ((await query).data ?? []).map((r) => r.name).sort()
    const all = await names(anon.from('widgets').select('name'))
    expect(all).toEqual(['bolt', 'nut', 'pin', 'rivet', 'screw', 'spring', 'washer'])

    expect(
      await names(anon.from('widgets').select('name').not('name', 'in', '(bolt,nut)')),
    ).toEqual(all.filter((n) => n !== 'bolt' && n !== 'nut'))
    expect(await names(anon.from('widgets').select('name').not('qty', 'is', null))).not.toContain(
      'spring',
    )
    expect(await names(anon.from('widgets').select('name').not('name', 'ilike', '*S*'))).toEqual(
      all.filter((n) => !n.includes('s')),
    )
    expect(await names(anon.from('widgets').select('name').not('qty', 'gte', 5))).toEqual(
      ['nut', 'rivet'].sort(),
    )
    expect(
      await names(anon.from('widgets').select('name').filter('note', 'isdistinct', 'updated')),
    ).not.toContain('washer')
    expect(
      await names(
        anon
          .from('widgets')
          .select('name')
          .or('and(kind.eq.round,qty.gt.10),not.or(name.neq.nut,qty.neq.3)'),
      ),
    ).toEqual(['nut', 'washer'])
    expect(await names(anon.from('widgets').select('name').like('name', '*o*t'))).toEqual(['bolt'])
  })

  it('orders top-level and embedded rows with nulls first or last', async () => {
    const top = await anon
      .from('widgets')
      .select('name, qty')
      .order('qty', { ascending: false, nullsFirst: true })
    expect(top.data![0]!.qty).toBeNull()
    const embedded = await anon
      .from('widgets')
      .select('name, widget_parts(label, position)')
      .eq('name', 'nut')
      .order('position', { referencedTable: 'widget_parts', ascending: true, nullsFirst: false })
      .single()
    expect((embedded.data!.widget_parts as { label: string }[]).map((p) => p.label)).toEqual([
      'body',
      'thread',
      'head',
    ])
    const inner = await anon
      .from('widgets')
      .select('name, widget_parts!inner(label)')
      .eq('widget_parts.label', 'head')
    expect(inner.data).toEqual([{ name: 'nut', widget_parts: [{ label: 'head' }] }])
  })

  it('counts exactly, also with head', async () => {
    const head = await anon.from('widgets').select('*', { count: 'exact', head: true })
    expect(head.error).toBeNull()
    expect(head.data).toBeNull()
    const all = await anon.from('widgets').select('id')
    expect(head.count).toBe(all.data!.length)
    const page = await anon.from('widgets').select('id', { count: 'exact' }).range(0, 1)
    expect(page.data).toHaveLength(2)
    expect(page.count).toBe(all.data!.length)
  })
})

describe('rpc', () => {
  it('calls set-returning functions by POST and GET, with filters and order on the result', async () => {
    const post = await anon
      .rpc('widgets_heavier_than', { min_qty: 4 })
      .select('name, qty')
      .order('qty', { ascending: false })
    expect(post.error).toBeNull()
    expect((post.data as unknown[])[0]).toEqual({ name: 'washer', qty: 100 })

    const get = await anon
      .rpc('widgets_heavier_than', { min_qty: 4 }, { get: true })
      .eq('name', 'screw')
      .select('name')
    expect(get.error).toBeNull()
    expect(get.data).toEqual([{ name: 'screw' }])

    const one = await anon.rpc('widgets_heavier_than', { min_qty: 60 }).select('name').single()
    expect(one.data).toEqual({ name: 'washer' })
  })

  it('calls table-returning, scalar and void functions', async () => {
    const table = await anon.rpc('widget_summary').order('kind')
    expect(table.error).toBeNull()
    expect(table.data).toContainEqual({ kind: 'round', total: 100 })
    expect((await anon.rpc('add_numbers', { a: 2, b: 40 })).data).toBe(42)
    expect((await anon.rpc('add_numbers', { a: 2 }, { get: true })).data).toBe(3)
    const nothing = await anon.rpc('touch_nothing')
    expect(nothing.status).toBe(204)
    expect(nothing.error).toBeNull()
    const missing = await anon.rpc('no_such_function')
    expect(missing.status).toBe(404)
    expect(missing.error).toMatchObject({ code: 'PGRST202' })
  })

  it("passes a function's RAISE through as PostgREST does", async () => {
    const refused = await anon.rpc('refuse', { reason: 'out of stock' })
    expect(refused.status).toBe(400)
    expect(refused.error).toEqual({
      code: 'P0001',
      message: 'Refused: out of stock',
      details: 'because',
      hint: 'try again',
    })
    const custom = await anon.rpc('pay_first')
    expect(custom.status).toBe(402)
    expect(custom.error).toMatchObject({ code: 'PT402', message: 'Payment required' })
  })
})

describe('errors', () => {
  it('maps Postgres errors to PostgREST statuses', async () => {
    const unique = await admin.from('widgets').insert({ name: 'bolt' })
    expect(unique.status).toBe(409)
    expect(unique.error).toMatchObject({ code: '23505' })

    const foreign = await admin.from('widget_parts').insert({ widget_id: 999999, label: 'x' })
    expect(foreign.status).toBe(409)
    expect(foreign.error).toMatchObject({ code: '23503' })

    const check = await admin.from('widgets').insert({ name: 'negative', qty: -1 })
    expect(check.status).toBe(400)
    expect(check.error).toMatchObject({ code: '23514' })

    const invalid = await anon.from('widgets').select('id').eq('id', 'not-a-number')
    expect(invalid.status).toBe(400)
    expect(invalid.error).toMatchObject({ code: '22P02' })
  })

  it('refuses writes by RLS: 401 for anon, 403 for a signed-in non-admin', async () => {
    const byAnon = await anon.from('widgets').insert({ name: 'anon-widget' })
    expect(byAnon.status).toBe(401)
    expect(byAnon.error).toMatchObject({
      code: '42501',
      message: 'new row violates row-level security policy for table "widgets"',
    })
    const byCustomer = await customer.from('widgets').insert({ name: 'customer-widget' })
    expect(byCustomer.status).toBe(403)
    expect(byCustomer.error).toMatchObject({ code: '42501' })
    // Updates and deletes that RLS filters out simply match no rows.
    const hidden = await customer.from('widgets').delete().eq('name', 'bolt').select()
    expect(hidden.data).toEqual([])
  })

  it('answers unknown tables, unknown columns and single() like PostgREST', async () => {
    expect((await anon.from('nope').select()).error).toMatchObject({ code: 'PGRST205' })
    const write = await admin.from('widgets').insert({ name: 'x', colour: 'red' })
    expect(write.status).toBe(400)
    expect(write.error).toMatchObject({
      code: 'PGRST204',
      message: "Could not find the 'colour' column of 'widgets' in the schema cache",
    })
    const patch = await admin.from('widgets').update({ colour: 'red' }).eq('id', 1)
    expect(patch.error).toMatchObject({ code: 'PGRST204' })
    const single = await anon.from('widgets').select('id').eq('name', 'nope').single()
    expect(single.status).toBe(406)
    expect(single.error).toMatchObject({ code: 'PGRST116' })
    const maybe = await anon.from('widgets').select('id').eq('name', 'nope').maybeSingle()
    expect(maybe.error).toBeNull()
    expect(maybe.data).toBeNull()
  })

  it('survives malformed input and oversized bodies, and keeps serving', async () => {
    const rest = `${backend.url}/rest/v1`
    const headers = {
      apikey: backend.serviceRoleKey,
      Authorization: `Bearer ${backend.serviceRoleKey}`,
      'Content-Type': 'application/json',
    }
    const badJson = await fetch(`${rest}/widgets`, { method: 'POST', headers, body: '{"name":' })
    expect(badJson.status).toBe(400)
    expect(await badJson.json()).toMatchObject({ code: 'PGRST102' })

    const badFilter = await fetch(`${rest}/widgets?qty=between.1.2`, { headers })
    expect(badFilter.status).toBe(400)
    expect(await badFilter.json()).toMatchObject({ code: 'PGRST100' })

    const badSelect = await fetch(`${rest}/widgets?select=name,(`, { headers })
    expect(badSelect.status).toBe(400)

    const badJwt = await fetch(`${rest}/widgets`, {
      headers: { apikey: 'not.a.jwt', Authorization: 'Bearer not.a.jwt' },
    })
    expect(badJwt.status).toBe(401)

    const huge = JSON.stringify({ name: 'huge', note: 'x'.repeat(11 * 1024 * 1024) })
    const tooLarge = await fetch(`${rest}/widgets`, { method: 'POST', headers, body: huge })
    expect(tooLarge.status).toBe(413)
    // Table writes are capped at 1 MB (http-body.ts, REST_WRITE_BODY_LIMIT).
    expect(((await tooLarge.json()) as { message: string }).message).toMatch(/1 MB/)

    const still = await service.from('widgets').select('id').limit(1)
    expect(still.error).toBeNull()
  })
})
