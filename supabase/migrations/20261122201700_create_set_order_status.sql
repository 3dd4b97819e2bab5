-- set_order_status(p_id, p_from, p_to): an admin's status change as a compare-and-set, for staff
-- devices that change statuses offline and push later. The change applies only if the order is
-- still in the status the device saw (p_from); otherwise nothing changes and the current order
-- comes back, so the device can show the staff member what happened instead of overwriting a
-- colleague's change silently. The history entry and the stock given back on cancellation come
-- from the orders status trigger, the same path as an admin PATCH through the REST API.
-- The order comes back as a pull_orders_admin row (with _modified and _deleted), so the device
-- can store it as the new master state.

create or replace function public.set_order_status(p_id uuid, p_from text, p_to text)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_order public.orders;
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
    update public.orders set status = p_to where id = p_id returning * into v_order;
  end if;
  return jsonb_build_object('applied', true, 'order', public.order_document(v_order) || jsonb_build_object(
    '_modified', to_char(v_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    '_deleted', false));
end;
$$;

revoke execute on function public.set_order_status(uuid, text, text) from public;
grant execute on function public.set_order_status(uuid, text, text) to authenticated, service_role;
