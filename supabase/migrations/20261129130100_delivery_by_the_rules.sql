-- Delivery by the rules, part 2: the moves (issue 32; docs/decisions/055-delivery-by-the-rules.md).
--   * "Out for delivery" assigns a driver (a staff member with the Driver role); the orders one
--     driver carries at once stay within driver_load_cap (4 CCR §15418), refused with the
--     driver's current load; moving the order back takes it off the driver.
--   * Assignments and handoffs happen only within handoff_hours_start/end (4 CCR §15403). A
--     handoff made offline on a driver's phone arrives later with the time it was made
--     (p_handed_at, at most 24 hours old, never before the assignment): the rule is applied to
--     that time, and the server's own time is kept in the history beside it.
--   * A delivery is handed over with the customer's signature (a PNG drawn on the driver's phone)
--     and the delivery receipt 4 CCR §15420 asks for, both kept with the order.
--   * A cancel says why (p_reason), which the shopper's pages show through the history entry
--     (humo.status_reason, 20261126100100) and the board through cancel_reason.

alter table public.orders add column if not exists assigned_at timestamptz;
alter table public.orders add column if not exists cancel_reason text;
alter table public.orders add column if not exists delivery_receipt jsonb;
alter table public.orders add column if not exists delivery_signature text;

create index if not exists orders_driver_out_idx on public.orders (driver_id) where status = 'shipped' and not _deleted;

-- The documents ----------------------------------------------------------------------------------------
-- The body of 20261128100400, plus the driver, the cancel reason and the delivery receipt (its
-- signature stays on the server: admin_delivery_receipt gives it to staff who open a receipt).
create or replace function public.order_document(o public.orders)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select jsonb_build_object(
    'id', o.id,
    'status', o.status,
    'customer', jsonb_build_object(
      'email', o.customer_email,
      'firstName', o.customer_first_name,
      'lastName', o.customer_last_name,
      'phone', o.customer_phone
    ),
    'customerName', o.customer_first_name || ' ' || o.customer_last_name,
    'customerEmail', o.customer_email,
    'customerKind', o.customer_kind,
    'fulfilment', o.fulfilment,
    'deliveryMethod', o.delivery_method,
    'shippingAddress', o.shipping_address,
    'billingAddress', o.billing_address,
    'paymentMethod', o.payment_method,
    'cardLast4', o.card_last4,
    'pickupWindow', case when o.pickup_window_start is not null then jsonb_build_object(
      'start', public.iso_instant(o.pickup_window_start),
      'end', public.iso_instant(o.pickup_window_end)
    ) end,
    'subtotal', o.subtotal,
    'tax', o.tax,
    'taxLines', o.tax_lines,
    'salesTaxExempt', o.sales_tax_exempt,
    'shipping', o.shipping,
    'discount', o.discount,
    'total', o.total,
    'mmic', case when o.mmic_number is not null then jsonb_build_object(
      'number', o.mmic_number,
      'expiry', to_char(o.mmic_expiry, 'YYYY-MM-DD'),
      'checked', o.mmic_checked
    ) end,
    'idNumberRecorded', o.id_number_hash is not null,
    'handedOffAt', case when o.handed_off_at is not null then public.iso_instant(o.handed_off_at) end,
    'trackingNumber', o.tracking_number,
    'estimatedDelivery', o.estimated_delivery,
    'statusHistory', o.status_history,
    'createdAt', o.created_at,
    'updatedAt', o.updated_at,
    'cancelReason', o.cancel_reason,
    'driver', (
      select jsonb_build_object('id', p.user_id, 'firstName', p.first_name, 'employeeNumber', p.employee_number)
        from public.user_profiles p where p.user_id = o.driver_id
    ),
    'deliveryReceipt', o.delivery_receipt,
    'signed', o.delivery_signature is not null,
    'items', coalesce((
      select jsonb_agg(
        jsonb_build_object(
          'id', i.id,
          'productId', i.product_id,
          'name', i.product_name,
          'sku', i.sku,
          'unitPrice', i.unit_price,
          'quantity', i.quantity,
          'lineTotal', i.line_total,
          'weightGrams', i.weight_grams,
          'categorySlug', i.category_slug,
          'isCannabis', i.is_cannabis,
          'limitClass', i.limit_class,
          'limitGrams', i.limit_grams
        )
        order by i.line_number, i.id
      )
      from public.order_items i
      where i.order_id = o.id and not i._deleted
    ), '[]'::jsonb)
  )
$$;

revoke execute on function public.order_document(public.orders) from public, anon, authenticated;

-- The shopper's document names no driver and carries no receipt.
create or replace function public.order_shopper_document(o public.orders)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select (public.order_document(o) - 'mmic' - 'idNumberRecorded' - 'driver' - 'deliveryReceipt' - 'signed')
    || jsonb_build_object(
      'statusHistory', public.order_shopper_history(o.status_history),
      'channel', 'order:' || o.secret_hash
    )
$$;

revoke execute on function public.order_shopper_document(public.orders) from public, anon, authenticated;

-- The rules of a move -----------------------------------------------------------------------------------
-- Why p_driver cannot take p_order out now, or null: not a driver, or past the load cap.
create or replace function public.assignment_refusal(p_order public.orders, p_driver uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_role text;
  v_name text;
  v_load numeric;
  v_cap numeric := (public.compliance_rule_on('driver_load_cap', public.shop_date())).value;
begin
  if p_driver is null then
    return jsonb_build_object('reason', 'driver_required',
      'message', 'Choose the driver who takes this order out for delivery.');
  end if;
  select p.role, coalesce(p.first_name, u.email) into v_role, v_name
    from public.user_profiles p join auth.users u on u.id = p.user_id
   where p.user_id = p_driver and not p._deleted;
  if v_role is distinct from 'driver' then
    return jsonb_build_object('reason', 'not_a_driver',
      'message', 'Only a staff member with the Driver role can take an order out for delivery.');
  end if;
  select coalesce(sum(o.total), 0) into v_load
    from public.orders o
   where o.driver_id = p_driver and o.status = 'shipped' and not o._deleted and o.id <> p_order.id;
  if v_cap is not null and v_load + p_order.total > v_cap then
    return jsonb_build_object('reason', 'driver_load_cap',
      'message', v_name || ' already carries ' || public.money_words(v_load) || ' in orders; this one ('
        || public.money_words(p_order.total) || ') would take the load past the '
        || public.money_words(v_cap) || ' a driver may carry at once (4 CCR §15418). Hand off an order first, or choose another driver.');
  end if;
  return null;
end;
$$;

revoke execute on function public.assignment_refusal(public.orders, uuid) from public, anon, authenticated;

-- "$1,234.50"
create or replace function public.money_words(p_amount numeric)
returns text
language sql
immutable
set search_path = public
as $$
  select '$' || btrim(to_char(coalesce(p_amount, 0), 'FM999,999,990.00'))
$$;

revoke execute on function public.money_words(numeric) from public, anon, authenticated;

-- The customer's signature as the driver's phone sends it: a PNG data URL of at most 200,000
-- characters. Null when it is not one.
create or replace function public.signature_png(p_signature text)
returns text
language plpgsql
immutable
set search_path = public
as $$
declare
  v_bytes bytea;
begin
  if p_signature is null or length(p_signature) > 200000
     or p_signature !~ '^data:image/png;base64,[A-Za-z0-9+/]+={0,2}$' then
    return null;
  end if;
  v_bytes := decode(substr(p_signature, 23), 'base64');
  if substr(v_bytes, 1, 8) <> '\x89504e470d0a1a0a'::bytea then
    return null;
  end if;
  return p_signature;
exception when others then
  return null;
end;
$$;

revoke execute on function public.signature_png(text) from public, anon, authenticated;

-- The delivery receipt of 4 CCR §15420 for p_order handed over at p_at.
create or replace function public.delivery_receipt_of(p_order public.orders, p_at timestamptz)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select jsonb_build_object(
    'retailer', jsonb_build_object(
      'name', s.facts ->> 'name',
      'licenceNumber', s.facts ->> 'licenceNumber',
      'address', s.facts -> 'address'),
    'driver', jsonb_build_object('firstName', p.first_name, 'employeeNumber', p.employee_number),
    'customer', jsonb_build_object('firstName', p_order.customer_first_name, 'kind', p_order.customer_kind),
    'requestedAt', public.iso_instant(p_order.created_at),
    'deliveredAt', public.iso_instant(p_at),
    'address', p_order.shipping_address,
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('name', i.product_name, 'quantity', i.quantity,
               'unitPrice', i.unit_price, 'lineTotal', i.line_total) order by i.line_number, i.id)
        from public.order_items i where i.order_id = p_order.id and not i._deleted), '[]'::jsonb),
    'subtotal', p_order.subtotal,
    'shipping', p_order.shipping,
    'discount', p_order.discount,
    'taxLines', p_order.tax_lines,
    'total', p_order.total)
  from public.shop_settings s
  left join public.user_profiles p on p.user_id = p_order.driver_id
  where s.id = 'shop'
$$;

revoke execute on function public.delivery_receipt_of(public.orders, timestamptz) from public, anon, authenticated;

-- Why the move of p_order to p_to cannot go ahead under the delivery and cancel rules, or null.
create or replace function public.delivery_move_refusal(
  p_order public.orders,
  p_to text,
  p_driver uuid,
  p_at timestamptz,
  p_signature text,
  p_reason text
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_hours text;
begin
  if p_to = 'cancelled' then
    if nullif(btrim(coalesce(p_reason, '')), '') is null then
      return jsonb_build_object('reason', 'cancel_reason_required',
        'message', 'Say why the order is cancelled: the shopper reads it.');
    end if;
    return null;
  end if;
  if p_to = 'shipped' and p_order.fulfilment = 'delivery' then
    v_hours := public.handoff_hours_refusal(p_at, 'Deliveries go out');
    if v_hours is not null then
      return jsonb_build_object('reason', 'outside_legal_hours', 'message', v_hours);
    end if;
    return public.assignment_refusal(p_order, coalesce(p_driver, p_order.driver_id));
  end if;
  if p_to = 'delivered' then
    v_hours := public.handoff_hours_refusal(p_at,
      case when p_order.fulfilment = 'pickup' then 'Orders are picked up' else 'Orders are delivered' end);
    if v_hours is not null then
      return jsonb_build_object('reason', 'outside_legal_hours', 'message', v_hours);
    end if;
    if p_order.fulfilment = 'delivery' then
      if p_order.driver_id is null then
        return jsonb_build_object('reason', 'driver_required',
          'message', 'Move the order to "Out for delivery" with its driver before the handoff.');
      end if;
      if not exists (select 1 from public.user_profiles p
                      where p.user_id = p_order.driver_id and p.first_name is not null) then
        return jsonb_build_object('reason', 'driver_name_required',
          'message', 'The driver''s first name is missing: the delivery receipt names the driver (4 CCR §15420). The driver enters it on their phone.');
      end if;
      if public.signature_png(p_signature) is null then
        return jsonb_build_object('reason', 'signature_required',
          'message', 'Ask the customer to sign the delivery receipt before handing over the order.');
      end if;
    end if;
  end if;
  return null;
end;
$$;

revoke execute on function public.delivery_move_refusal(public.orders, text, uuid, timestamptz, text, text) from public, anon, authenticated;

-- When a move reported from a device happened: now, or the time a phone kept it offline (at most
-- 24 hours ago and not before the order's last change).
create or replace function public.reported_move_time(p_order public.orders, p_at timestamptz)
returns timestamptz
language plpgsql
stable
set search_path = public
as $$
begin
  if p_at is null then
    return now();
  end if;
  if p_at > now() + interval '2 minutes' then
    raise exception 'The handoff time is in the future' using errcode = '22023';
  end if;
  return greatest(p_at, now() - interval '24 hours', coalesce(p_order.assigned_at, p_order.created_at));
end;
$$;

revoke execute on function public.reported_move_time(public.orders, timestamptz) from public, anon, authenticated;

-- set_order_status gains p_driver, p_handed_at, p_signature and p_reason; otherwise the body of
-- 20261128100400. A call without them (an older device) resolves here too and is refused where
-- a rule needs them, with the reason.
drop function public.set_order_status(uuid, text, text, boolean, text, boolean);

create or replace function public.set_order_status(
  p_id uuid,
  p_from text,
  p_to text,
  p_id_checked boolean default false,
  p_id_number text default null,
  p_mmic_checked boolean default false,
  p_driver uuid default null,
  p_handed_at timestamptz default null,
  p_signature text default null,
  p_reason text default null
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
  v_at timestamptz;
  v_driver uuid;
begin
  -- The service role stands for the shop's own server-side jobs (and the seed). Owners, managers
  -- and budtenders move every order; a driver only hands off the deliveries assigned to them
  -- (20261129110100).
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
  if p_reason is not null and length(btrim(p_reason)) > 200 then
    raise exception 'The reason is too long (at most 200 characters)' using errcode = '22023';
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
  if p_to = v_order.status then
    return public.set_status_answer(true, null, null, v_order);
  end if;
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
  v_at := case when p_to = 'delivered' then public.reported_move_time(v_order, p_handed_at) else now() end;
  v_driver := case when p_to = 'shipped' and v_order.fulfilment = 'delivery'
                   then coalesce(p_driver, v_order.driver_id) end;
  if v_driver is not null then
    -- Two assignments to one driver at once take turns, so both cannot pass the cap together.
    perform pg_advisory_xact_lock(hashtextextended('humo.driver:' || v_driver, 0));
  end if;
  -- The ID check comes first at a handoff, as it does at the counter or the door.
  if p_to = 'delivered' and p_id_checked is not true then
    return public.set_status_answer(false, 'id_check_required',
      'Confirm "ID checked (21+)" before handing over the order.', v_order);
  end if;
  -- The service role writes the shop's own history (the seed's demo trade), not a move at a
  -- counter or a door: the rules of a move made by staff are not its rules.
  if auth.role() is distinct from 'service_role' then
    v_refusal := public.delivery_move_refusal(v_order, p_to, v_driver, v_at, p_signature, p_reason);
  end if;
  if v_refusal is not null then
    return public.set_status_answer(false, v_refusal ->> 'reason', v_refusal ->> 'message', v_order);
  end if;
  if p_to = 'delivered' then
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
  v_order := public.apply_order_move(v_order, p_to, v_id_hash, p_mmic_checked, v_driver, v_at,
    p_signature, btrim(p_reason));
  return public.set_status_answer(true, null, null, v_order);
end;
$$;

revoke execute on function public.set_order_status(uuid, text, text, boolean, text, boolean, uuid, timestamptz, text, text) from public, anon;
grant execute on function public.set_order_status(uuid, text, text, boolean, text, boolean, uuid, timestamptz, text, text) to authenticated, service_role;

-- The update of a move set_order_status allowed, with what the status triggers record.
create or replace function public.apply_order_move(
  p_order public.orders,
  p_to text,
  p_id_hash text,
  p_mmic_checked boolean,
  p_driver uuid,
  p_at timestamptz,
  p_signature text,
  p_reason text
)
returns public.orders
language plpgsql
security definer
set search_path = public
as $$
declare
  v_order public.orders;
  v_handoff boolean := p_to = 'delivered';
  v_delivery boolean := p_to = 'delivered' and p_order.fulfilment = 'delivery' and p_signature is not null;
begin
  -- For this one update only: the status triggers check them and record them in the history.
  perform set_config('humo.id_checked', case when v_handoff then 'on' else '' end, true);
  perform set_config('humo.mmic_checked', case when v_handoff and p_mmic_checked then 'on' else '' end, true);
  perform set_config('humo.status_reason', case when p_to = 'cancelled' then coalesce(p_reason, '') else '' end, true);
  update public.orders
     set status = p_to,
         id_number_hash = coalesce(p_id_hash, id_number_hash),
         mmic_checked = case when v_handoff then mmic_number is not null and p_mmic_checked is true
                             else mmic_checked end,
         driver_id = case when p_to = 'shipped' and fulfilment = 'delivery' then p_driver
                          when p_to in ('pending', 'processing') then null
                          else driver_id end,
         assigned_at = case when p_to = 'shipped' and fulfilment = 'delivery' then now()
                            when p_to in ('pending', 'processing') then null
                            else assigned_at end,
         cancel_reason = case when p_to = 'cancelled' then p_reason else null end,
         delivery_signature = case when v_delivery then p_signature
                                   when p_to <> 'delivered' then null else delivery_signature end,
         delivery_receipt = case when p_to <> 'delivered' then null else delivery_receipt end
   where id = p_order.id
  returning * into v_order;
  if v_delivery then
    update public.orders set delivery_receipt = public.delivery_receipt_of(v_order, p_at)
     where id = v_order.id
    returning * into v_order;
  end if;
  perform set_config('humo.id_checked', '', true);
  perform set_config('humo.mmic_checked', '', true);
  perform set_config('humo.status_reason', '', true);
  return v_order;
end;
$$;

revoke execute on function public.apply_order_move(public.orders, text, text, boolean, uuid, timestamptz, text, text) from public, anon, authenticated;

-- admin_delivery_receipt(p_id): the receipt of a delivered order with the customer's signature,
-- for staff to open and print.
create or replace function public.admin_delivery_receipt(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_order public.orders;
begin
  if public.staff_role() is null then
    raise exception 'Staff privileges required' using errcode = '42501';
  end if;
  select * into v_order from public.orders where id = p_id and not _deleted;
  if found and not public.staff_sees_order(v_order.driver_id) then
    raise exception 'Drivers can only open the receipts of their own deliveries' using errcode = '42501';
  end if;
  if not found or v_order.delivery_receipt is null then
    raise exception 'No delivery receipt for order %', p_id using errcode = '22023';
  end if;
  return v_order.delivery_receipt || jsonb_build_object('orderId', v_order.id, 'signature', v_order.delivery_signature);
end;
$$;

revoke execute on function public.admin_delivery_receipt(uuid) from public, anon;
grant execute on function public.admin_delivery_receipt(uuid) to authenticated;

-- admin_drivers(): the staff with the Driver role, with what each carries now, for the board's
-- "Out for delivery" choice (the cap and the load as the server counts them).
create or replace function public.admin_drivers()
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
begin
  if public.staff_role() is null or public.staff_role() = 'driver' then
    raise exception 'Only staff at the order board choose drivers' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'cap', (public.compliance_rule_on('driver_load_cap', public.shop_date())).value,
    'drivers', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', p.user_id,
          'firstName', p.first_name,
          'employeeNumber', p.employee_number,
          'email', u.email,
          'load', coalesce((select sum(o.total) from public.orders o
                             where o.driver_id = p.user_id and o.status = 'shipped' and not o._deleted), 0),
          'orders', (select count(*) from public.orders o
                      where o.driver_id = p.user_id and o.status = 'shipped' and not o._deleted)
        ) order by coalesce(p.first_name, u.email))
        from public.user_profiles p join auth.users u on u.id = p.user_id
       where p.role = 'driver' and not p._deleted), '[]'::jsonb));
end;
$$;

revoke execute on function public.admin_drivers() from public, anon;
grant execute on function public.admin_drivers() to authenticated;

-- my_staff_profile(): the signed-in staff member's name and number on receipts.
create or replace function public.my_staff_profile()
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select jsonb_build_object('role', p.role, 'firstName', p.first_name, 'employeeNumber', p.employee_number)
    from public.user_profiles p
   where p.user_id = auth.uid() and not p._deleted and p.role <> 'customer'
$$;

revoke execute on function public.my_staff_profile() from public, anon;
grant execute on function public.my_staff_profile() to authenticated;
