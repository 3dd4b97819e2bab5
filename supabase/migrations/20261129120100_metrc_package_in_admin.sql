-- The product's Metrc package (issue 32, docs/decisions/054) in the admin's hands: the product
-- save takes metrc_package_tag and metrc_unit, and the admin catalogue pull gives them.
--
-- admin_save_product keeps its body (20261128100500): it is renamed and wrapped. The wrapper
-- checks the two values first (a refused value writes nothing), lets the save run, then writes
-- them and checks them together with the product as saved. Left out of a save, each keeps what
-- the product has.

-- The package UID as Metrc prints it: 24 hexadecimal characters, 1A4 first (spaces and case
-- forgiven; '' or null clears it). Internal.
create or replace function public.product_input_metrc_tag(p_value jsonb)
returns text
language plpgsql
immutable
set search_path = public
as $$
declare
  v text;
begin
  if p_value is null or jsonb_typeof(p_value) = 'null' then
    return null;
  end if;
  if jsonb_typeof(p_value) <> 'string' then
    raise exception 'Metrc package tag must be text' using errcode = '22023';
  end if;
  v := upper(regexp_replace(p_value #>> '{}', '\s', '', 'g'));
  if v = '' then
    return null;
  end if;
  if v !~ '^1A4[0-9A-F]{21}$' then
    raise exception 'Metrc package tag must be the package''s 24-character UID: 1A4 then 21 letters A-F or digits (like 1A4FF0100000022000000123)'
      using errcode = '22023';
  end if;
  return v;
end;
$$;

revoke execute on function public.product_input_metrc_tag(jsonb) from public, anon, authenticated;

-- One of Metrc's units we report in ('' or null: none). Internal.
create or replace function public.product_input_metrc_unit(p_value jsonb)
returns text
language plpgsql
immutable
set search_path = public
as $$
begin
  if p_value is null or jsonb_typeof(p_value) = 'null' or p_value = '""'::jsonb then
    return null;
  end if;
  if jsonb_typeof(p_value) = 'string' and (p_value #>> '{}') = any (public.metrc_units()) then
    return p_value #>> '{}';
  end if;
  raise exception 'Metrc unit of measure must be one of %', array_to_string(public.metrc_units(), ', ')
    using errcode = '22023';
end;
$$;

revoke execute on function public.product_input_metrc_unit(jsonb) from public, anon, authenticated;

-- The package together with the product: a tag needs its unit, a weighed unit the product's
-- weight, and only cannabis is sold from a Metrc package. Internal.
create or replace function public.product_metrc_check(
  p_is_cannabis boolean,
  p_tag text,
  p_unit text,
  p_weight_grams numeric
)
returns void
language plpgsql
immutable
set search_path = public
as $$
begin
  if p_tag is not null and p_is_cannabis is false then
    raise exception 'A product that is not cannabis is not sold from a Metrc package: clear its tag'
      using errcode = '22023';
  end if;
  if p_tag is not null and p_unit is null then
    raise exception 'Choose the Metrc package''s unit of measure (Each, Grams, …)' using errcode = '22023';
  end if;
  if p_unit is not null and coalesce(public.metrc_unit_quantity(p_unit, p_weight_grams), 0) <= 0 then
    raise exception 'A package counted in % needs the product''s weight in grams', p_unit using errcode = '22023';
  end if;
end;
$$;

revoke execute on function public.product_metrc_check(boolean, text, text, numeric) from public, anon, authenticated;

alter function public.admin_save_product(jsonb) rename to admin_save_product_fields;
revoke execute on function public.admin_save_product_fields(jsonb) from public, anon, authenticated;

create or replace function public.admin_save_product(p_product jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_has_tag boolean := jsonb_typeof(p_product) = 'object' and p_product ? 'metrc_package_tag';
  v_has_unit boolean := jsonb_typeof(p_product) = 'object' and p_product ? 'metrc_unit';
  v_tag text;
  v_unit text;
  v_result jsonb;
  v_saved public.products;
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if v_has_tag then
    v_tag := public.product_input_metrc_tag(p_product -> 'metrc_package_tag');
  end if;
  if v_has_unit then
    v_unit := public.product_input_metrc_unit(p_product -> 'metrc_unit');
  end if;
  v_result := public.admin_save_product_fields(p_product - 'metrc_package_tag' - 'metrc_unit');
  if v_has_tag or v_has_unit then
    update public.products
       set metrc_package_tag = case when v_has_tag then v_tag else metrc_package_tag end,
           metrc_unit = case when v_has_unit then v_unit else metrc_unit end
     where id = (v_result ->> 'id')::uuid
       and (metrc_package_tag, metrc_unit) is distinct from
           (case when v_has_tag then v_tag else metrc_package_tag end,
            case when v_has_unit then v_unit else metrc_unit end);
  end if;
  select * into v_saved from public.products where id = (v_result ->> 'id')::uuid;
  perform public.product_metrc_check(v_saved.is_cannabis, v_saved.metrc_package_tag, v_saved.metrc_unit,
    v_saved.weight_grams);
  return v_result || jsonb_build_object(
    '_modified', to_char(v_saved._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'product', to_jsonb(v_saved) - '_deleted' - '_modified'
  );
end;
$$;

revoke execute on function public.admin_save_product(jsonb) from public, anon;
grant execute on function public.admin_save_product(jsonb) to authenticated, service_role;

-- The admin catalogue's pull (20261129110200's, budtenders reading) gains the package; otherwise
-- the same.
create or replace function public.pull_products_admin_page(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_limit integer := least(greatest(coalesce(max_rows, 200), 1), 2000);
  v_after_id uuid := coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid);
begin
  -- Budtenders read the catalogue (they answer questions at the counter) but never write it
  -- (20261129110200; coalesce: a shopper's null role must refuse, not slip through).
  if not coalesce(public.is_admin() or public.staff_role() = 'budtender'
                  or auth.role() = 'service_role', false) then
    raise exception 'Staff privileges required' using errcode = '42501';
  end if;
  return (
    with ahead as (
      select p.id from products p
      where after_modified is null or (p._modified, p.id) > (after_modified, v_after_id)
      order by p._modified, p.id
      limit v_limit
    ),
    behind as (
      select p.id from products p
      where behind_from is not null and after_modified is not null
        and p._modified >= behind_from
        and (p._modified, p.id) <= (after_modified, v_after_id)
      order by p._modified, p.id
      limit v_limit
    ),
    docs as (
      select k.part, p.id, p._modified,
        case when not p._deleted then
          jsonb_build_object(
            'id', p.id,
            'name', p.name,
            'slug', p.slug,
            'sku', p.sku,
            'description', p.description,
            'price', p.price,
            'original_price', p.original_price,
            'quantity_available', p.quantity_available,
            'is_unlimited_quantity', p.is_unlimited_quantity,
            'is_active', p.is_active,
            'is_on_sale', p.is_on_sale,
            'is_featured', p.is_featured,
            'rating', p.rating,
            'review_count', p.review_count,
            'thc_percentage', p.thc_percentage,
            'cbd_percentage', p.cbd_percentage,
            'total_cannabinoids_percentage', p.total_cannabinoids_percentage,
            'smokeback_percentage', p.smokeback_percentage,
            'weight_grams', p.weight_grams,
            'is_cannabis', p.is_cannabis,
            'limit_class', p.limit_class,
            'limit_grams', p.limit_grams,
            'thc_mg', p.thc_mg,
            'cbd_mg', p.cbd_mg,
            'servings', p.servings,
            'metrc_package_tag', p.metrc_package_tag,
            'metrc_unit', p.metrc_unit,
            'brand_id', p.brand_id,
            'category_id', p.category_id,
            'product_type_id', p.product_type_id,
            'created_at', p.created_at,
            'updated_at', p.updated_at,
            '_modified', to_char(p._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            '_deleted', false,
            'brand', (
              select jsonb_build_object('id', b.id, 'name', b.name, 'slug', b.slug)
              from brands b where b.id = p.brand_id
            ),
            'category', (
              select jsonb_build_object('id', c.id, 'name', c.name, 'slug', c.slug)
              from categories c where c.id = p.category_id
            ),
            'product_type', (
              select jsonb_build_object('id', t.id, 'name', t.name)
              from product_types t where t.id = p.product_type_id
            ),
            'product_media', coalesce((
              select jsonb_agg(
                jsonb_build_object(
                  'id', m.id,
                  'media_url', m.media_url,
                  'media_type', m.media_type,
                  'is_primary', m.is_primary,
                  'display_order', m.display_order
                )
                order by m.display_order, m.id
              )
              from product_media m
              where m.product_id = p.id and not m._deleted
            ), '[]'::jsonb),
            'product_effects', coalesce((
              select jsonb_agg(jsonb_build_object('id', e.id, 'effect_name', e.effect_name) order by e.effect_name, e.id)
              from product_effects e
              where e.product_id = p.id and not e._deleted
            ), '[]'::jsonb),
            'terpene_profiles', coalesce((
              select jsonb_agg(
                jsonb_build_object('id', tp.id, 'terpene_name', tp.terpene_name, 'percentage', tp.percentage)
                order by tp.percentage desc nulls last, tp.terpene_name, tp.id
              )
              from terpene_profiles tp
              where tp.product_id = p.id and not tp._deleted
            ), '[]'::jsonb)
          )
        else
          jsonb_build_object(
            'id', p.id,
            '_modified', to_char(p._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            '_deleted', true)
        end as doc
      from (select 'rows' as part, id from ahead union all select 'behind' as part, id from behind) k
      join products p on p.id = k.id
    )
    select jsonb_build_object(
      'rows', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'rows'), '[]'::jsonb),
      'behind', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'behind'), '[]'::jsonb)
    )
  );
end;
$$;

revoke execute on function public.pull_products_admin_page(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;
