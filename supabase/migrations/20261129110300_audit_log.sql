-- The audit trail (issue 32, docs/decisions/053): who did what, when, what it was and what it
-- became, written by triggers in the same transaction as the change, so a change and its record
-- commit or roll back together. Owners read it (admin_activity, Admin > Activity); nobody edits or
-- deletes it: the API has no write grant, and a trigger refuses an update, delete or truncate from
-- anyone, the table's owner included (the maintenance path, documented in the decision record, is
-- the database owner disabling that trigger in the SQL editor).
--
-- Recorded: every order status change (a handoff with its ID and MMIC checks), a driver assigned,
-- product creations, changes (only the columns that changed) and deletions, shop settings,
-- compliance rules, staff roles, invitations created, used and revoked. Product changes are
-- recorded when staff (or the service role) make them directly: the stock an order takes or gives
-- back is the order's own record (its status rows), not one row per product per order.

create table public.audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default clock_timestamp(),
  actor uuid,
  actor_email text,
  actor_role text,
  action text not null,
  entity text not null,
  entity_id text,
  before jsonb,
  after jsonb
);

create index audit_log_at_idx on public.audit_log (at desc, id desc);
create index audit_log_actor_idx on public.audit_log (actor, at desc, id desc);
create index audit_log_entity_idx on public.audit_log (entity, entity_id, at desc, id desc);

alter table public.audit_log enable row level security;

create policy "audit_log: owners read"
  on public.audit_log for select
  to authenticated
  using (public.is_owner());

revoke all on public.audit_log from public, anon, authenticated, service_role;
grant select on public.audit_log to authenticated;

create or replace function private.audit_log_is_append_only()
returns trigger
language plpgsql
set search_path = pg_catalog
as $$
begin
  raise exception 'The activity log cannot be changed or deleted.' using errcode = '42501';
end;
$$;

revoke all on function private.audit_log_is_append_only() from public, anon, authenticated;

create trigger audit_log_append_only
  before update or delete on public.audit_log
  for each row execute function private.audit_log_is_append_only();

create trigger audit_log_no_truncate
  before truncate on public.audit_log
  for each statement execute function private.audit_log_is_append_only();

-- Who is acting: the signed-in user (their staff role, or 'customer'), 'system' for the service
-- role and the database owner (the shop's own jobs: unaccepted orders cancelled, start-up).
create or replace function private.audit_actor(out actor uuid, out actor_email text, out actor_role text)
language plpgsql
stable
security definer
set search_path = pg_catalog
as $$
begin
  actor := auth.uid();
  actor_email := coalesce(auth.email(), (select u.email from auth.users u where u.id = actor));
  actor_role := coalesce(public.staff_role(),
    case when actor is not null then 'customer' else 'system' end);
end;
$$;

-- Whether a change is one the trail records as a catalogue or settings change: made through the
-- API (a JWT role), not by the database owner (migrations, the seed, start-up).
create or replace function private.audit_api_change()
returns boolean
language sql
stable
set search_path = pg_catalog
as $$
  select coalesce(auth.role(), '') <> ''
$$;

-- For the shop's other changes (issue 32's other parts): one row, in the caller's transaction.
create or replace function private.audit(
  p_action text,
  p_entity text,
  p_entity_id text,
  p_before jsonb,
  p_after jsonb
)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog
as $$
declare
  v_actor record;
begin
  select * into v_actor from private.audit_actor();
  insert into public.audit_log (actor, actor_email, actor_role, action, entity, entity_id, before, after)
  values (v_actor.actor, v_actor.actor_email, v_actor.actor_role, p_action, p_entity, p_entity_id,
          p_before, p_after);
end;
$$;

revoke all on function private.audit_actor(), private.audit_api_change(),
  private.audit(text, text, text, jsonb, jsonb)
  from public, anon, authenticated;

-- The fields of a row's jsonb that changed, as {before, after} (null when none did).
create or replace function private.audit_diff(p_old jsonb, p_new jsonb, p_ignore text[])
returns table (before jsonb, after jsonb)
language sql
immutable
set search_path = pg_catalog
as $$
  select jsonb_object_agg(n.key, o.value), jsonb_object_agg(n.key, n.value)
    from jsonb_each(p_new) n
    join jsonb_each(p_old) o on o.key = n.key
   where o.value is distinct from n.value
     and not (n.key = any (p_ignore))
  having count(*) > 0
$$;

revoke all on function private.audit_diff(jsonb, jsonb, text[]) from public, anon, authenticated;

-- Orders ------------------------------------------------------------------------------------------
-- A status change (a handoff carries the checks its status entry recorded), a driver assigned, the
-- tracking number or estimated delivery changed. Whoever makes them, the shop's jobs included.
create or replace function private.audit_order_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
declare
  v_checks jsonb;
  v_diff record;
begin
  if new.status is distinct from old.status then
    v_checks := coalesce(new.status_history -> -1, '{}'::jsonb) - 'status' - 'at' - 'by';
    if new.id_number_hash is distinct from old.id_number_hash and new.id_number_hash is not null then
      v_checks := v_checks || jsonb_build_object('idNumberRecorded', true);
    end if;
    perform private.audit(
      case when new.status = 'delivered' then 'order.handoff' else 'order.status' end,
      'order', new.id::text,
      jsonb_build_object('status', old.status),
      jsonb_build_object('status', new.status) || v_checks);
  end if;
  if new.driver_id is distinct from old.driver_id then
    perform private.audit('order.driver', 'order', new.id::text,
      jsonb_build_object('driverId', old.driver_id), jsonb_build_object('driverId', new.driver_id));
  end if;
  if new.tracking_number is distinct from old.tracking_number
     or new.estimated_delivery is distinct from old.estimated_delivery then
    select * into v_diff from private.audit_diff(
      jsonb_build_object('tracking_number', old.tracking_number, 'estimated_delivery', old.estimated_delivery),
      jsonb_build_object('tracking_number', new.tracking_number, 'estimated_delivery', new.estimated_delivery),
      '{}');
    perform private.audit('order.update', 'order', new.id::text, v_diff.before, v_diff.after);
  end if;
  return null;
end;
$$;

revoke all on function private.audit_order_change() from public, anon, authenticated;

create trigger orders_audit
  after update on public.orders
  for each row
  when (old.status is distinct from new.status
        or old.driver_id is distinct from new.driver_id
        or old.tracking_number is distinct from new.tracking_number
        or old.estimated_delivery is distinct from new.estimated_delivery)
  execute function private.audit_order_change();

-- Products ----------------------------------------------------------------------------------------
-- Statement triggers over the transition tables: an import of 5,000 products writes its 5,000
-- audit rows in one INSERT. Only changes staff or the service role make through the API, and not
-- those another trigger makes (a cancelled order's stock given back, a reopened one's taken again):
-- the order's own rows record those.
create or replace function private.audit_product_writes()
returns boolean
language sql
stable
security definer
set search_path = pg_catalog
as $$
  select pg_trigger_depth() <= 1
     and (public.staff_role() is not null or coalesce(auth.role(), '') = 'service_role')
$$;

revoke all on function private.audit_product_writes() from public, anon, authenticated;

create or replace function private.audit_products_insert()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if not private.audit_product_writes() then
    return null;
  end if;
  insert into public.audit_log (actor, actor_email, actor_role, action, entity, entity_id, before, after)
  select a.actor, a.actor_email, a.actor_role, 'product.create', 'product', n.id::text, null,
         to_jsonb(n) - '_modified' - 'updated_at' - 'created_at' - '_deleted'
    from new_rows n
   cross join private.audit_actor() a;
  return null;
end;
$$;

create or replace function private.audit_products_update()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if not private.audit_product_writes() then
    return null;
  end if;
  insert into public.audit_log (actor, actor_email, actor_role, action, entity, entity_id, before, after)
  select a.actor, a.actor_email, a.actor_role,
         case when n._deleted and not o._deleted then 'product.delete'
              when o._deleted and not n._deleted then 'product.restore'
              when d.before ? 'price' or d.before ? 'original_price' then 'product.price'
              when d.before ? 'quantity_available' and (d.before - 'quantity_available') = '{}'::jsonb then 'product.stock'
              else 'product.update' end,
         'product', n.id::text, d.before, d.after
    from new_rows n
    join old_rows o on o.id = n.id
   cross join lateral private.audit_diff(to_jsonb(o), to_jsonb(n),
           array['_modified', 'updated_at', 'created_at']) d
   cross join private.audit_actor() a
   where d.before is not null;
  return null;
end;
$$;

create or replace function private.audit_products_delete()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if not private.audit_product_writes() then
    return null;
  end if;
  insert into public.audit_log (actor, actor_email, actor_role, action, entity, entity_id, before, after)
  select a.actor, a.actor_email, a.actor_role, 'product.delete', 'product', o.id::text,
         jsonb_build_object('name', o.name, 'sku', o.sku), null
    from old_rows o
   cross join private.audit_actor() a;
  return null;
end;
$$;

revoke all on function private.audit_products_insert(), private.audit_products_update(),
  private.audit_products_delete() from public, anon, authenticated;

create trigger products_audit_insert
  after insert on public.products
  referencing new table as new_rows
  for each statement execute function private.audit_products_insert();

create trigger products_audit_update
  after update on public.products
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.audit_products_update();

create trigger products_audit_delete
  after delete on public.products
  referencing old table as old_rows
  for each statement execute function private.audit_products_delete();

-- Import Products applies its rows with no trigger running (replica mode, decision 047) where the
-- server may; the trail's triggers run anyway, once per statement.
alter table public.products enable always trigger products_audit_insert;
alter table public.products enable always trigger products_audit_update;
alter table public.products enable always trigger products_audit_delete;

-- Shop settings and compliance rules --------------------------------------------------------------
create or replace function private.audit_settings_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
declare
  v_diff record;
begin
  if not private.audit_api_change() then
    return null;
  end if;
  select * into v_diff from private.audit_diff(to_jsonb(old), to_jsonb(new),
    array['_modified', 'updated_at', 'updated_by']);
  if v_diff.before is not null then
    perform private.audit('settings.update', 'settings', new.id, v_diff.before, v_diff.after);
  end if;
  return null;
end;
$$;

revoke all on function private.audit_settings_change() from public, anon, authenticated;

create trigger shop_settings_audit
  after update on public.shop_settings
  for each row execute function private.audit_settings_change();

create or replace function private.audit_compliance_rule_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
declare
  v_diff record;
begin
  if not private.audit_api_change() then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform private.audit('compliance_rule.create', 'compliance_rule', new.id::text, null,
      to_jsonb(new) - 'created_at' - 'updated_by');
  elsif tg_op = 'DELETE' then
    perform private.audit('compliance_rule.delete', 'compliance_rule', old.id::text,
      to_jsonb(old) - 'created_at' - 'updated_by', null);
  else
    select * into v_diff from private.audit_diff(to_jsonb(old), to_jsonb(new),
      array['created_at', 'updated_by']);
    if v_diff.before is not null then
      perform private.audit('compliance_rule.update', 'compliance_rule', new.id::text,
        v_diff.before, v_diff.after);
    end if;
  end if;
  return null;
end;
$$;

revoke all on function private.audit_compliance_rule_change() from public, anon, authenticated;

create trigger compliance_rules_audit
  after insert or update or delete on public.compliance_rules
  for each row execute function private.audit_compliance_rule_change();

-- Staff roles -------------------------------------------------------------------------------------
create or replace function private.audit_staff_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
declare
  v_before text := case when tg_op <> 'INSERT' and not old._deleted then old.role end;
  v_after text := case when tg_op <> 'DELETE' and not new._deleted then new.role end;
  v_user uuid := coalesce(new.user_id, old.user_id);
begin
  if v_before is not distinct from v_after
     or coalesce(v_before, 'customer') = 'customer' and coalesce(v_after, 'customer') = 'customer' then
    return null;
  end if;
  perform private.audit('staff.role', 'staff', v_user::text,
    jsonb_build_object('role', v_before),
    jsonb_build_object('role', v_after, 'email', (select u.email from auth.users u where u.id = v_user)));
  return null;
end;
$$;

revoke all on function private.audit_staff_change() from public, anon, authenticated;

create trigger user_profiles_audit
  after insert or update or delete on public.user_profiles
  for each row execute function private.audit_staff_change();

-- Invitations -------------------------------------------------------------------------------------
create or replace function private.audit_invitation_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if tg_op = 'INSERT' then
    perform private.audit('invitation.create', 'invitation', new.id::text, null,
      jsonb_build_object('role', new.role, 'note', new.note, 'expiresAt', new.expires_at));
  elsif new.used_at is distinct from old.used_at and new.used_at is not null then
    perform private.audit('invitation.use', 'invitation', new.id::text,
      jsonb_build_object('role', old.role),
      jsonb_build_object('role', new.role, 'usedBy', new.used_by));
  elsif new.revoked_at is distinct from old.revoked_at and new.revoked_at is not null then
    perform private.audit('invitation.revoke', 'invitation', new.id::text,
      jsonb_build_object('role', old.role, 'note', old.note), null);
  end if;
  return null;
end;
$$;

revoke all on function private.audit_invitation_change() from public, anon, authenticated;

create trigger staff_invitations_audit
  after insert or update on private.staff_invitations
  for each row execute function private.audit_invitation_change();

-- admin_activity ----------------------------------------------------------------------------------
-- The trail, newest first, for owners: optionally one person's (what they did, and what was done
-- to their role), one order's or one product's. A page ends before (p_before, p_before_id), the
-- last row of the previous page; the answer's `next` is that cursor for the page after, or null.
create or replace function public.admin_activity(
  p_person uuid default null,
  p_order uuid default null,
  p_product uuid default null,
  p_before timestamptz default null,
  p_limit integer default 100,
  p_before_id bigint default null
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_rows jsonb;
  v_count integer;
begin
  if not public.is_owner() then
    perform private.refuse_role('Only an owner can see the activity log.');
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'Ask for 1 to 1000 entries at a time' using errcode = '22023';
  end if;
  if (p_person is not null)::int + (p_order is not null)::int + (p_product is not null)::int > 1 then
    raise exception 'Filter by a person, an order or a product, one at a time' using errcode = '22023';
  end if;
  if p_before_id is not null and p_before is null then
    raise exception 'A page cursor needs its time (p_before) as well as its id' using errcode = '22023';
  end if;
  with page as (
    select l.*
      from public.audit_log l
     where (p_person is null or l.actor = p_person
            or (l.entity = 'staff' and l.entity_id = p_person::text))
       and (p_order is null or (l.entity = 'order' and l.entity_id = p_order::text))
       and (p_product is null or (l.entity = 'product' and l.entity_id = p_product::text))
       and (p_before is null
            or l.at < p_before
            or (p_before_id is not null and l.at = p_before and l.id < p_before_id))
     order by l.at desc, l.id desc
     limit p_limit
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', p.id,
           -- Microseconds, so that the cursor names its row exactly.
           'at', to_char(p.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
           'actorId', p.actor,
           'actorEmail', p.actor_email,
           'actorRole', p.actor_role,
           'action', p.action,
           'entity', p.entity,
           'entityId', p.entity_id,
           'before', p.before,
           'after', p.after
         ) order by p.at desc, p.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from page p;
  if v_count < p_limit then
    return jsonb_build_object('rows', v_rows, 'next', null);
  end if;
  return jsonb_build_object('rows', v_rows, 'next', jsonb_build_object(
    'before', v_rows -> -1 -> 'at',
    'beforeId', (v_rows -> -1 ->> 'id')::bigint));
end;
$$;

revoke execute on function public.admin_activity(uuid, uuid, uuid, timestamptz, integer, bigint) from public, anon;
grant execute on function public.admin_activity(uuid, uuid, uuid, timestamptz, integer, bigint) to authenticated;
