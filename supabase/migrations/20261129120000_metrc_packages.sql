-- Sales by Metrc package (issue 32, docs/decisions/054-metrc-sales-export.md).
--
-- A cannabis product carries the Metrc package it is sold from: the package's UID (24 hexadecimal
-- characters starting 1A4, Metrc's own encoding of a tag) and the package's unit of measure. Stock
-- received in a new package changes the product's tag; what each sold line came from is kept on
-- the line itself, written when the order is handed over (a trigger of its own, beside the status
-- trigger), with the quantity of the package's unit one sold unit takes. A cannabis line whose
-- product has no package (or no unit, or a weighed unit without the product's weight) cannot be
-- handed over: handoff_refusal says which product and what to fix.

-- Metrc's units we can report a sold unit in: counted, or weighed from the product's weight.
-- Volume units are left out: the catalogue keeps no volumes (a drink is sold in Each).
create or replace function public.metrc_units()
returns text[]
language sql
immutable
set search_path = public
as $$
  select array['Each', 'Grams', 'Milligrams', 'Kilograms', 'Ounces', 'Pounds']
$$;

revoke execute on function public.metrc_units() from public, anon, authenticated;

-- How many of p_unit one sold unit of a product weighing p_weight_grams is (null: not knowable).
create or replace function public.metrc_unit_quantity(p_unit text, p_weight_grams numeric)
returns numeric
language sql
immutable
set search_path = public
as $$
  select case p_unit
    when 'Each' then 1::numeric
    when 'Grams' then p_weight_grams
    when 'Milligrams' then p_weight_grams * 1000
    when 'Kilograms' then p_weight_grams / 1000
    -- The avoirdupois ounce and pound, exactly.
    when 'Ounces' then p_weight_grams / 28.349523125
    when 'Pounds' then p_weight_grams / 453.59237
  end
$$;

revoke execute on function public.metrc_unit_quantity(text, numeric) from public, anon, authenticated;

alter table public.products
  add column metrc_package_tag text
    constraint products_metrc_package_tag_check check (metrc_package_tag ~ '^1A4[0-9A-F]{21}$'),
  add column metrc_unit text
    constraint products_metrc_unit_check
      check (metrc_unit in ('Each', 'Grams', 'Milligrams', 'Kilograms', 'Ounces', 'Pounds'));

alter table public.order_items
  add column metrc_package_tag text,
  add column metrc_unit text,
  -- Of metrc_unit, for one unit sold (Each: 1; Grams: the product's weight), at the handoff.
  add column metrc_unit_quantity numeric(14, 6);

-- Why a line of p_order cannot be reported to Metrc, or null. Internal.
create or replace function public.metrc_package_refusal(p_order uuid)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select case
    when p.id is null then jsonb_build_object('reason', 'package_tag_missing',
      'message', i.product_name || ' is no longer in the catalogue, so its Metrc package is unknown: '
        || 'this order cannot be handed over.')
    when p.metrc_package_tag is null then jsonb_build_object('reason', 'package_tag_missing',
      'message', p.name || ' has no Metrc package tag. Enter its Metrc package tag in Products '
        || '(edit the product, Metrc package) before handing over this order.')
    when p.metrc_unit is null then jsonb_build_object('reason', 'package_unit_missing',
      'message', p.name || ' has no Metrc unit of measure. Choose its package''s unit in Products '
        || '(edit the product, Metrc package) before handing over this order.')
    when public.metrc_unit_quantity(p.metrc_unit, p.weight_grams) is null
      or public.metrc_unit_quantity(p.metrc_unit, p.weight_grams) <= 0 then jsonb_build_object(
      'reason', 'package_unit_missing',
      'message', p.name || '''s Metrc package is counted in ' || p.metrc_unit
        || ' but the product has no weight. Enter its weight in Products before handing over this order.')
  end
  from public.order_items i
  left join public.products p on p.id = i.product_id
  where i.order_id = p_order and not i._deleted and i.is_cannabis
    and (p.id is null or p.metrc_package_tag is null or p.metrc_unit is null
         or coalesce(public.metrc_unit_quantity(p.metrc_unit, p.weight_grams), 0) <= 0)
  order by i.line_number, i.id
  limit 1
$$;

revoke execute on function public.metrc_package_refusal(uuid) from public, anon, authenticated;

-- handoff_refusal of 20261128100400_lawful_handoff, with the Metrc package first: an order whose
-- goods cannot be reported is not handed over, whoever the buyer is.
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
  v_package jsonb;
begin
  v_package := public.metrc_package_refusal(p_order.id);
  if v_package is not null then
    return v_package;
  end if;
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

-- At the handoff, each cannabis line takes the package its product is sold from now, its unit and
-- the quantity of that unit one sold unit is. Any path to 'delivered' (set_order_status, or an
-- owner's update) goes through here, and is refused when a package is missing.
create or replace function public.record_sold_packages()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  v_refusal jsonb;
begin
  if new.status = 'delivered' and old.status is distinct from 'delivered' then
    v_refusal := public.metrc_package_refusal(new.id);
    if v_refusal is not null then
      raise exception '%', v_refusal ->> 'message' using errcode = 'P0001';
    end if;
    update public.order_items i
       set metrc_package_tag = p.metrc_package_tag,
           metrc_unit = p.metrc_unit,
           metrc_unit_quantity = round(public.metrc_unit_quantity(p.metrc_unit, p.weight_grams), 6)
      from public.products p
     where i.order_id = new.id and not i._deleted and i.is_cannabis and p.id = i.product_id;
  end if;
  return null;
end;
$$;

revoke execute on function public.record_sold_packages() from public, anon, authenticated;

create trigger orders_record_sold_packages
  after update of status on public.orders
  for each row execute function public.record_sold_packages();
