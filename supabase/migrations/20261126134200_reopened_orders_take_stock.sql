-- An order moved out of 'cancelled' takes its stock again (docs/decisions/042). Cancelling gives
-- the stock back (orders_on_status_change, stock_restored), and the board can reopen a cancelled
-- order, but nothing took the stock again: the reopened order's units were sold and back on the
-- shelf at once, so the shop could sell them twice. The sync property test
-- (tests/integration/sync-property) found it with one staff device moving an order to Cancelled
-- and back to Pending.
--
-- Reopening now takes the stock of the lines place_order took it for, and marks the order as
-- holding it again (stock_restored false), so a second cancellation gives it back again. When the
-- stock is no longer there, set_order_status changes nothing and says why (applied false, as for
-- a handoff without the ID check): the device keeps the server's state and tells its person
-- (decision 004's notice) instead of retrying an error forever. The trigger does the same for any
-- other path (an admin's PATCH), with an error.

create or replace function public.take_stock_on_reopen()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  v_short text;
begin
  if old.status = 'cancelled' and new.status is distinct from 'cancelled' and old.stock_restored then
    select p.name into v_short
      from public.order_items i join public.products p on p.id = i.product_id
     where i.order_id = new.id and i.stock_decremented
       and coalesce(p.quantity_available, 0) < i.quantity
     limit 1;
    if v_short is not null then
      raise exception '% is no longer in stock for this order.', v_short using errcode = 'P0001';
    end if;
    update public.products p
       set quantity_available = p.quantity_available - i.quantity
      from public.order_items i
     where i.order_id = new.id
       and i.stock_decremented
       and p.id = i.product_id;
    new.stock_restored := false;
  end if;
  return new;
end;
$$;

revoke execute on function public.take_stock_on_reopen() from public, anon, authenticated;

create trigger orders_reopen_takes_stock
  before update of status on public.orders
  for each row execute function public.take_stock_on_reopen();

create or replace function public.set_order_status(
  p_id uuid,
  p_from text,
  p_to text,
  p_id_checked boolean default false
)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_order public.orders;
  v_short text;
begin
  -- The service role stands for the shop's own server-side jobs (and the seed).
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p_to is null or p_to not in ('pending', 'processing', 'shipped', 'delivered', 'cancelled') then
    raise exception 'Unknown order status: %', coalesce(p_to, 'null') using errcode = '22023';
  end if;

  select * into v_order from public.orders where id = p_id and not _deleted for update;
  if not found then
    raise exception 'Order % not found', p_id using errcode = '22023';
  end if;

  if v_order.status is distinct from p_from then
    return jsonb_build_object('applied', false, 'order', public.order_document(v_order) || jsonb_build_object(
      '_modified', to_char(v_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      '_deleted', false));
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
        return jsonb_build_object(
          'applied', false,
          'reason', 'out_of_stock',
          'message', v_short || ' is no longer in stock for this order.',
          'order', public.order_document(v_order) || jsonb_build_object(
            '_modified', to_char(v_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            '_deleted', false));
      end if;
    end if;
    if p_to = 'delivered' and p_id_checked is not true then
      return jsonb_build_object(
        'applied', false,
        'reason', 'id_check_required',
        'message', 'Confirm "ID checked (21+)" before handing over the order.',
        'order', public.order_document(v_order) || jsonb_build_object(
          '_modified', to_char(v_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', false));
    end if;
    -- For this one update only: the status trigger checks it and records the ID check.
    perform set_config('humo.id_checked', case when p_to = 'delivered' then 'on' else '' end, true);
    update public.orders set status = p_to where id = p_id returning * into v_order;
    perform set_config('humo.id_checked', '', true);
  end if;
  return jsonb_build_object('applied', true, 'order', public.order_document(v_order) || jsonb_build_object(
    '_modified', to_char(v_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    '_deleted', false));
end;
$$;

