-- Orders by role (issue 32, docs/decisions/053): owners, managers and budtenders see and move every
-- order; a driver sees only the deliveries assigned to them (orders.driver_id) and may only hand
-- them off (shipped -> delivered, with the ID check), through set_order_status. Who assigns a
-- driver (and how) is another change's; the column is here so the rule can hold from today.

alter table public.orders
  add column driver_id uuid references auth.users (id) on delete set null;

create index orders_driver_idx on public.orders (driver_id, _modified) where driver_id is not null;

-- Whether the caller, as staff, may see an order assigned to p_driver.
create or replace function public.staff_sees_order(p_driver uuid)
returns boolean
language sql
stable
security definer
set search_path = public
as $$
  select case public.staff_role()
    when 'owner' then true
    when 'manager' then true
    when 'budtender' then true
    when 'driver' then p_driver is not distinct from auth.uid() and p_driver is not null
    else false
  end
$$;

revoke execute on function public.staff_sees_order(uuid) from public;
grant execute on function public.staff_sees_order(uuid) to authenticated, service_role;

drop policy "orders: admins read all" on public.orders;
drop policy "orders: admins update" on public.orders;
drop policy "order_items: admins read all" on public.order_items;

create policy "orders: staff read theirs"
  on public.orders for select
  to authenticated
  using (public.staff_sees_order(driver_id));

-- A plain PATCH of status, tracking number or estimated delivery (the column grants of
-- 20261122201200) is the counter's; a driver goes through set_order_status.
create policy "orders: counter staff update"
  on public.orders for update
  to authenticated
  using (public.staff_role() in ('owner', 'manager', 'budtender'))
  with check (public.staff_role() in ('owner', 'manager', 'budtender'));

create policy "order_items: staff read theirs"
  on public.order_items for select
  to authenticated
  using (exists (
    select 1 from public.orders o
     where o.id = order_items.order_id and public.staff_sees_order(o.driver_id)
  ));

-- pull_orders_admin_page (pull_orders_admin wraps it with read_at, 20261123090000): any staff
-- member; a driver gets their own deliveries. Otherwise 20261122202400's body.
create or replace function public.pull_orders_admin_page(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_limit integer := least(greatest(coalesce(max_rows, 200), 1), 2000);
  v_after_id uuid := coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid);
  v_role text := public.staff_role();
  -- A driver's device holds their own deliveries; any other order reaches it as a tombstone, so
  -- a delivery assigned to someone else leaves the device it was on.
  v_driver uuid := case when v_role = 'driver' then auth.uid() end;
begin
  if v_role is null and auth.role() is distinct from 'service_role' then
    raise exception 'Staff privileges required' using errcode = '42501';
  end if;
  return (
    with ahead as (
      select o.id from orders o
      where (after_modified is null or (o._modified, o.id) > (after_modified, v_after_id))
        and (v_driver is null or after_modified is not null or o.driver_id = v_driver)
      order by o._modified, o.id
      limit v_limit
    ),
    behind as (
      select o.id from orders o
      where behind_from is not null and after_modified is not null
        and o._modified >= behind_from
        and (o._modified, o.id) <= (after_modified, v_after_id)
      order by o._modified, o.id
      limit v_limit
    ),
    docs as (
      select k.part, o.id, o._modified,
        case when not o._deleted and (v_driver is null or o.driver_id = v_driver) then
          public.order_document(o) || jsonb_build_object(
            '_modified', to_char(o._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            '_deleted', false)
        else
          jsonb_build_object(
            'id', o.id,
            '_modified', to_char(o._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            '_deleted', true)
        end as doc
      from (select 'rows' as part, id from ahead union all select 'behind' as part, id from behind) k
      join orders o on o.id = k.id
    )
    select jsonb_build_object(
      'rows', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'rows'), '[]'::jsonb),
      'behind', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'behind'), '[]'::jsonb)
    )
  );
end;
$$;

revoke execute on function public.pull_orders_admin_page(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;

-- set_order_status: only who may call it changed; otherwise 20261128100400's body.
create or replace function public.set_order_status(
  p_id uuid,
  p_from text,
  p_to text,
  p_id_checked boolean default false,
  p_id_number text default null,
  p_mmic_checked boolean default false
)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_role text;
  v_order public.orders;
  v_short text;
  v_id_hash text;
  v_refusal jsonb;
begin
  -- The service role stands for the shop's own server-side jobs (and the seed). Owners, managers
  -- and budtenders move every order; a driver only hands off the deliveries assigned to them.
  v_role := public.staff_role();
  if v_role is null and auth.role() is distinct from 'service_role' then
    raise exception 'Staff privileges required' using errcode = '42501';
  end if;
  if p_to is null or p_to not in ('pending', 'processing', 'shipped', 'delivered', 'cancelled') then
    raise exception 'Unknown order status: %', coalesce(p_to, 'null') using errcode = '22023';
  end if;
  if p_id_number is not null and length(p_id_number) > 64 then
    raise exception 'ID number is too long (at most 64 characters)' using errcode = '22023';
  end if;

  select * into v_order from public.orders where id = p_id and not _deleted for update;
  if v_role = 'driver' and (
    not found or v_order.driver_id is distinct from auth.uid()
    or p_from is distinct from 'shipped' or p_to <> 'delivered'
  ) then
    raise exception 'Drivers can only hand off the deliveries assigned to them' using errcode = '42501';
  end if;
  if not found then
    raise exception 'Order % not found', p_id using errcode = '22023';
  end if;

  if v_order.status is distinct from p_from then
    return public.set_status_answer(false, null, null, v_order);
  end if;
  if p_to <> v_order.status then
    if v_order.status = 'cancelled' and v_order.stock_restored then
      -- Reopening takes the stock again (take_stock_on_reopen); without it, say so.
      select p.name into v_short
        from public.order_items i join public.products p on p.id = i.product_id
       where i.order_id = v_order.id and i.stock_decremented
         and coalesce(p.quantity_available, 0) < i.quantity
       order by p.id
       limit 1
         for update of p;
      if v_short is not null then
        return public.set_status_answer(false, 'out_of_stock',
          v_short || ' is no longer in stock for this order.', v_order);
      end if;
    end if;
    if p_to = 'delivered' then
      if p_id_checked is not true then
        return public.set_status_answer(false, 'id_check_required',
          'Confirm "ID checked (21+)" before handing over the order.', v_order);
      end if;
      v_id_hash := private.id_number_hash(p_id_number);
      -- The same person's orders may be handed over at two counters at once: take turns.
      if v_id_hash is not null then
        perform pg_advisory_xact_lock(hashtextextended('humo.person:id:' || v_id_hash, 0));
      end if;
      v_refusal := public.handoff_refusal(v_order, v_id_hash, p_mmic_checked);
      if v_refusal is not null then
        return public.set_status_answer(false, v_refusal ->> 'reason', v_refusal ->> 'message', v_order);
      end if;
    end if;
    -- For this one update only: the status trigger checks it and records the checks.
    perform set_config('humo.id_checked', case when p_to = 'delivered' then 'on' else '' end, true);
    perform set_config('humo.mmic_checked', case when p_to = 'delivered' and p_mmic_checked then 'on' else '' end, true);
    update public.orders
       set status = p_to,
           id_number_hash = coalesce(v_id_hash, id_number_hash),
           mmic_checked = case when p_to = 'delivered' then mmic_number is not null and p_mmic_checked is true
                               else mmic_checked end
     where id = p_id
    returning * into v_order;
    perform set_config('humo.id_checked', '', true);
    perform set_config('humo.mmic_checked', '', true);
  end if;
  return public.set_status_answer(true, null, null, v_order);
end;
$$;

revoke execute on function public.set_order_status(uuid, text, text, boolean, text, boolean) from public, anon;
grant execute on function public.set_order_status(uuid, text, text, boolean, text, boolean) to authenticated, service_role;
