-- A lawful sale in California (issue 31; docs/decisions/051-california-taxes-and-daily-limits.md):
-- - taxes as CDTFA defines them, each on its own line, from the rules in force on the order's day
--   (compliance_rules): the local cannabis business tax passed on, the cannabis excise tax on the
--   gross receipts of the cannabis, then sales tax on everything with the excise included;
-- - adult-use (21+) and medical (18+) orders; a medical order with an MMIC valid on its day pays
--   no sales tax on cannabis, and its card number and expiry are kept with the sale (staff only);
-- - 4 CCR §15409's daily limits per person across orders: the same email (case and spacing
--   ignored), the same phone number (any formatting of a US number), and, once staff record it
--   at handoff, the same ID document number (kept only as a keyed hash).
-- Orders placed before keep the figures they were charged (tax_lines null: one "Tax" line).

-- Keys a person is recognised by ---------------------------------------------------------------------
create or replace function public.person_email_key(p_email text)
returns text
language sql
immutable
set search_path = public
as $$
  select nullif(lower(regexp_replace(coalesce(p_email, ''), '\s', '', 'g')), '')
$$;

-- "(415) 555-0134", "415.555.0134", "+1 415 555 0134" and "14155550134" are one number.
create or replace function public.person_phone_key(p_phone text)
returns text
language sql
immutable
set search_path = public
as $$
  select case when length(d) = 11 and left(d, 1) = '1' then substr(d, 2) else nullif(d, '') end
    from (select regexp_replace(coalesce(p_phone, ''), '[^0-9]', '', 'g') as d) x
$$;

revoke execute on function public.person_email_key(text) from public, anon, authenticated;
revoke execute on function public.person_phone_key(text) from public, anon, authenticated;

-- The key of the ID numbers' hash: random per install, out of the API's reach.
create table private.compliance_keys (
  id text primary key check (id = 'id_number'),
  key bytea not null
);
revoke all on private.compliance_keys from public, anon, authenticated;

insert into private.compliance_keys (id, key)
values ('id_number', uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()));

-- A keyed hash of an ID document number (letters and digits, case ignored): equal numbers match,
-- and the number cannot be read back or guessed without the key. sha256(k || sha256(k || m)),
-- the nested form HMAC is built on (no pgcrypto on PGlite).
create or replace function private.id_number_hash(p_number text)
returns text
language sql
stable
security definer
set search_path = public
as $$
  select encode(sha256(k.key || sha256(k.key || convert_to(n.v, 'UTF8'))), 'hex')
    from private.compliance_keys k,
         (select upper(regexp_replace(coalesce(p_number, ''), '[^A-Za-z0-9]', '', 'g')) as v) n
   where k.id = 'id_number' and n.v <> ''
$$;

revoke execute on function private.id_number_hash(text) from public, anon, authenticated;

-- Orders and their lines ------------------------------------------------------------------------------
alter table public.orders
  add column customer_kind text not null default 'adult'
    constraint orders_customer_kind_check check (customer_kind in ('adult', 'medical')),
  add column mmic_number text constraint orders_mmic_number_check check (mmic_number ~ '^[A-Z0-9]{4,20}$'),
  add column mmic_expiry date,
  add column sales_tax_exempt boolean not null default false,
  add column mmic_checked boolean not null default false,
  add column tax_lines jsonb,
  add column local_tax numeric(10, 2) not null default 0,
  add column excise_tax numeric(10, 2) not null default 0,
  add column sales_tax numeric(10, 2) not null default 0,
  add column excise_base numeric(10, 2) not null default 0,
  add column sales_base numeric(10, 2) not null default 0,
  add column sale_day date,
  add column email_key text,
  add column phone_key text,
  add column id_number_hash text,
  add column handed_off_at timestamptz,
  add column flower_grams numeric(12, 3) not null default 0,
  add column concentrate_grams numeric(12, 3) not null default 0,
  add constraint orders_mmic_check check (
    (mmic_number is null) = (mmic_expiry is null) and (mmic_number is null or customer_kind = 'medical')
  );

alter table public.order_items
  add column is_cannabis boolean not null default true,
  add column limit_class text constraint order_items_limit_class_check check (limit_class in ('flower', 'concentrate')),
  add column limit_grams numeric(10, 3);

-- Before: one tax, a sales tax on the subtotal; flower and concentrates counted by category.
update public.order_items
   set limit_class = case category_slug when 'flower' then 'flower' when 'concentrates' then 'concentrate' end,
       limit_grams = weight_grams,
       is_cannabis = category_slug is distinct from 'branded-bags';

update public.orders o
   set sale_day = public.shop_date(o.created_at),
       email_key = public.person_email_key(o.customer_email),
       phone_key = public.person_phone_key(o.customer_phone),
       sales_tax = o.tax,
       sales_base = o.subtotal,
       handed_off_at = case when o.status = 'delivered' then o.updated_at end,
       flower_grams = coalesce((select sum(i.limit_grams * i.quantity) from public.order_items i
                                 where i.order_id = o.id and i.limit_class = 'flower'), 0),
       concentrate_grams = coalesce((select sum(i.limit_grams * i.quantity) from public.order_items i
                                      where i.order_id = o.id and i.limit_class = 'concentrate'), 0);

create index orders_sale_day_idx on public.orders (sale_day);
create index orders_handed_off_idx on public.orders (handed_off_at) where handed_off_at is not null;

-- Taxes ----------------------------------------------------------------------------------------------------
create or replace function public.tax_rate_text(p_rate numeric)
returns text
language sql
immutable
set search_path = public
as $$
  select trim_scale(round(p_rate * 100, 3))::text || '%'
$$;

revoke execute on function public.tax_rate_text(numeric) from public, anon, authenticated;

-- CDTFA's order of computation, one rounding to the cent per line (src/lib/california-tax.ts).
create or replace function public.order_taxes(
  p_cannabis numeric,
  p_other numeric,
  p_fee numeric,
  p_exempt boolean,
  p_excise numeric,
  p_sales numeric,
  p_local numeric,
  p_local_label text
)
returns jsonb
language plpgsql
immutable
set search_path = public
as $$
declare
  v_local numeric := round(p_cannabis * p_local, 2);
  v_excise_base numeric := case when p_cannabis > 0 then p_cannabis + v_local + p_fee else 0 end;
  v_excise numeric := round(v_excise_base * p_excise, 2);
  v_sales_base numeric := case
    when p_exempt then p_other + case when p_cannabis > 0 then 0 else p_fee end
    else p_cannabis + v_local + v_excise + p_other + p_fee
  end;
  v_sales numeric := round(v_sales_base * p_sales, 2);
  v_lines jsonb := '[]'::jsonb;
begin
  if p_cannabis > 0 and p_local > 0 then
    v_lines := v_lines || jsonb_build_object('kind', 'local',
      'label', p_local_label || ' (' || public.tax_rate_text(p_local) || ')',
      'rate', p_local, 'base', p_cannabis, 'amount', v_local);
  end if;
  if v_excise_base > 0 and p_excise > 0 then
    v_lines := v_lines || jsonb_build_object('kind', 'excise',
      'label', 'Cannabis excise tax (' || public.tax_rate_text(p_excise) || ')',
      'rate', p_excise, 'base', v_excise_base, 'amount', v_excise);
  end if;
  if v_sales_base > 0 and p_sales > 0 then
    v_lines := v_lines || jsonb_build_object('kind', 'sales',
      'label', 'Sales tax (' || public.tax_rate_text(p_sales) || ')',
      'rate', p_sales, 'base', v_sales_base, 'amount', v_sales);
  end if;
  return jsonb_build_object(
    'lines', v_lines,
    'local', case when p_cannabis > 0 and p_local > 0 then v_local else 0 end,
    'excise', case when p_excise > 0 then v_excise else 0 end,
    'sales', case when p_sales > 0 then v_sales else 0 end,
    'exciseBase', v_excise_base,
    'salesBase', v_sales_base
  );
end;
$$;

revoke execute on function public.order_taxes(numeric, numeric, numeric, boolean, numeric, numeric, numeric, text) from public, anon, authenticated;

-- The taxes of a sale of p_kind on p_day, from the rules in force that day.
create or replace function public.order_taxes_on(
  p_day date,
  p_kind text,
  p_cannabis numeric,
  p_other numeric,
  p_fee numeric,
  p_exempt boolean
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_local public.compliance_rules := public.compliance_rule_on('local_tax_rate', p_day);
  v_local_medical public.compliance_rules;
  v_local_rate numeric := 0;
begin
  if v_local.passed_on then
    v_local_rate := v_local.value;
    if p_kind = 'medical' then
      v_local_medical := public.compliance_rule_on('local_tax_rate_medical', p_day);
      v_local_rate := coalesce(v_local_medical.value, v_local_rate);
    end if;
  end if;
  return public.order_taxes(
    p_cannabis, p_other, p_fee, p_exempt,
    coalesce((public.compliance_rule_on('excise_rate', p_day)).value, 0),
    coalesce((public.compliance_rule_on('sales_tax_rate', p_day)).value, 0),
    v_local_rate,
    coalesce(nullif(trim(v_local.label), ''), 'City cannabis business tax')
  );
end;
$$;

revoke execute on function public.order_taxes_on(date, text, numeric, numeric, numeric, boolean) from public, anon, authenticated;

-- Daily limits -------------------------------------------------------------------------------------------
-- "Today's limit is 28.5 g of flower. Your orders today already hold 21 g, so this order can add
-- up to 7.5 g." (the texts of src/lib/daily-limits.ts), or null within the limit.
create or replace function public.daily_limit_message(
  p_class text,
  p_limit numeric,
  p_already numeric,
  p_this numeric
)
returns text
language sql
immutable
set search_path = public
as $$
  select case
    when p_limit is null or round(p_already + p_this, 3) <= p_limit then null
    when p_already <= 0 then
      'Today''s limit is ' || trim_scale(p_limit) || ' g of ' || p_class || '. This order holds '
      || trim_scale(round(p_this, 3)) || ' g, ' || trim_scale(round(p_this - p_limit, 3))
      || ' g over the limit.'
    when p_already >= p_limit then
      'Today''s limit is ' || trim_scale(p_limit) || ' g of ' || p_class
      || '. Your orders today already hold ' || trim_scale(round(p_already, 3))
      || ' g, so this order can add no more ' || p_class || ' today.'
    else
      'Today''s limit is ' || trim_scale(p_limit) || ' g of ' || p_class
      || '. Your orders today already hold ' || trim_scale(round(p_already, 3))
      || ' g, so this order can add up to ' || trim_scale(round(p_limit - p_already, 3)) || ' g.'
  end
$$;

revoke execute on function public.daily_limit_message(text, numeric, numeric, numeric) from public, anon, authenticated;

-- The grams a person's other sales of p_day hold: orders placed that day and not cancelled, and
-- orders handed over that day. The person is everyone reachable through a shared email, phone or
-- ID number among those orders (one customer, two emails and one phone, is one customer).
create or replace function public.person_grams_on(
  p_day date,
  p_email_key text,
  p_phone_key text,
  p_id_hash text,
  p_exclude uuid
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_emails text[] := array_remove(array[p_email_key], null);
  v_phones text[] := array_remove(array[p_phone_key], null);
  v_ids text[] := array_remove(array[p_id_hash], null);
  v_orders uuid[] := '{}';
  v_found uuid[];
  v_flower numeric;
  v_concentrate numeric;
begin
  for v_round in 1 .. 6 loop
    select coalesce(array_agg(o.id order by o.id), '{}'),
           v_emails || coalesce(array_agg(distinct o.email_key) filter (where o.email_key is not null), '{}'),
           v_phones || coalesce(array_agg(distinct o.phone_key) filter (where o.phone_key is not null), '{}'),
           v_ids || coalesce(array_agg(distinct o.id_number_hash) filter (where o.id_number_hash is not null), '{}')
      into v_found, v_emails, v_phones, v_ids
      from public.orders o
     where o.id is distinct from p_exclude
       and not o._deleted
       and ((o.sale_day = p_day and o.status <> 'cancelled')
            or (o.status = 'delivered' and public.shop_date(o.handed_off_at) = p_day))
       and (o.email_key = any (v_emails) or o.phone_key = any (v_phones) or o.id_number_hash = any (v_ids));
    exit when v_found = v_orders;
    v_orders := v_found;
  end loop;
  select coalesce(sum(o.flower_grams), 0), coalesce(sum(o.concentrate_grams), 0)
    into v_flower, v_concentrate
    from public.orders o where o.id = any (v_orders);
  return jsonb_build_object('flower', v_flower, 'concentrate', v_concentrate, 'orders', cardinality(v_orders));
end;
$$;

revoke execute on function public.person_grams_on(date, text, text, text, uuid) from public, anon, authenticated;

-- The refusals of a sale of p_kind holding p_flower and p_concentrate grams, given what the
-- person's other sales of the day hold (person_grams_on's answer).
create or replace function public.daily_limit_refusals(
  p_day date,
  p_kind text,
  p_flower numeric,
  p_concentrate numeric,
  p_other jsonb
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_reasons jsonb := '[]'::jsonb;
  v_message text;
begin
  v_message := public.daily_limit_message('flower',
    (public.compliance_rule_on(case when p_kind = 'medical' then 'limit_medical_flower_g' else 'limit_adult_flower_g' end, p_day)).value,
    coalesce((p_other ->> 'flower')::numeric, 0), p_flower);
  if v_message is not null then
    v_reasons := v_reasons || jsonb_build_object('productId', null, 'message', v_message);
  end if;
  v_message := public.daily_limit_message('concentrate',
    (public.compliance_rule_on(case when p_kind = 'medical' then 'limit_medical_concentrate_g' else 'limit_adult_concentrate_g' end, p_day)).value,
    coalesce((p_other ->> 'concentrate')::numeric, 0), p_concentrate);
  if v_message is not null then
    v_reasons := v_reasons || jsonb_build_object('productId', null, 'message', v_message);
  end if;
  return v_reasons;
end;
$$;

revoke execute on function public.daily_limit_refusals(date, text, numeric, numeric, jsonb) from public, anon, authenticated;
