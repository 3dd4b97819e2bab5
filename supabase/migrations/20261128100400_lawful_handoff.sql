-- The handoff of a lawful sale (issue 31; docs/decisions/051): staff record the buyer's ID
-- document number (kept only as a keyed hash) with the ID check, and confirm the MMIC of a
-- tax-exempt medical order ("MMIC checked"). The server refuses the handoff without them, with an
-- expired card, or when the person's sales of the day (completed and pending, found by email,
-- phone and now the ID number) would pass the day's limit. The order documents carry the taxes
-- line by line and the customer's kind; only staff see the MMIC number.

-- The documents ----------------------------------------------------------------------------------------
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

-- The shopper's document never carries the MMIC number (whoever tracks an order by its number
-- and email must not read it) nor whether staff recorded an ID.
create or replace function public.order_shopper_document(o public.orders)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select (public.order_document(o) - 'mmic' - 'idNumberRecorded') || jsonb_build_object(
    'statusHistory', public.order_shopper_history(o.status_history),
    'channel', 'order:' || o.secret_hash
  )
$$;

revoke execute on function public.order_shopper_document(public.orders) from public, anon, authenticated;

-- The status trigger ------------------------------------------------------------------------------------
-- 20261125100000's trigger, plus: a handoff records when it happened (handed_off_at, the day its
-- grams count) and, when set_order_status confirmed it, the MMIC check in its history entry.
create or replace function public.on_order_status_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  v_entry jsonb;
begin
  if new.status is distinct from old.status then
    v_entry := jsonb_build_object('status', new.status, 'at', clock_timestamp(), 'by', auth.email());
    if new.status = 'delivered' then
      if coalesce(current_setting('humo.id_checked', true), '') <> 'on' then
        raise exception 'Confirm "ID checked (21+)" before handing over the order.' using errcode = 'P0001';
      end if;
      v_entry := v_entry || jsonb_build_object('idChecked', true);
      if coalesce(current_setting('humo.mmic_checked', true), '') = 'on' then
        v_entry := v_entry || jsonb_build_object('mmicChecked', true);
      end if;
      new.handed_off_at := clock_timestamp();
    elsif old.status = 'delivered' then
      new.handed_off_at := null;
    end if;
    new.status_history := coalesce(old.status_history, '[]'::jsonb) || jsonb_build_array(v_entry);
    if new.status = 'cancelled' and not old.stock_restored then
      -- Only lines whose stock place_order actually took (unlimited items took none).
      update public.products p
         set quantity_available = coalesce(p.quantity_available, 0) + i.quantity
        from public.order_items i
       where i.order_id = new.id
         and i.stock_decremented
         and p.id = i.product_id;
      new.stock_restored := true;
    end if;
  end if;
  return new;
end;
$$;

revoke execute on function public.on_order_status_change() from public, anon, authenticated;

-- Why a handoff of p_order cannot go ahead, or null: the rules of the handoff besides the ID check.
create or replace function public.handoff_refusal(
  p_order public.orders,
  p_id_hash text,
  p_mmic_checked boolean
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_today date := public.shop_date();
  v_other jsonb;
  v_reasons jsonb;
begin
  if p_id_hash is null then
    return jsonb_build_object('reason', 'id_number_required',
      'message', 'Enter the number on the buyer''s ID before handing over the order.');
  end if;
  if p_order.sales_tax_exempt then
    if p_mmic_checked is not true then
      return jsonb_build_object('reason', 'mmic_check_required',
        'message', 'Confirm "MMIC checked" before handing over a medical order without sales tax.');
    end if;
    if p_order.mmic_expiry < v_today then
      return jsonb_build_object('reason', 'mmic_expired',
        'message', 'The patient''s MMIC expired on ' || to_char(p_order.mmic_expiry, 'FMMonth FMDD, YYYY')
          || ': this order cannot be handed over without sales tax. Cancel it and place it again.');
    end if;
  end if;
  if p_order.flower_grams > 0 or p_order.concentrate_grams > 0 then
    v_other := public.person_grams_on(v_today, p_order.email_key, p_order.phone_key, p_id_hash, p_order.id);
    v_reasons := public.daily_limit_refusals(v_today, p_order.customer_kind, p_order.flower_grams,
      p_order.concentrate_grams, v_other);
    if jsonb_array_length(v_reasons) > 0 then
      return jsonb_build_object('reason', 'daily_limit',
        'message', 'This buyer''s sales today would pass the daily limit. '
          || replace(replace(v_reasons -> 0 ->> 'message', 'Your orders today already hold', 'Their other sales today hold'),
                     'This order holds', 'This order alone holds')
          || ' Do not hand over this order.');
    end if;
  end if;
  return null;
end;
$$;

revoke execute on function public.handoff_refusal(public.orders, text, boolean) from public, anon, authenticated;

-- set_order_status gains p_id_number and p_mmic_checked; otherwise 20261126134200's body. A call
-- without them (an older device) resolves here too and is refused at a handoff, with the reason.
drop function public.set_order_status(uuid, text, text, boolean);

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
  v_order public.orders;
  v_short text;
  v_id_hash text;
  v_refusal jsonb;
begin
  -- The service role stands for the shop's own server-side jobs (and the seed).
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p_to is null or p_to not in ('pending', 'processing', 'shipped', 'delivered', 'cancelled') then
    raise exception 'Unknown order status: %', coalesce(p_to, 'null') using errcode = '22023';
  end if;
  if p_id_number is not null and length(p_id_number) > 64 then
    raise exception 'ID number is too long (at most 64 characters)' using errcode = '22023';
  end if;

  select * into v_order from public.orders where id = p_id and not _deleted for update;
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

-- set_order_status's answer: applied or not, why, and the order as the board stores it.
create or replace function public.set_status_answer(
  p_applied boolean,
  p_reason text,
  p_message text,
  p_order public.orders
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select jsonb_strip_nulls(jsonb_build_object('applied', p_applied, 'reason', p_reason, 'message', p_message))
    || jsonb_build_object('order', public.order_document(p_order) || jsonb_build_object(
      '_modified', to_char(p_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      '_deleted', false))
$$;

revoke execute on function public.set_status_answer(boolean, text, text, public.orders) from public, anon, authenticated;

-- The tax report ------------------------------------------------------------------------------------------
-- What the shop files with CDTFA for a period: the sales handed over (paid and completed) between
-- two days of the shop's calendar, with their gross receipts, the excise and sales tax collected,
-- the medical sales exempt from sales tax and the local tax passed on. Orders from before the
-- taxes were itemised count their one tax as sales tax.
create or replace function public.admin_tax_report(p_from date, p_to date)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_result jsonb;
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p_from is null or p_to is null or p_to < p_from then
    raise exception 'Choose a period whose end is not before its start' using errcode = '22023';
  end if;
  if p_to - p_from > 400 then
    raise exception 'A tax report covers at most a year' using errcode = '22023';
  end if;
  select jsonb_build_object(
    'from', to_char(p_from, 'YYYY-MM-DD'),
    'to', to_char(p_to, 'YYYY-MM-DD'),
    'orders', count(*),
    'grossReceipts', coalesce(sum(o.total - o.tax), 0),
    'cannabisSales', coalesce(sum(c.cannabis), 0),
    'otherSales', coalesce(sum(o.subtotal - c.cannabis), 0),
    'deliveryFees', coalesce(sum(o.shipping), 0),
    'exciseBase', coalesce(sum(o.excise_base), 0),
    'exciseTax', coalesce(sum(o.excise_tax), 0),
    'salesTaxBase', coalesce(sum(o.sales_base), 0),
    'salesTax', coalesce(sum(o.sales_tax), 0),
    'exemptMedicalSales', coalesce(sum(case when o.sales_tax_exempt then c.cannabis else 0 end), 0),
    'exemptMedicalOrders', count(*) filter (where o.sales_tax_exempt),
    'localTax', coalesce(sum(o.local_tax), 0),
    'totalCollected', coalesce(sum(o.total), 0)
  )
  into v_result
  from public.orders o
  cross join lateral (
    select coalesce(sum(i.line_total) filter (where i.is_cannabis), 0) as cannabis
      from public.order_items i where i.order_id = o.id and not i._deleted
  ) c
  where o.status = 'delivered'
    and not o._deleted
    and public.shop_date(o.handed_off_at) between p_from and p_to;
  return v_result;
end;
$$;

revoke execute on function public.admin_tax_report(date, date) from public, anon;
grant execute on function public.admin_tax_report(date, date) to authenticated, service_role;
