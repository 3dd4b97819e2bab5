-- Import Products carries the Metrc package (issue 32, docs/decisions/054): a row may give
-- metrc_package_tag and metrc_unit (an exported file does); a row that leaves them out keeps what
-- the product has.
--
-- The staged import (decisions 033 and 047) is left as it is: the package is taken off the rows
-- before staging and written, set-based, right after the apply, in the same transaction — so a
-- refused package refuses the whole import, with the row's number and SKU as every other refusal.
-- Each value is checked as admin_save_product checks it (product_input_metrc_tag / _unit), then
-- the package together with the product as imported (product_metrc_check).

-- The rows' packages written onto the products just imported. p_rows: the import's rows as given
-- (their position is the row number). Internal: called by admin_import_products and by the
-- embedded server's chunked import (supabase/local/shop/import-products.ts), inside the apply.
create or replace function public.product_import_metrc_packages(p_rows jsonb)
returns void
language plpgsql
security definer
set search_path = public
as $$
declare
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_bad record;
  v_message text;
begin
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    return;
  end if;
  create temporary table if not exists pg_temp.product_import_metrc (
    n integer, sku text, product_id uuid, has_tag boolean, tag jsonb, has_unit boolean, unit jsonb
  ) on commit drop;
  truncate pg_temp.product_import_metrc;
  insert into pg_temp.product_import_metrc
  select e.n, nullif(trim(coalesce(e.v ->> 'sku', '')), ''),
         case when jsonb_typeof(e.v -> 'id') = 'string' and (e.v ->> 'id') ~ v_uuid then (e.v ->> 'id')::uuid end,
         e.v ? 'metrc_package_tag', e.v -> 'metrc_package_tag', e.v ? 'metrc_unit', e.v -> 'metrc_unit'
    from jsonb_array_elements(p_rows) with ordinality as e (v, n)
   where jsonb_typeof(e.v) = 'object' and (e.v ? 'metrc_package_tag' or e.v ? 'metrc_unit');
  if not found then
    return;
  end if;

  -- Each value as admin_save_product takes it: the first refused row says why.
  for v_bad in
    select m.* from pg_temp.product_import_metrc m
     where (m.has_tag and not (
             jsonb_typeof(m.tag) = 'null'
             or (jsonb_typeof(m.tag) = 'string'
                 and upper(regexp_replace(m.tag #>> '{}', '\s', '', 'g')) ~ '^(1A4[0-9A-F]{21})?$')))
        or (m.has_unit and not (
             jsonb_typeof(m.unit) = 'null'
             or (jsonb_typeof(m.unit) = 'string' and (m.unit #>> '{}') = any (array[''] || public.metrc_units()))))
     order by m.n
     limit 1
  loop
    begin
      perform public.product_input_metrc_tag(case when v_bad.has_tag then v_bad.tag end);
      perform public.product_input_metrc_unit(case when v_bad.has_unit then v_bad.unit end);
    exception when others then
      get stacked diagnostics v_message = message_text;
      raise exception 'Row %: %', v_bad.n || coalesce(' (SKU ' || v_bad.sku || ')', ''), v_message
        using errcode = '22023';
    end;
  end loop;

  -- The product each row is: by its id, else its SKU, among the live products (just imported).
  update pg_temp.product_import_metrc m
     set product_id = p.id
    from public.products p
   where not p._deleted
     and ((m.product_id is not null and p.id = m.product_id)
       or (m.product_id is null and p.sku = m.sku));
  update public.products p
     set metrc_package_tag = case when t.n is not null
                                  then public.product_input_metrc_tag(t.tag) else p.metrc_package_tag end,
         metrc_unit = case when u.n is not null
                           then public.product_input_metrc_unit(u.unit) else p.metrc_unit end
    from (select distinct product_id from pg_temp.product_import_metrc where product_id is not null) k
    left join lateral (
      select m.n, m.tag from pg_temp.product_import_metrc m
       where m.product_id = k.product_id and m.has_tag order by m.n desc limit 1
    ) t on true
    left join lateral (
      select m.n, m.unit from pg_temp.product_import_metrc m
       where m.product_id = k.product_id and m.has_unit order by m.n desc limit 1
    ) u on true
   where p.id = k.product_id
     and (p.metrc_package_tag, p.metrc_unit) is distinct from (
           case when t.n is not null then public.product_input_metrc_tag(t.tag) else p.metrc_package_tag end,
           case when u.n is not null then public.product_input_metrc_unit(u.unit) else p.metrc_unit end);

  -- The package together with the product as imported: the first row of a refused product.
  for v_bad in
    select m.n, m.sku, p.is_cannabis, p.metrc_package_tag, p.metrc_unit, p.weight_grams
      from pg_temp.product_import_metrc m
      join public.products p on p.id = m.product_id
     where (p.metrc_package_tag is not null and p.is_cannabis is false)
        or (p.metrc_package_tag is not null and p.metrc_unit is null)
        or (p.metrc_unit is not null and coalesce(public.metrc_unit_quantity(p.metrc_unit, p.weight_grams), 0) <= 0)
     order by m.n
     limit 1
  loop
    begin
      perform public.product_metrc_check(v_bad.is_cannabis, v_bad.metrc_package_tag, v_bad.metrc_unit,
        v_bad.weight_grams);
    exception when others then
      get stacked diagnostics v_message = message_text;
      raise exception 'Row %: %', v_bad.n || coalesce(' (SKU ' || v_bad.sku || ')', ''), v_message
        using errcode = '22023';
    end;
  end loop;
end;
$$;

revoke execute on function public.product_import_metrc_packages(jsonb) from public, anon, authenticated;

-- The rows without their package go through the import as before (20261126130200); the package
-- follows in the same transaction.
alter function public.admin_import_products(jsonb) rename to admin_import_products_fields;
revoke execute on function public.admin_import_products_fields(jsonb) from public, anon, authenticated;

create or replace function public.admin_import_products(p_rows jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_result jsonb;
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'The rows must be a JSON list of products' using errcode = '22023';
  end if;
  v_result := public.admin_import_products_fields(public.product_import_without_metrc(p_rows));
  perform public.product_import_metrc_packages(p_rows);
  return v_result;
end;
$$;

revoke execute on function public.admin_import_products(jsonb) from public, anon;
grant execute on function public.admin_import_products(jsonb) to authenticated, service_role;

-- The rows as the staging takes them: the package keys removed (objects only). Internal.
create or replace function public.product_import_without_metrc(p_rows jsonb)
returns jsonb
language sql
immutable
set search_path = public
as $$
  select coalesce(jsonb_agg(case when jsonb_typeof(e.v) = 'object'
                                 then e.v - 'metrc_package_tag' - 'metrc_unit' else e.v end
                            order by e.n), '[]'::jsonb)
    from jsonb_array_elements(p_rows) with ordinality as e (v, n)
$$;

revoke execute on function public.product_import_without_metrc(jsonb) from public, anon, authenticated;
