-- California's legal numbers as rows with the date they take effect (issue 31; docs/decisions/
-- 051-california-taxes-and-daily-limits.md): the cannabis excise rate, the sales tax rate, the
-- local cannabis business tax (and whether the shop passes it on separately stated), and the
-- daily limits of 4 CCR §15409 for adult-use and medical customers. A sale uses the rows in force
-- on its date in the shop's time zone; a new rate can be entered ahead of its day. The device
-- gets the same rows with the shop's settings (shop_settings_document) to preview with, and the
-- server decides (place_order).
--
-- A row that took effect before today is history, kept as it was: a later rate is a new row.
-- Staff edit or remove only rows that take effect today or later (admin_save_compliance_rule,
-- admin_delete_compliance_rule); orders keep the figures they were charged in any case.

create table public.compliance_rules (
  id uuid primary key default gen_random_uuid(),
  rule text not null constraint compliance_rules_rule_check check (rule in (
    'excise_rate', 'sales_tax_rate', 'local_tax_rate', 'local_tax_rate_medical',
    'limit_adult_flower_g', 'limit_adult_concentrate_g',
    'limit_medical_flower_g', 'limit_medical_concentrate_g'
  )),
  value numeric(12, 5) not null constraint compliance_rules_value_check check (
    value >= 0 and (rule like 'limit_%' or value <= 1)
  ),
  effective_from date not null,
  passed_on boolean not null default false,
  label text constraint compliance_rules_label_check check (label is null or length(label) between 1 and 80),
  source text constraint compliance_rules_source_check check (source is null or length(source) <= 300),
  updated_by uuid,
  created_at timestamptz not null default now(),
  constraint compliance_rules_one_a_day unique (rule, effective_from)
);

alter table public.compliance_rules enable row level security;

-- Everyone may read the rules (the device previews with them); writes go through the RPCs below.
create policy "compliance_rules: anyone reads"
  on public.compliance_rules for select
  to anon, authenticated
  using (true);

grant select on public.compliance_rules to anon, authenticated;

insert into public.compliance_rules (id, rule, value, effective_from, passed_on, label, source) values
  ('00000000-0000-4000-8c00-000000000001', 'excise_rate', 0.15, '2023-01-01', false, null,
   'R&T Code §34011.2 (AB 195): 15% of gross receipts, collected by the retailer'),
  ('00000000-0000-4000-8c00-000000000002', 'excise_rate', 0.19, '2025-07-01', false, null,
   'CDTFA rate adjustment under R&T Code §34011.2(b) for 2025-26'),
  ('00000000-0000-4000-8c00-000000000003', 'excise_rate', 0.15, '2025-10-01', false, null,
   'AB 564 (Stats. 2025, ch. 127): back to 15% from 2025-10-01'),
  ('00000000-0000-4000-8c00-000000000004', 'sales_tax_rate', 0.095, '2017-10-01', false, null,
   'CDTFA rate for the City of Los Angeles (Measure H)'),
  ('00000000-0000-4000-8c00-000000000005', 'sales_tax_rate', 0.0975, '2025-04-01', false, null,
   'CDTFA rate for the City of Los Angeles (Measure A, 2025-04-01)'),
  ('00000000-0000-4000-8c00-000000000006', 'local_tax_rate', 0.1, '2018-01-01', false, 'City cannabis business tax',
   'Los Angeles cannabis business tax L702, adult-use retail ($100 per $1,000)'),
  ('00000000-0000-4000-8c00-000000000007', 'local_tax_rate_medical', 0.05, '2018-01-01', false, null,
   'Los Angeles cannabis business tax L701, medical retail ($50 per $1,000)'),
  ('00000000-0000-4000-8c00-000000000008', 'limit_adult_flower_g', 28.5, '2018-01-01', false, null,
   '4 CCR §15409(a)(1): 28.5 g of non-concentrated cannabis a day'),
  ('00000000-0000-4000-8c00-000000000009', 'limit_adult_concentrate_g', 8, '2018-01-01', false, null,
   '4 CCR §15409(a)(2): 8 g of concentrate a day, including concentrate in products'),
  ('00000000-0000-4000-8c00-00000000000a', 'limit_medical_flower_g', 226.8, '2018-01-01', false, null,
   '4 CCR §15409(b)(1): 8 oz of dried flower a day (more when the recommendation says so)'),
  ('00000000-0000-4000-8c00-00000000000b', 'limit_medical_concentrate_g', 8, '2018-01-01', false, null,
   'Stricter reading: §15409(b) counts concentrate by a plant conversion the state never set, so the adult-use 8 g applies');

-- The shop's calendar day of an instant (America/Los_Angeles).
create or replace function public.shop_date(p_at timestamptz default now())
returns date
language sql
stable
set search_path = public
as $$
  select (p_at at time zone 'America/Los_Angeles')::date
$$;

revoke execute on function public.shop_date(timestamptz) from public, anon, authenticated;

-- The row of p_rule in force on p_day: the latest that took effect on or before it (the rule of
-- src/lib/compliance-rules.ts ruleOn).
create or replace function public.compliance_rule_on(p_rule text, p_day date)
returns public.compliance_rules
language sql
stable
security definer
set search_path = public
as $$
  select r.* from public.compliance_rules r
   where r.rule = p_rule and r.effective_from <= p_day
   order by r.effective_from desc
   limit 1
$$;

revoke execute on function public.compliance_rule_on(text, date) from public, anon, authenticated;

-- The rows as devices store them (camelCase, the shape of src/lib/compliance-rules.ts).
create or replace function public.compliance_rules_document()
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', r.id,
      'rule', r.rule,
      'value', r.value,
      'effectiveFrom', to_char(r.effective_from, 'YYYY-MM-DD'),
      'passedOn', r.passed_on,
      'label', r.label,
      'source', r.source
    ) order by r.rule, r.effective_from), '[]'::jsonb)
  from public.compliance_rules r
$$;

revoke execute on function public.compliance_rules_document() from public, anon, authenticated;

-- The settings document gains the rules; the rest is 20261126100100_auto_cancel_unaccepted_orders.
create or replace function public.shop_settings_document(p_row public.shop_settings)
returns jsonb
language sql
stable
security definer
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
    'compliance_rules', public.compliance_rules_document(),
    'updated_at', p_row.updated_at,
    '_modified', to_char(p_row._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    '_deleted', p_row._deleted
  )
$$;

revoke execute on function public.shop_settings_document(public.shop_settings) from public, anon, authenticated;

-- A change of the rules is a change of the settings document: devices pull it like one.
create or replace function public.touch_shop_settings()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  update public.shop_settings set updated_at = now() where id = 'shop';
  return null;
end;
$$;

revoke execute on function public.touch_shop_settings() from public, anon, authenticated;

create trigger compliance_rules_touch_settings
  after insert or update or delete on public.compliance_rules
  for each statement execute function public.touch_shop_settings();

-- The single old "Tax rate" gives way to the rules: a save that leaves taxRate out keeps the
-- stored value (only old clients still send it; nothing computes with it any more).
alter function public.admin_save_shop_settings(jsonb) rename to admin_save_shop_settings_hours;
alter function public.admin_save_shop_settings_hours(jsonb) set schema private;
revoke execute on function private.admin_save_shop_settings_hours(jsonb) from public, anon, authenticated;

create or replace function public.admin_save_shop_settings(p_settings jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_settings jsonb := p_settings;
begin
  if jsonb_typeof(v_settings) = 'object' and not v_settings ? 'taxRate' then
    v_settings := v_settings || jsonb_build_object(
      'taxRate', (select s.tax_rate from public.shop_settings s where s.id = 'shop'));
  end if;
  return private.admin_save_shop_settings_hours(v_settings);
end;
$$;

revoke execute on function public.admin_save_shop_settings(jsonb) from public;
grant execute on function public.admin_save_shop_settings(jsonb) to authenticated, service_role;

-- admin_save_compliance_rule({rule, value, effectiveFrom, passedOn?, label?, source?}): enters a
-- rate or limit from a day on. A row already there for that rule and day is replaced (only when
-- the day is today or later). Answers the settings document, as admin_save_shop_settings does.
create or replace function public.admin_save_compliance_rule(p_rule jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_rule text;
  v_value numeric;
  v_day date;
  v_label text;
  v_source text;
  v_passed boolean := false;
  v_row public.shop_settings;
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if jsonb_typeof(p_rule) is distinct from 'object' then
    raise exception 'The rule must be a JSON object' using errcode = '22023';
  end if;
  v_rule := p_rule ->> 'rule';
  if v_rule is null or v_rule not in (
    'excise_rate', 'sales_tax_rate', 'local_tax_rate', 'local_tax_rate_medical',
    'limit_adult_flower_g', 'limit_adult_concentrate_g',
    'limit_medical_flower_g', 'limit_medical_concentrate_g'
  ) then
    raise exception 'Unknown rule: %', coalesce(left(v_rule, 40), 'none') using errcode = '22023';
  end if;
  if jsonb_typeof(p_rule -> 'value') is distinct from 'number' then
    raise exception 'Enter a number' using errcode = '22023';
  end if;
  v_value := (p_rule ->> 'value')::numeric;
  if v_rule like 'limit_%' then
    if v_value <= 0 or v_value > 10000 or v_value <> round(v_value, 2) then
      raise exception 'A limit must be more than 0 g and at most 10,000 g, to the hundredth of a gram' using errcode = '22023';
    end if;
  elsif v_value < 0 or v_value > 0.5 or v_value <> round(v_value, 5) then
    raise exception 'A rate must be between 0%% and 50%%, with at most three decimals' using errcode = '22023';
  end if;
  begin
    if (p_rule ->> 'effectiveFrom') !~ '^\d{4}-\d{2}-\d{2}$' then
      raise exception using errcode = '22007';
    end if;
    v_day := (p_rule ->> 'effectiveFrom')::date;
  exception when others then
    raise exception 'Enter the date the rule takes effect (YYYY-MM-DD)' using errcode = '22023';
  end;
  if v_day < public.shop_date() then
    raise exception 'A rule cannot take effect in the past. Enter today''s date or a later one; what was charged before stays as it was.' using errcode = '22023';
  end if;
  if v_day > public.shop_date() + 3660 then
    raise exception 'A rule can be entered at most ten years ahead' using errcode = '22023';
  end if;
  if v_rule = 'local_tax_rate' then
    v_passed := jsonb_typeof(p_rule -> 'passedOn') = 'boolean' and (p_rule ->> 'passedOn')::boolean;
    v_label := nullif(trim(coalesce(p_rule ->> 'label', '')), '');
    if v_label is not null and length(v_label) > 80 then
      raise exception 'The local tax''s name can have at most 80 characters' using errcode = '22023';
    end if;
  end if;
  v_source := nullif(trim(coalesce(p_rule ->> 'source', '')), '');
  if v_source is not null and length(v_source) > 300 then
    raise exception 'The source can have at most 300 characters' using errcode = '22023';
  end if;

  insert into public.compliance_rules (rule, value, effective_from, passed_on, label, source, updated_by)
  values (v_rule, v_value, v_day, v_passed, v_label, v_source, auth.uid())
  on conflict (rule, effective_from) do update
     set value = excluded.value, passed_on = excluded.passed_on, label = excluded.label,
         source = excluded.source, updated_by = excluded.updated_by;

  select * into v_row from public.shop_settings where id = 'shop';
  return public.shop_settings_document(v_row);
end;
$$;

revoke execute on function public.admin_save_compliance_rule(jsonb) from public, anon;
grant execute on function public.admin_save_compliance_rule(jsonb) to authenticated, service_role;

-- Removes a rule that has not taken effect yet (or takes effect today).
create or replace function public.admin_delete_compliance_rule(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_rule public.compliance_rules;
  v_row public.shop_settings;
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  select * into v_rule from public.compliance_rules where id = p_id for update;
  if not found then
    raise exception 'Rule % not found', p_id using errcode = '22023';
  end if;
  if v_rule.effective_from < public.shop_date() then
    raise exception 'A rule already in force stays in the history. Enter the new value with the date it takes effect.' using errcode = '22023';
  end if;
  delete from public.compliance_rules where id = p_id;
  select * into v_row from public.shop_settings where id = 'shop';
  return public.shop_settings_document(v_row);
end;
$$;

revoke execute on function public.admin_delete_compliance_rule(uuid) from public, anon;
grant execute on function public.admin_delete_compliance_rule(uuid) to authenticated, service_role;
