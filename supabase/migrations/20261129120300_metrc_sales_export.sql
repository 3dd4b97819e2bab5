-- "Metrc sales" for a day (issue 32, docs/decisions/054): the completed sales and the returns of
-- one day of the shop's calendar, as receipts by Metrc package, for the CSV the admin imports into
-- Metrc (src/features/admin/metrc/ writes it in the layout the decision records). Staff only: the
-- receipts carry patients' MMIC numbers and where deliveries went.
--
-- A sale's receipt is an order handed over that day: its cannabis lines (Metrc tracks nothing
-- else) with the package each was sold from, the quantity in the package's unit and the price
-- before tax and after discounts; the customer type and, for a medical sale, the MMIC number; a
-- delivery also where it was completed. A return's receipt is a return recorded that day: its
-- cannabis lines with negative quantities and amounts, from the package they were sold from.
--
-- Exports are recorded (metrc_exports): the dashboard says when a completed day has receipts
-- recorded after its last export, or none.

create table public.metrc_exports (
  id uuid primary key default gen_random_uuid(),
  day date not null,
  exported_at timestamptz not null default clock_timestamp(),
  exported_by text,
  receipts integer not null check (receipts >= 0)
);

create index metrc_exports_day_idx on public.metrc_exports (day, exported_at);

alter table public.metrc_exports enable row level security;
create policy "metrc_exports: admins read all" on public.metrc_exports
  for select to authenticated using (public.is_admin());
revoke insert, update, delete, truncate on public.metrc_exports from anon, authenticated;

-- The receipts of p_day, each with the instant it was completed (for "exported since"). Internal.
create or replace function public.metrc_receipts_of(p_day date)
returns table (event_at timestamptz, receipt jsonb)
language sql
stable
security definer
set search_path = public
as $$
  select o.handed_off_at,
    jsonb_build_object(
      'kind', 'sale',
      'orderId', o.id,
      'receiptNumber', upper(left(o.id::text, 8)),
      'salesDateTime', to_char(o.handed_off_at at time zone 'America/Los_Angeles', 'YYYY-MM-DD"T"HH24:MI:SS'),
      'customerType', case when o.customer_kind = 'medical' then 'Patient' else 'Consumer' end,
      'patientLicenseNumber', case when o.customer_kind = 'medical' then o.mmic_number end,
      'fulfilment', o.fulfilment,
      'recipient', case when o.fulfilment = 'delivery' then jsonb_build_object(
        'city', o.shipping_address ->> 'city',
        'county', nullif(trim(coalesce(o.shipping_address ->> 'county', '')), ''),
        'postalCode', o.shipping_address ->> 'zipCode'
      ) end,
      'lines', coalesce((
        select jsonb_agg(jsonb_build_object(
          'productName', i.product_name,
          'packageLabel', i.metrc_package_tag,
          'quantity', round(i.quantity * i.metrc_unit_quantity, 4),
          'unitOfMeasure', i.metrc_unit,
          'totalAmount', public.order_line_net(i.line_total, o.subtotal, o.discount)
        ) order by i.line_number, i.id)
        from public.order_items i
        where i.order_id = o.id and not i._deleted and i.is_cannabis
      ), '[]'::jsonb)
    )
  from public.orders o
  where o.status = 'delivered' and not o._deleted and o.handed_off_at is not null
    and public.shop_date(o.handed_off_at) = p_day
    and exists (select 1 from public.order_items i where i.order_id = o.id and not i._deleted and i.is_cannabis)
  union all
  select r.returned_at,
    jsonb_build_object(
      'kind', 'return',
      'orderId', o.id,
      'receiptNumber', upper(left(o.id::text, 8)) || '-R' || (
        select count(*) from public.order_returns e
         where e.order_id = r.order_id and (e.returned_at, e.id) <= (r.returned_at, r.id)),
      'salesDateTime', to_char(r.returned_at at time zone 'America/Los_Angeles', 'YYYY-MM-DD"T"HH24:MI:SS'),
      'customerType', case when o.customer_kind = 'medical' then 'Patient' else 'Consumer' end,
      'patientLicenseNumber', case when o.customer_kind = 'medical' then o.mmic_number end,
      'fulfilment', o.fulfilment,
      'recipient', null,
      'reason', r.reason,
      'lines', (
        select jsonb_agg(jsonb_build_object(
          'productName', l.product_name,
          'packageLabel', l.metrc_package_tag,
          'quantity', -round(l.quantity * l.metrc_unit_quantity, 4),
          'unitOfMeasure', l.metrc_unit,
          'totalAmount', -l.amount
        ) order by l.id)
        from public.order_return_lines l
        where l.return_id = r.id and l.is_cannabis
      )
    )
  from public.order_returns r
  join public.orders o on o.id = r.order_id
  where r.return_day = p_day
    and exists (select 1 from public.order_return_lines l where l.return_id = r.id and l.is_cannabis)
$$;

revoke execute on function public.metrc_receipts_of(date) from public, anon, authenticated;

create or replace function public.admin_metrc_sales(p_day date)
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
  if p_day is null then
    raise exception 'Choose the day to export' using errcode = '22023';
  end if;
  if p_day > public.shop_date() then
    raise exception 'No sales yet on %: choose today or an earlier day', p_day using errcode = '22023';
  end if;
  return jsonb_build_object(
    'day', to_char(p_day, 'YYYY-MM-DD'),
    'complete', p_day < public.shop_date(),
    'receipts', coalesce((
      select jsonb_agg(r.receipt order by r.event_at, r.receipt ->> 'receiptNumber')
        from public.metrc_receipts_of(p_day) r
    ), '[]'::jsonb),
    'lastExport', (
      select jsonb_build_object('at', public.iso_instant(e.exported_at), 'by', e.exported_by, 'receipts', e.receipts)
        from public.metrc_exports e where e.day = p_day
       order by e.exported_at desc limit 1
    )
  );
end;
$$;

revoke execute on function public.admin_metrc_sales(date) from public, anon;
grant execute on function public.admin_metrc_sales(date) to authenticated, service_role;

-- Records that p_day's receipts were exported (the CSV was downloaded), as they stand now.
create or replace function public.admin_mark_metrc_exported(p_day date)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_count integer;
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p_day is null or p_day > public.shop_date() then
    raise exception 'Choose today or an earlier day' using errcode = '22023';
  end if;
  select count(*) into v_count from public.metrc_receipts_of(p_day);
  insert into public.metrc_exports (day, exported_by, receipts) values (p_day, auth.email(), v_count);
  return jsonb_build_object('day', to_char(p_day, 'YYYY-MM-DD'), 'receipts', v_count);
end;
$$;

revoke execute on function public.admin_mark_metrc_exported(date) from public, anon;
grant execute on function public.admin_mark_metrc_exported(date) to authenticated, service_role;

-- The completed days (before today, within the last p_days) with receipts not yet exported:
-- never exported, or with a receipt completed after the day's last export.
create or replace function public.admin_metrc_unexported_days(p_days integer default 30)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_today date := public.shop_date();
  v_days integer := least(greatest(coalesce(p_days, 30), 1), 366);
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'receipts', d.receipts) order by d.day)
      from (
        select x.day, count(*) as receipts
          from (
            select public.shop_date(o.handed_off_at) as day, o.handed_off_at as event_at
              from public.orders o
             where o.status = 'delivered' and not o._deleted and o.handed_off_at is not null
               and o.handed_off_at >= (v_today - v_days)::timestamp at time zone 'America/Los_Angeles'
               and exists (select 1 from public.order_items i where i.order_id = o.id and not i._deleted and i.is_cannabis)
            union all
            select r.return_day, r.returned_at
              from public.order_returns r
             where r.return_day >= v_today - v_days
               and exists (select 1 from public.order_return_lines l where l.return_id = r.id and l.is_cannabis)
          ) x
         where x.day < v_today and x.day >= v_today - v_days
           and x.event_at > coalesce((select max(e.exported_at) from public.metrc_exports e where e.day = x.day), '-infinity')
         group by x.day
      ) d
  ), '[]'::jsonb);
end;
$$;

revoke execute on function public.admin_metrc_unexported_days(integer) from public, anon;
grant execute on function public.admin_metrc_unexported_days(integer) to authenticated, service_role;
