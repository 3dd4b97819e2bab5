-- The admin's catalogue on the device, and imports in one transaction:
--
--   pull_products_admin(): the checkpointed product pull of pull_products (same parameters and
--     {rows, behind} result), but for admin devices: inactive products come whole (with is_active
--     and the brand, category and type ids the product form edits); only a deleted product is a
--     tombstone. The Products tab reads it from the device, so it works offline. Admins only.
--
--   admin_import_products(p_rows): Import Products and Bulk Edit. Every element is a product in
--     admin_save_product's shape; all are saved or none (the first refusal aborts the whole call,
--     and its message names the row: "Row 3 (SKU FLW-00003): Price must be at least 0").
--
--   Renaming a brand, category or product type moves the _modified of its products, because the
--   pulled product documents embed those names; otherwise devices would keep the old name until
--   the product itself changed.

create or replace function public.pull_products_admin(
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
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
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

revoke execute on function public.pull_products_admin(timestamptz, uuid, integer, timestamptz) from public, anon;
grant execute on function public.pull_products_admin(timestamptz, uuid, integer, timestamptz) to authenticated, service_role;

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
  v_ids jsonb := '[]'::jsonb;
  v_created integer := 0;
  v_state text;
  v_message text;
  v_sku text;
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

  for v_row, v_n in select value, ordinality from jsonb_array_elements(p_rows) with ordinality loop
    v_sku := case when jsonb_typeof(v_row) = 'object' then nullif(trim(coalesce(v_row ->> 'sku', '')), '') end;
    begin
      v_saved := public.admin_save_product(v_row);
    exception when others then
      -- Re-raised with the row named; the exception leaves the function, so every row saved
      -- before this one is rolled back with it.
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text;
      raise exception 'Row %: %', v_n || coalesce(' (SKU ' || v_sku || ')', ''), v_message
        using errcode = v_state;
    end;
    v_ids := v_ids || jsonb_build_array(v_saved -> 'id');
    if (v_saved ->> 'created')::boolean then
      v_created := v_created + 1;
    end if;
  end loop;

  return jsonb_build_object(
    'count', jsonb_array_length(v_ids),
    'created', v_created,
    'updated', jsonb_array_length(v_ids) - v_created,
    'ids', v_ids
  );
end;
$$;

revoke execute on function public.admin_import_products(jsonb) from public, anon;
grant execute on function public.admin_import_products(jsonb) to authenticated, service_role;

-- Renames reach the products that embed the name (see the header).
create or replace function public.touch_products_of_reference()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  if new.name is distinct from old.name then
    execute format(
      'update public.products set _modified = clock_timestamp() where %I = $1 and not _deleted',
      tg_argv[0]
    ) using new.id;
  end if;
  return null;
end;
$$;

revoke execute on function public.touch_products_of_reference() from public, anon, authenticated;

create trigger categories_touch_products
  after update of name on public.categories
  for each row execute function public.touch_products_of_reference('category_id');

create trigger brands_touch_products
  after update of name on public.brands
  for each row execute function public.touch_products_of_reference('brand_id');

create trigger product_types_touch_products
  after update of name on public.product_types
  for each row execute function public.touch_products_of_reference('product_type_id');
