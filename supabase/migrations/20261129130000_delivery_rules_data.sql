-- Delivery by the rules, part 1: the legal numbers (issue 32; docs/decisions/055-delivery-by-
-- the-rules.md). Three more rows of compliance_rules, with the day they took effect:
--   handoff_hours_start / handoff_hours_end: 4 CCR §15403, a retailer sells and delivers only
--     between 6:00 a.m. and 10:00 p.m. Pacific Time (hours of the day, 6.5 = 6:30 a.m.); pickup
--     windows, driver assignments and handoffs outside them are refused, whatever the shop's own
--     opening hours say.
--   driver_load_cap: 4 CCR §15418(a), a delivery employee carries at most $5,000 of cannabis
--     goods at once. Stricter reading (the decision says why): the whole totals of the orders
--     out with one driver count, not only their cannabis at retail price.
-- And the two facts of a staff member a delivery receipt names (4 CCR §15420): a first name and an
-- employee number, given to every profile once.

alter table public.compliance_rules drop constraint compliance_rules_rule_check;
alter table public.compliance_rules add constraint compliance_rules_rule_check check (rule in (
  'excise_rate', 'sales_tax_rate', 'local_tax_rate', 'local_tax_rate_medical',
  'limit_adult_flower_g', 'limit_adult_concentrate_g',
  'limit_medical_flower_g', 'limit_medical_concentrate_g',
  'handoff_hours_start', 'handoff_hours_end', 'driver_load_cap'
));

alter table public.compliance_rules drop constraint compliance_rules_value_check;
alter table public.compliance_rules add constraint compliance_rules_value_check check (
  value >= 0 and (
    rule like 'limit_%'
    or (rule like 'handoff_hours_%' and value <= 24)
    or (rule = 'driver_load_cap' and value <= 1000000)
    or value <= 1
  )
);

insert into public.compliance_rules (id, rule, value, effective_from, passed_on, label, source) values
  ('00000000-0000-4000-8c00-00000000000c', 'handoff_hours_start', 6, '2018-01-01', false, null,
   '4 CCR §15403: sales and deliveries only between 6:00 a.m. and 10:00 p.m. Pacific Time'),
  ('00000000-0000-4000-8c00-00000000000d', 'handoff_hours_end', 22, '2018-01-01', false, null,
   '4 CCR §15403: sales and deliveries only between 6:00 a.m. and 10:00 p.m. Pacific Time'),
  ('00000000-0000-4000-8c00-00000000000e', 'driver_load_cap', 5000, '2019-01-16', false, null,
   '4 CCR §15418(a): at most $5,000 of cannabis goods in the delivery vehicle at any time')
on conflict (rule, effective_from) do nothing;

-- Staff names on receipts ----------------------------------------------------------------------------
create sequence if not exists public.employee_number_seq start 101;

alter table public.user_profiles add column if not exists first_name text
  constraint user_profiles_first_name_check check (first_name is null or length(first_name) between 1 and 40);
alter table public.user_profiles add column if not exists employee_number integer
  not null default nextval('public.employee_number_seq');

-- set_my_first_name(p_first_name): a staff member says the first name their receipts show.
create or replace function public.set_my_first_name(p_first_name text)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_name text := btrim(coalesce(p_first_name, ''));
  v_profile public.user_profiles;
begin
  if auth.uid() is null then
    raise exception 'Sign in first' using errcode = '42501';
  end if;
  if v_name = '' or length(v_name) > 40 or v_name ~ '[[:cntrl:]<>]' then
    raise exception 'Enter your first name (at most 40 characters)' using errcode = '22023';
  end if;
  update public.user_profiles set first_name = v_name
   where user_id = auth.uid() and not _deleted and role <> 'customer'
  returning * into v_profile;
  if not found then
    raise exception 'Only staff have a name on receipts' using errcode = '42501';
  end if;
  return jsonb_build_object('firstName', v_profile.first_name, 'employeeNumber', v_profile.employee_number);
end;
$$;

revoke execute on function public.set_my_first_name(text) from public, anon;
grant execute on function public.set_my_first_name(text) to authenticated;

-- The hours rule --------------------------------------------------------------------------------------
-- "6:00 AM" for 6, "10:30 PM" for 22.5.
create or replace function public.clock_words(p_hours numeric)
returns text
language sql
immutable
set search_path = public
as $$
  select to_char(time '00:00' + make_interval(mins => round(p_hours * 60)::integer), 'FMHH12:MI AM')
$$;

revoke execute on function public.clock_words(numeric) from public, anon, authenticated;

-- Why nothing may be handed over, assigned or picked up at p_at, or null: outside 4 CCR §15403's
-- hours in force that day, in the shop's time zone.
create or replace function public.handoff_hours_refusal(p_at timestamptz, p_what text)
returns text
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_day date := public.shop_date(p_at);
  v_start numeric := (public.compliance_rule_on('handoff_hours_start', v_day)).value;
  v_end numeric := (public.compliance_rule_on('handoff_hours_end', v_day)).value;
  v_local timestamp := p_at at time zone 'America/Los_Angeles';
  v_hour numeric := extract(epoch from (v_local - v_day::timestamp)) / 3600;
begin
  if v_start is null or v_end is null or (v_hour >= v_start and v_hour < v_end) then
    return null;
  end if;
  return p_what || ' only between ' || public.clock_words(v_start) || ' and '
    || public.clock_words(v_end) || ', shop time (4 CCR §15403).';
end;
$$;

revoke execute on function public.handoff_hours_refusal(timestamptz, text) from public, anon, authenticated;

-- Pickup windows: the body of 20261125100000, plus the hours of §15403.
create or replace function public.pickup_window_refusal(p_start timestamptz, p_end timestamptz)
returns text
language plpgsql
stable
set search_path = public
as $$
declare
  v_local_start timestamp := p_start at time zone 'America/Los_Angeles';
  v_local_end timestamp := p_end at time zone 'America/Los_Angeles';
  v_day date := (p_start at time zone 'America/Los_Angeles')::date;
  v_hours jsonb;
  v_legal text;
begin
  if p_end <= now() then
    return 'That pickup window has passed. Please choose another pickup time.';
  end if;
  if p_start > now() + interval '7 days' then
    return 'Pickup can be booked at most 7 days ahead.';
  end if;
  select s.opening_hours -> extract(dow from v_day)::integer into v_hours
    from public.shop_settings s where s.id = 'shop';
  if jsonb_typeof(v_hours) is distinct from 'object'
     or v_local_start < v_day + (v_hours ->> 'open')::interval
     or v_local_end > v_day + (v_hours ->> 'close')::interval then
    return 'The shop is not open for pickup at that time. Please choose another pickup time.';
  end if;
  -- The window's last minute must still fall inside the legal hours.
  v_legal := coalesce(public.handoff_hours_refusal(p_start, 'Pickups happen'),
                      public.handoff_hours_refusal(p_end - interval '1 minute', 'Pickups happen'));
  if v_legal is not null then
    return v_legal || ' Please choose another pickup time.';
  end if;
  return null;
end;
$$;

revoke execute on function public.pickup_window_refusal(timestamptz, timestamptz) from public, anon, authenticated;

-- Saving a rule: the body of 20261128100000, with the three new rules and their ranges.
create or replace function public.compliance_rule_value_refusal(p_rule text, p_value numeric)
returns text
language sql
immutable
set search_path = public
as $$
  select case
    when p_rule like 'limit_%' then
      case when p_value <= 0 or p_value > 10000 or p_value <> round(p_value, 2)
        then 'A limit must be more than 0 g and at most 10,000 g, to the hundredth of a gram' end
    when p_rule like 'handoff_hours_%' then
      case when p_value < 0 or p_value > 24 or p_value * 4 <> round(p_value * 4)
        then 'An hour must be between 0 and 24, to the quarter hour (6.5 is 6:30 AM)' end
    when p_rule = 'driver_load_cap' then
      case when p_value <= 0 or p_value > 1000000 or p_value <> round(p_value, 2)
        then 'The most a driver may carry must be more than $0 and at most $1,000,000' end
    else
      case when p_value < 0 or p_value > 0.5 or p_value <> round(p_value, 5)
        then 'A rate must be between 0% and 50%, with at most three decimals' end
  end
$$;

revoke execute on function public.compliance_rule_value_refusal(text, numeric) from public, anon, authenticated;

-- admin_save_compliance_rule's checked body (20261128100000, moved to private by 20261129110200,
-- whose public wrapper lets only owners in), with the rules above and their ranges.
create or replace function private.admin_save_compliance_rule_checked(p_rule jsonb)
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
    'limit_medical_flower_g', 'limit_medical_concentrate_g',
    'handoff_hours_start', 'handoff_hours_end', 'driver_load_cap'
  ) then
    raise exception 'Unknown rule: %', coalesce(left(v_rule, 40), 'none') using errcode = '22023';
  end if;
  if jsonb_typeof(p_rule -> 'value') is distinct from 'number' then
    raise exception 'Enter a number' using errcode = '22023';
  end if;
  v_value := (p_rule ->> 'value')::numeric;
  if public.compliance_rule_value_refusal(v_rule, v_value) is not null then
    raise exception '%', public.compliance_rule_value_refusal(v_rule, v_value) using errcode = '22023';
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

  -- The day's legal hours must stay a span: a start at or after the end would refuse every handoff.
  if v_rule like 'handoff_hours_%' and (public.compliance_rule_on('handoff_hours_start', v_day)).value
       >= (public.compliance_rule_on('handoff_hours_end', v_day)).value then
    raise exception 'The hours must start before they end' using errcode = '22023';
  end if;

  select * into v_row from public.shop_settings where id = 'shop';
  return public.shop_settings_document(v_row);
end;
$$;

revoke all on function private.admin_save_compliance_rule_checked(jsonb) from public, anon, authenticated;
