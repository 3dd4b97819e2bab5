-- Unpaid orders cannot hold stock forever (issue 23, finding 4; decision 026). place_order takes
-- stock the moment an order is placed, and nothing is paid until handoff, so one junk order could
-- keep the last units from every other shopper until someone noticed. A pending order staff have
-- not accepted (moved out of 'pending') within shop_settings.unaccepted_order_hours OPENING hours
-- is cancelled by cancel_unaccepted_orders(), through the same update as a staff cancel: the status
-- trigger gives the stock back and records the history, the order's Realtime topic, the change
-- feed and the admins' devices hear it as they hear any cancel. The history entry carries the
-- reason, which the shopper sees on their order page and on Track Order.
--
-- Opening hours, not clock hours: an order placed at 7:55 PM, five minutes before closing, is
-- still there when staff open the next morning. A week with no opening hours counts clock hours.
--
-- Who runs it: the embedded server every minute (supabase/local/ops/unaccepted-orders.ts). On hosted
-- Supabase, pg_cron: when the extension is enabled this migration schedules it every 5 minutes
-- itself; enabled later, run once in the SQL editor:
--   select cron.schedule('humo-cancel-unaccepted-orders', '*/5 * * * *',
--                        'select public.cancel_unaccepted_orders()');

-- shop_settings: how many opening hours staff have to accept an order ----------------------------
alter table public.shop_settings
  -- 12 opening hours is more than a whole weekday (9:00 AM-8:00 PM) of the default week: staff
  -- see an evening order the next morning and still have the day to accept it.
  add column unaccepted_order_hours integer not null default 12
    constraint shop_settings_unaccepted_order_hours_range check (unaccepted_order_hours between 1 and 168);

-- The document gains unaccepted_order_hours; the rest is 20261125100000_create_order_lifecycle.sql.
create or replace function public.shop_settings_document(p_row public.shop_settings)
returns jsonb
language sql
stable
set search_path = public
as $$
  select jsonb_build_object(
    'id', p_row.id,
    'tax_rate', p_row.tax_rate,
    'standard_shipping', p_row.standard_shipping,
    'express_delivery', p_row.express_delivery,
    'free_shipping_threshold', p_row.free_shipping_threshold,
    'facts', p_row.facts,
    'opening_hours', p_row.opening_hours,
    'pickup_prep_minutes', p_row.pickup_prep_minutes,
    'pickup_slot_minutes', p_row.pickup_slot_minutes,
    'order_emails', p_row.order_emails,
    'unaccepted_order_hours', p_row.unaccepted_order_hours,
    'updated_at', p_row.updated_at,
    '_modified', to_char(p_row._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    '_deleted', p_row._deleted
  )
$$;

revoke execute on function public.shop_settings_document(public.shop_settings) from public, anon, authenticated;

-- admin_save_shop_settings gains the optional unacceptedOrderHours (left out: the stored value
-- stays, so an older admin device's save does not reset it). Rather than a third copy of its body,
-- the previous version moves to the private schema and this one wraps it.
alter function public.admin_save_shop_settings(jsonb) set schema private;
revoke execute on function private.admin_save_shop_settings(jsonb) from public, anon, authenticated;

create or replace function public.admin_save_shop_settings(p_settings jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_value jsonb := case when jsonb_typeof(p_settings) = 'object' then p_settings -> 'unacceptedOrderHours' end;
  v_hours integer;
  v_row public.shop_settings;
begin
  if v_value is not null and jsonb_typeof(v_value) <> 'null' then
    if jsonb_typeof(v_value) <> 'number' or (v_value #>> '{}')::numeric not between 1 and 168 then
      raise exception 'Time to accept an order must be between 1 and 168 opening hours' using errcode = '22023';
    end if;
    if (v_value #>> '{}')::numeric <> trunc((v_value #>> '{}')::numeric) then
      raise exception 'Time to accept an order must be a whole number of hours' using errcode = '22023';
    end if;
    v_hours := (v_value #>> '{}')::integer;
  end if;
  -- Checks the caller is an admin and saves everything else.
  perform private.admin_save_shop_settings(p_settings);
  update public.shop_settings
     set unaccepted_order_hours = coalesce(v_hours, unaccepted_order_hours)
   where id = 'shop'
  returning * into v_row;
  return public.shop_settings_document(v_row);
end;
$$;

revoke execute on function public.admin_save_shop_settings(jsonb) from public;
grant execute on function public.admin_save_shop_settings(jsonb) to authenticated, service_role;

-- A reason on a status change ----------------------------------------------------------------------
-- Whoever changes a status with a reason sets humo.status_reason for that one update (as
-- set_order_status does with humo.id_checked); this trigger, named to run after
-- orders_on_status_change has appended the history entry, adds the reason to that entry, so the
-- Realtime broadcast that follows carries it too.
create or replace function public.on_order_status_reason()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  v_reason text := nullif(current_setting('humo.status_reason', true), '');
  v_last integer;
begin
  if v_reason is null or new.status is not distinct from old.status
     or jsonb_typeof(new.status_history) is distinct from 'array' then
    return new;
  end if;
  v_last := jsonb_array_length(new.status_history) - 1;
  if v_last >= 0 and new.status_history -> v_last ->> 'status' = new.status then
    new.status_history := jsonb_set(
      new.status_history,
      array[v_last::text],
      (new.status_history -> v_last) || jsonb_build_object('reason', left(v_reason, 300))
    );
  end if;
  return new;
end;
$$;

revoke execute on function public.on_order_status_reason() from public, anon, authenticated;

create trigger orders_status_reason
  before update of status on public.orders
  for each row execute function public.on_order_status_reason();

-- The shopper's history keeps the reason (still never who made the change).
create or replace function public.order_shopper_history(p_history jsonb)
returns jsonb
language sql
immutable
set search_path = public
as $$
  select coalesce(
    jsonb_agg(
      jsonb_strip_nulls(jsonb_build_object(
        'status', e.entry -> 'status',
        'at', e.entry -> 'at',
        'idChecked', e.entry -> 'idChecked',
        'reason', e.entry -> 'reason'
      ))
      order by e.n
    ),
    '[]'::jsonb
  )
  from jsonb_array_elements(case when jsonb_typeof(p_history) = 'array' then p_history else '[]'::jsonb end)
    with ordinality as e (entry, n)
$$;

revoke execute on function public.order_shopper_history(jsonb) from public, anon, authenticated;

-- Opening minutes between two instants --------------------------------------------------------------
-- How many minutes of [p_from, p_to) the shop was open by p_hours (shop_settings.opening_hours:
-- seven entries, Sunday first, in America/Los_Angeles). Clock minutes when the week has no open
-- day (or the hours are not valid), so such a shop still releases stock. Stops counting once
-- p_enough minutes are reached (the sweep needs no more) and after 400 days.
create or replace function public.shop_open_minutes_between(
  p_from timestamptz,
  p_to timestamptz,
  p_hours jsonb,
  p_enough numeric default null
)
returns numeric
language plpgsql
stable
set search_path = public
as $$
declare
  v_day date;
  v_last date;
  v_entry jsonb;
  v_open timestamptz;
  v_close timestamptz;
  v_total numeric := 0;
begin
  if p_from is null or p_to is null or p_to <= p_from then
    return 0;
  end if;
  if not public.shop_opening_hours_valid(p_hours)
     or not exists (select 1 from jsonb_array_elements(p_hours) as d (day) where jsonb_typeof(d.day) = 'object') then
    return extract(epoch from p_to - p_from) / 60;
  end if;
  v_day := (p_from at time zone 'America/Los_Angeles')::date;
  v_last := least((p_to at time zone 'America/Los_Angeles')::date, v_day + 400);
  while v_day <= v_last loop
    v_entry := p_hours -> extract(dow from v_day)::integer;
    if jsonb_typeof(v_entry) = 'object' then
      -- "24:00" is a valid time in Postgres: midnight at the end of the day.
      v_open := (v_day + (v_entry ->> 'open')::time) at time zone 'America/Los_Angeles';
      v_close := (v_day + (v_entry ->> 'close')::time) at time zone 'America/Los_Angeles';
      v_total := v_total + greatest(0, extract(epoch from least(v_close, p_to) - greatest(v_open, p_from)) / 60);
      if p_enough is not null and v_total >= p_enough then
        return v_total;
      end if;
    end if;
    v_day := v_day + 1;
  end loop;
  return v_total;
end;
$$;

revoke execute on function public.shop_open_minutes_between(timestamptz, timestamptz, jsonb, numeric) from public, anon, authenticated;

-- What the shopper reads on a cancelled order. True for every order the shop takes: payment is
-- at pickup or on delivery (decision 019), so nothing was ever charged.
create or replace function public.unaccepted_order_reason(p_hours integer)
returns text
language sql
immutable
set search_path = public
as $$
  select 'The shop did not confirm this order within ' || p_hours
      || case when p_hours = 1 then ' opening hour' else ' opening hours' end
      || ', so it was cancelled automatically and its items were released. Nothing was charged.'
$$;

revoke execute on function public.unaccepted_order_reason(integer) from public, anon, authenticated;

create index if not exists orders_pending_created_idx
  on public.orders (created_at) where status = 'pending' and not _deleted;

-- cancel_unaccepted_orders(): cancels every pending order older than the shop's allowance in
-- opening hours; returns how many. Each cancel is the plain status update a staff cancel makes
-- (compare-and-set on 'pending', so an order staff accept at the same moment stays accepted).
create or replace function public.cancel_unaccepted_orders()
returns integer
language plpgsql
security definer
set search_path = public
as $$
declare
  v_settings public.shop_settings;
  v_order record;
  v_count integer := 0;
  v_reason text;
begin
  -- No grant lets anon or authenticated call it; this says so again should a grant slip in. The
  -- server's timer and pg_cron call it with no request claims at all.
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'Only the shop''s server cancels unaccepted orders' using errcode = '42501';
  end if;
  select * into v_settings from public.shop_settings where id = 'shop';
  if not found then
    return 0;
  end if;
  v_reason := public.unaccepted_order_reason(v_settings.unaccepted_order_hours);
  for v_order in
    select o.id, o.created_at
      from public.orders o
     -- Opening minutes never exceed clock minutes: only orders this old can qualify.
     where o.status = 'pending'
       and not o._deleted
       and o.created_at <= now() - make_interval(hours => v_settings.unaccepted_order_hours)
     order by o.created_at
     limit 500
  loop
    if public.shop_open_minutes_between(
         v_order.created_at, now(), v_settings.opening_hours, v_settings.unaccepted_order_hours * 60
       ) >= v_settings.unaccepted_order_hours * 60 then
      perform set_config('humo.status_reason', v_reason, true);
      update public.orders set status = 'cancelled'
       where id = v_order.id and status = 'pending' and not _deleted;
      if found then
        v_count := v_count + 1;
      end if;
      perform set_config('humo.status_reason', '', true);
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function public.cancel_unaccepted_orders() from public, anon, authenticated;
grant execute on function public.cancel_unaccepted_orders() to service_role;

-- Hosted Supabase with pg_cron enabled: schedule it here (the embedded server has no pg_cron and
-- runs it on its own timer instead).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    execute $cron$select cron.schedule('humo-cancel-unaccepted-orders', '*/5 * * * *',
      'select public.cancel_unaccepted_orders()')$cron$;
  end if;
end;
$$;

notify pgrst, 'reload schema';
