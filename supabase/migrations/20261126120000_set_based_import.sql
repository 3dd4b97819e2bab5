-- Imports that cost the same per row at 5,000 rows as at 50 (issue 24, docs/decisions/031).
--
-- admin_import_products saved row after row through admin_save_product, and every statement of
-- every row fired the catalogue change signal (an upsert of the same catalogue_changes row) and,
-- for each media, effect and terpene row, an update of its product's _modified. Within one
-- transaction each of those left another dead version of the same rows behind, which the next
-- row had to step over: 5.0 ms a row at 250 rows, 12.8 ms at 2,000, 158 s for 5,000.
--
-- Now the import marks its transaction as bulk work (set_config('humo.bulk', 'on', true), which
-- ends with the transaction whatever happens), and while it is on the two per-row triggers stand
-- aside. The rows are still checked and saved by admin_save_product, so every rule and message,
-- and the first refusal aborting the whole call, stay exactly as before. After the last row the
-- import moves the _modified of every product it saved in one statement (devices pull by
-- (_modified, id), so each imported product, with its media, effects and terpenes embedded,
-- reaches them after their checkpoint) and bumps the change feed once per catalogue table.

create or replace function public.in_bulk_import()
returns boolean
language sql
stable
set search_path = public
as $$
  select coalesce(current_setting('humo.bulk', true), '') = 'on'
$$;

revoke execute on function public.in_bulk_import() from public, anon, authenticated;

create or replace function public.signal_catalogue_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  -- A bulk import bumps the feed itself once it has written everything (below).
  if public.in_bulk_import() then
    return null;
  end if;
  insert into public.catalogue_changes (table_name, changed_at)
  values (tg_table_name, clock_timestamp())
  on conflict (table_name) do update set changed_at = excluded.changed_at;
  return null;
end;
$$;

create or replace function public.touch_parent_product()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  -- A bulk import moves the _modified of every product it saved once, at its end.
  if public.in_bulk_import() then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    update public.products set _modified = clock_timestamp() where id = old.product_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.product_id is distinct from old.product_id) then
    update public.products set _modified = clock_timestamp() where id = new.product_id;
  end if;
  return null;
end;
$$;

revoke execute on function public.touch_parent_product() from public, anon, authenticated;

create or replace function public.admin_import_products(p_rows jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_row jsonb;
  v_n integer;
  v_saved jsonb;
  v_ids uuid[] := '{}';
  v_created integer := 0;
  v_state text;
  v_message text;
  v_sku text;
  v_table text;
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'The rows must be a JSON list of products' using errcode = '22023';
  end if;
  if jsonb_array_length(p_rows) > 5000 then
    raise exception 'At most 5000 products can be imported at once' using errcode = '22023';
  end if;

  perform set_config('humo.bulk', 'on', true);

  for v_row, v_n in select value, ordinality from jsonb_array_elements(p_rows) with ordinality loop
    v_sku := case when jsonb_typeof(v_row) = 'object' then nullif(trim(coalesce(v_row ->> 'sku', '')), '') end;
    begin
      v_saved := public.admin_save_product(v_row);
    exception when others then
      -- Re-raised with the row named; the exception leaves the function, so every row saved
      -- before this one is rolled back with it (and the bulk flag with the transaction).
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text;
      raise exception 'Row %: %', v_n || coalesce(' (SKU ' || v_sku || ')', ''), v_message
        using errcode = v_state;
    end;
    v_ids := v_ids || (v_saved ->> 'id')::uuid;
    if (v_saved ->> 'created')::boolean then
      v_created := v_created + 1;
    end if;
  end loop;

  perform set_config('humo.bulk', '', true);

  -- One statement moves every saved product past the devices' checkpoints (set_modified), and
  -- fires the products change signal once.
  update public.products set _modified = clock_timestamp()
   where id = any (v_ids);
  foreach v_table in array array['product_media', 'product_effects', 'terpene_profiles'] loop
    insert into public.catalogue_changes (table_name, changed_at)
    values (v_table, clock_timestamp())
    on conflict (table_name) do update set changed_at = excluded.changed_at;
  end loop;

  return jsonb_build_object(
    'count', coalesce(array_length(v_ids, 1), 0),
    'created', v_created,
    'updated', coalesce(array_length(v_ids, 1), 0) - v_created,
    'ids', to_jsonb(v_ids)
  );
end;
$$;

revoke execute on function public.admin_import_products(jsonb) from public, anon;
grant execute on function public.admin_import_products(jsonb) to authenticated, service_role;
