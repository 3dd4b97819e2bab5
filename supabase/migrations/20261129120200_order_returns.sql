-- Returns of completed orders (issue 32, docs/decisions/054).
--
-- Staff record a return on a handed-over order: which lines and how many, why, and the money
-- given back. Returned cannabis never goes back on sale (4 CCR §15410(c)): it is held for
-- destruction, counted on the product apart from its stock (products.destruction_held). A
-- non-cannabis line may go back to stock when staff say so.
--
-- For the taxes, a return carries the returned goods' price (after discounts) and the local,
-- excise and sales tax on them, computed with the order's own rates. CDTFA Regulation 1655(a)
-- lets a retailer deduct returned merchandise only when the full price including tax was
-- refunded (less a restocking charge, which Humo does not take): a return whose refund falls short
-- of that is recorded but deducts nothing (full_refund false), the strict reading. The deduction
-- falls in the period of the refund (the return's day), not the sale's.

alter table public.products
  add column destruction_held integer not null default 0
    constraint products_destruction_held_check check (destruction_held >= 0);

create table public.order_returns (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id),
  reason text not null check (length(reason) between 1 and 500),
  refund numeric(10, 2) not null check (refund >= 0),
  -- The refund covers the returned goods' full price with their taxes (Regulation 1655(a)).
  full_refund boolean not null,
  -- The returned goods' price after discounts, all of it and the cannabis in it, and their taxes.
  goods numeric(10, 2) not null check (goods >= 0),
  cannabis numeric(10, 2) not null check (cannabis >= 0),
  local_tax numeric(10, 2) not null default 0,
  excise_tax numeric(10, 2) not null default 0,
  sales_tax numeric(10, 2) not null default 0,
  returned_at timestamptz not null default clock_timestamp(),
  return_day date not null,
  recorded_by text
);

create index order_returns_order_idx on public.order_returns (order_id);
create index order_returns_day_idx on public.order_returns (return_day);

create table public.order_return_lines (
  id uuid primary key default gen_random_uuid(),
  return_id uuid not null references public.order_returns (id) on delete cascade,
  order_item_id uuid not null references public.order_items (id),
  product_id uuid references public.products (id) on delete set null,
  product_name text not null,
  quantity integer not null check (quantity between 1 and 999),
  is_cannabis boolean not null,
  -- Back on sale (non-cannabis only) or, for cannabis, held for destruction.
  restocked boolean not null default false check (not (restocked and is_cannabis)),
  amount numeric(10, 2) not null check (amount >= 0),
  metrc_package_tag text,
  metrc_unit text,
  metrc_unit_quantity numeric(14, 6)
);

create index order_return_lines_return_idx on public.order_return_lines (return_id);
create index order_return_lines_item_idx on public.order_return_lines (order_item_id);

alter table public.order_returns enable row level security;
alter table public.order_return_lines enable row level security;
create policy "order_returns: admins read all" on public.order_returns
  for select to authenticated using (public.is_admin());
create policy "order_return_lines: admins read all" on public.order_return_lines
  for select to authenticated using (public.is_admin());
revoke insert, update, delete, truncate on public.order_returns, public.order_return_lines from anon, authenticated;

-- A line's price after the order's discount (spread over the lines by their value).
create or replace function public.order_line_net(p_line_total numeric, p_subtotal numeric, p_discount numeric)
returns numeric
language sql
immutable
set search_path = public
as $$
  select round(p_line_total - case when coalesce(p_subtotal, 0) > 0
                                   then coalesce(p_discount, 0) * p_line_total / p_subtotal else 0 end, 2)
$$;

revoke execute on function public.order_line_net(numeric, numeric, numeric) from public, anon, authenticated;

-- The order's returns, for its detail dialog: each with its lines, and how many of each line
-- can still be returned.
create or replace function public.admin_order_returns(p_order uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if not exists (select 1 from public.orders where id = p_order and not _deleted) then
    raise exception 'Order % not found', p_order using errcode = '22023';
  end if;
  return jsonb_build_object(
    'returns', coalesce((
      select jsonb_agg(jsonb_build_object(
        'id', r.id, 'reason', r.reason, 'refund', r.refund, 'fullRefund', r.full_refund,
        'returnedAt', public.iso_instant(r.returned_at), 'recordedBy', r.recorded_by,
        'lines', (select jsonb_agg(jsonb_build_object(
                   'itemId', l.order_item_id, 'name', l.product_name, 'quantity', l.quantity,
                   'isCannabis', l.is_cannabis, 'restocked', l.restocked, 'amount', l.amount)
                   order by l.id)
                  from public.order_return_lines l where l.return_id = r.id)
      ) order by r.returned_at, r.id)
      from public.order_returns r where r.order_id = p_order
    ), '[]'::jsonb),
    'returnable', coalesce((
      select jsonb_agg(jsonb_build_object(
        'itemId', i.id, 'name', i.product_name, 'isCannabis', i.is_cannabis, 'sold', i.quantity,
        'returnable', i.quantity - coalesce((select sum(l.quantity) from public.order_return_lines l
                                              where l.order_item_id = i.id), 0))
        order by i.line_number, i.id)
      from public.order_items i where i.order_id = p_order and not i._deleted
    ), '[]'::jsonb),
    'refundable', (
      select o.total - coalesce((select sum(r.refund) from public.order_returns r where r.order_id = o.id), 0)
        from public.orders o where o.id = p_order
    )
  );
end;
$$;

revoke execute on function public.admin_order_returns(uuid) from public, anon;
grant execute on function public.admin_order_returns(uuid) to authenticated, service_role;

-- Records a return: p_lines is [{ "itemId": uuid, "quantity": n, "restock": bool }]. Only a
-- handed-over order; at most what was sold less what was returned before; restock only for
-- non-cannabis; a refund at most what the customer paid less what was refunded before.
create or replace function public.admin_record_return(
  p_order uuid,
  p_lines jsonb,
  p_reason text,
  p_refund numeric
)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_order public.orders;
  v_return_id uuid := gen_random_uuid();
  v_line jsonb;
  v_item public.order_items;
  v_item_id uuid;
  v_quantity numeric;
  v_restock boolean;
  v_returned integer;
  v_seen uuid[] := '{}';
  v_cannabis numeric := 0;
  v_other numeric := 0;
  v_amount numeric;
  v_refunded numeric;
  v_taxes jsonb;
  v_rate jsonb;
  v_local numeric := 0;
  v_excise numeric := 0;
  v_sales numeric := 0;
  v_due numeric;
  v_reason text := trim(coalesce(p_reason, ''));
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if v_reason = '' then
    raise exception 'Say why the goods came back (the reason is required)' using errcode = '22023';
  end if;
  if length(v_reason) > 500 then
    raise exception 'The reason is too long (at most 500 characters)' using errcode = '22023';
  end if;
  if p_refund is null or p_refund < 0 or p_refund <> round(p_refund, 2) then
    raise exception 'The refund must be an amount in dollars and cents, 0 or more' using errcode = '22023';
  end if;
  if p_lines is null or jsonb_typeof(p_lines) <> 'array' or jsonb_array_length(p_lines) = 0 then
    raise exception 'Choose at least one line to return' using errcode = '22023';
  end if;
  if jsonb_array_length(p_lines) > 200 then
    raise exception 'A return has at most 200 lines' using errcode = '22023';
  end if;

  select * into v_order from public.orders where id = p_order and not _deleted for update;
  if not found then
    raise exception 'Order % not found', p_order using errcode = '22023';
  end if;
  if v_order.status <> 'delivered' then
    raise exception 'Only a completed (handed over) order can take a return; this one is %', v_order.status
      using errcode = '22023';
  end if;
  select coalesce(sum(refund), 0) into v_refunded from public.order_returns where order_id = p_order;
  if p_refund > v_order.total - v_refunded then
    raise exception 'The refund (%) is more than the customer paid less earlier refunds (%)',
      to_char(p_refund, 'FM$999,999,990.00'), to_char(v_order.total - v_refunded, 'FM$999,999,990.00')
      using errcode = '22023';
  end if;

  insert into public.order_returns (id, order_id, reason, refund, full_refund, goods, cannabis, return_day, recorded_by)
  values (v_return_id, p_order, v_reason, p_refund, false, 0, 0, public.shop_date(), auth.email());

  for v_line in select value from jsonb_array_elements(p_lines) loop
    if jsonb_typeof(v_line) <> 'object' or jsonb_typeof(v_line -> 'itemId') is distinct from 'string' then
      raise exception 'Each returned line needs the itemId of a line of the order' using errcode = '22023';
    end if;
    begin
      v_item_id := (v_line ->> 'itemId')::uuid;
    exception when invalid_text_representation then
      raise exception 'Line % is not a line of this order', v_line ->> 'itemId' using errcode = '22023';
    end;
    select * into v_item from public.order_items where id = v_item_id and order_id = p_order and not _deleted;
    if not found then
      raise exception 'Line % is not a line of this order', v_item_id using errcode = '22023';
    end if;
    if v_item_id = any (v_seen) then
      raise exception '% is listed twice in the return', v_item.product_name using errcode = '22023';
    end if;
    v_seen := v_seen || v_item_id;
    if jsonb_typeof(v_line -> 'quantity') is distinct from 'number' then
      raise exception 'Say how many of % came back', v_item.product_name using errcode = '22023';
    end if;
    v_quantity := (v_line ->> 'quantity')::numeric;
    select coalesce(sum(quantity), 0) into v_returned from public.order_return_lines where order_item_id = v_item_id;
    if v_quantity <> trunc(v_quantity) or v_quantity < 1 or v_quantity > v_item.quantity - v_returned then
      raise exception '% can come back 1 to % at a time (% sold, % returned before)', v_item.product_name,
        v_item.quantity - v_returned, v_item.quantity, v_returned using errcode = '22023';
    end if;
    if v_line -> 'restock' is not null and jsonb_typeof(v_line -> 'restock') not in ('boolean', 'null') then
      raise exception 'restock must be true or false' using errcode = '22023';
    end if;
    v_restock := coalesce((v_line ->> 'restock')::boolean, false);
    if v_restock and v_item.is_cannabis then
      raise exception 'Returned cannabis cannot go back on sale (4 CCR §15410): % is held for destruction',
        v_item.product_name using errcode = '22023';
    end if;
    v_amount := round(public.order_line_net(v_item.line_total, v_order.subtotal, v_order.discount)
                      * v_quantity / v_item.quantity, 2);
    if v_item.is_cannabis then
      v_cannabis := v_cannabis + v_amount;
    else
      v_other := v_other + v_amount;
    end if;
    insert into public.order_return_lines (return_id, order_item_id, product_id, product_name, quantity,
      is_cannabis, restocked, amount, metrc_package_tag, metrc_unit, metrc_unit_quantity)
    values (v_return_id, v_item_id, v_item.product_id, v_item.product_name, v_quantity::integer,
      v_item.is_cannabis, v_restock, v_amount, v_item.metrc_package_tag, v_item.metrc_unit,
      v_item.metrc_unit_quantity);
    if v_item.product_id is not null then
      update public.products
         set destruction_held = destruction_held + case when v_item.is_cannabis then v_quantity::integer else 0 end,
             quantity_available = case when v_restock and not is_unlimited_quantity
                                       then coalesce(quantity_available, 0) + v_quantity::integer
                                       else quantity_available end
       where id = v_item.product_id;
    end if;
  end loop;

  -- The returned goods' taxes at the order's own rates (its tax lines); an order from before the
  -- taxes were itemised gives back its one tax in proportion, as sales tax.
  if v_order.tax_lines is not null then
    select jsonb_object_agg(l ->> 'kind', l -> 'rate') into v_rate from jsonb_array_elements(v_order.tax_lines) l;
    v_taxes := public.order_taxes(v_cannabis, v_other, 0, v_order.sales_tax_exempt,
      coalesce((v_rate ->> 'excise')::numeric, 0), coalesce((v_rate ->> 'sales')::numeric, 0),
      coalesce((v_rate ->> 'local')::numeric, 0), '');
    v_local := (v_taxes ->> 'local')::numeric;
    v_excise := (v_taxes ->> 'excise')::numeric;
    v_sales := (v_taxes ->> 'sales')::numeric;
  elsif v_order.subtotal > 0 then
    v_sales := round(v_order.tax * (v_cannabis + v_other) / v_order.subtotal, 2);
  end if;
  v_due := v_cannabis + v_other + v_local + v_excise + v_sales;
  update public.order_returns
     set goods = v_cannabis + v_other,
         cannabis = v_cannabis,
         local_tax = v_local,
         excise_tax = v_excise,
         sales_tax = v_sales,
         full_refund = p_refund >= v_due
   where id = v_return_id;

  return jsonb_build_object(
    'id', v_return_id,
    'orderId', p_order,
    'goods', v_cannabis + v_other,
    'taxes', v_local + v_excise + v_sales,
    'fullPrice', v_due,
    'refund', p_refund,
    'fullRefund', p_refund >= v_due
  );
end;
$$;

revoke execute on function public.admin_record_return(uuid, jsonb, text, numeric) from public, anon;
grant execute on function public.admin_record_return(uuid, jsonb, text, numeric) to authenticated, service_role;

-- The tax report of 20261128100400 with the returns of the period: the returned goods refunded in
-- full (Regulation 1655(a)) are deducted, with the taxes given back on them, in the period of the
-- refund; what is due after returns is said apart from what was collected.
create or replace function public.admin_tax_report(p_from date, p_to date)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_result jsonb;
  v_returns jsonb;
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

  select jsonb_build_object(
    'returns', count(*),
    'refunds', coalesce(sum(r.refund), 0),
    'returnedGoods', coalesce(sum(r.goods) filter (where r.full_refund), 0),
    'returnedCannabis', coalesce(sum(r.cannabis) filter (where r.full_refund), 0),
    'returnedExciseTax', coalesce(sum(r.excise_tax) filter (where r.full_refund), 0),
    'returnedSalesTax', coalesce(sum(r.sales_tax) filter (where r.full_refund), 0),
    'returnedLocalTax', coalesce(sum(r.local_tax) filter (where r.full_refund), 0),
    'returnsNotDeducted', count(*) filter (where not r.full_refund)
  )
  into v_returns
  from public.order_returns r
  where r.return_day between p_from and p_to;

  return v_result || v_returns || jsonb_build_object(
    'exciseTaxDue', (v_result ->> 'exciseTax')::numeric - (v_returns ->> 'returnedExciseTax')::numeric,
    'salesTaxDue', (v_result ->> 'salesTax')::numeric - (v_returns ->> 'returnedSalesTax')::numeric
  );
end;
$$;

revoke execute on function public.admin_tax_report(date, date) from public, anon;
grant execute on function public.admin_tax_report(date, date) to authenticated, service_role;
