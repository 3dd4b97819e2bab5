-- What the law needs to know of each product (issue 31, docs/decisions/051), in the admin's hands:
-- migration 20261128100100 gave products is_cannabis, limit_class, limit_grams, thc_mg, cbd_mg
-- and servings; here the product save, the admin catalogue pull and Import Products (all three
-- of its paths: the row-by-row check, the set-based one and the one the embedded server prepares,
-- decision 047) take and give them, with the same checks and messages.
--
-- A product left without them (a save or an import row that does not name them) keeps what it
-- has; a new one is cannabis (the excise applies), counted toward no daily limit, with no
-- milligrams: the columns' defaults. Each value is checked on its own in the table's column
-- order (after the columns before them, as an insert or update evaluates them), then the facts
-- together as the product stands once saved: only cannabis counts toward a daily limit, and a
-- product that does must have grams to count (its limit grams, else its weight).
--
-- Every function below is the latest version of the one it replaces, with the facts added:
--   admin_save_product               20261122202200_create_admin_save_product
--   pull_products_admin_page         20261122202900_create_admin_catalogue (renamed by 20261123090000)
--   product_import_stage_row         20261126130200_staged_product_import
--   product_import_stage_plain_rows  20261126130200_staged_product_import
--   product_import_stage_prepared    20261126170000_prepared_import_staging
--   product_import_apply_step        20261126170100_smaller_import_steps

-- The daily limit a product counts toward: 'flower', 'concentrate', or none (null or ''). Internal.
create or replace function public.product_input_limit_class(p_value jsonb)
returns text
language plpgsql
immutable
set search_path = public
as $$
begin
  if p_value is null or jsonb_typeof(p_value) = 'null' then
    return null;
  end if;
  if jsonb_typeof(p_value) = 'string' and (p_value #>> '{}') in ('', 'flower', 'concentrate') then
    return nullif(p_value #>> '{}', '');
  end if;
  raise exception 'Daily limit must be flower, concentrate or none';
end;
$$;

revoke execute on function public.product_input_limit_class(jsonb) from public, anon, authenticated;

-- Servings per package: a whole number from 1 to 1000, or null. Internal.
create or replace function public.product_input_servings(p_value jsonb)
returns integer
language plpgsql
immutable
set search_path = public
as $$
declare
  v numeric;
begin
  if p_value is null or jsonb_typeof(p_value) = 'null' then
    return null;
  end if;
  if jsonb_typeof(p_value) <> 'number' then
    raise exception 'Servings per package must be a number';
  end if;
  v := (p_value #>> '{}')::numeric;
  if v <> trunc(v) or v < 1 or v > 1000 then
    raise exception 'Servings per package must be a whole number from 1 to 1000';
  end if;
  return v::integer;
end;
$$;

revoke execute on function public.product_input_servings(jsonb) from public, anon, authenticated;

-- The facts together: only cannabis counts toward a daily limit, and a product that counts toward
-- one has grams to count (place_order counts limit_grams, else weight_grams, per unit). Internal.
create or replace function public.product_facts_check(
  p_is_cannabis boolean,
  p_limit_class text,
  p_limit_grams numeric,
  p_weight_grams numeric
)
returns void
language plpgsql
immutable
set search_path = public
as $$
begin
  if p_limit_class is null then
    return;
  end if;
  if p_is_cannabis is false then
    raise exception 'A product that is not cannabis counts toward no daily limit: choose None';
  end if;
  if coalesce(p_limit_grams, p_weight_grams, 0) <= 0 then
    raise exception 'A product that counts toward the % limit needs the grams counted per unit (or its weight)',
      p_limit_class;
  end if;
end;
$$;

revoke execute on function public.product_facts_check(boolean, text, numeric, numeric) from public, anon, authenticated;

-- The product save: admin_save_product of 20261122202200 with the facts (see the header).
create or replace function public.admin_save_product(p_product jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  p jsonb := p_product;
  v_id uuid;
  v_creating boolean;
  v_current public.products;
  v_sku text;
  v_name text;
  v_slug text;
  v_unlimited boolean;
  v_quantity numeric;
  v_media_count integer;
  v_entry jsonb;
  v_n integer;
  v_media_id uuid;
  v_media_url text;
  v_media_type text;
  v_kept uuid[] := '{}';
  v_primary_id uuid;
  v_names text[];
  v_terpene record;
  v_saved public.products;
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p is null or jsonb_typeof(p) <> 'object' then
    raise exception 'The product must be a JSON object' using errcode = '22023';
  end if;

  -- create or update ---------------------------------------------------------------------------
  if p ? 'id' and jsonb_typeof(p -> 'id') = 'string' then
    begin
      v_id := (p ->> 'id')::uuid;
    exception when invalid_text_representation then
      raise exception 'Product with ID % not found', p ->> 'id';
    end;
  end if;
  v_creating := v_id is null or coalesce(public.product_input_flag(p -> 'is_new', 'is_new'), false);
  if v_id is null then
    v_id := gen_random_uuid();
  end if;
  select * into v_current from public.products where id = v_id for update;
  if v_creating and found and not v_current._deleted then
    v_creating := false; -- the retry of a create that already went through
  end if;
  if v_creating and found then
    raise exception 'Product with ID % not found', v_id; -- a deleted product's id is not reusable
  end if;
  if not v_creating and (not found or v_current._deleted) then
    raise exception 'Product with ID % not found', v_id;
  end if;

  -- fields -------------------------------------------------------------------------------------
  if v_creating or p ? 'sku' then
    v_sku := trim(coalesce(p ->> 'sku', ''));
    if v_sku = '' then
      raise exception 'SKU is required';
    end if;
  else
    v_sku := v_current.sku;
  end if;
  if v_creating or p ? 'name' then
    v_name := trim(coalesce(p ->> 'name', ''));
    if v_name = '' then
      raise exception 'Product name is required';
    end if;
  else
    v_name := v_current.name;
  end if;
  if exists (select 1 from public.products where sku = v_sku and id <> v_id and not _deleted) then
    raise exception 'SKU % already exists for another product', v_sku;
  end if;

  if nullif(trim(coalesce(p ->> 'slug', '')), '') is not null then
    v_slug := public.unique_slug('products', p ->> 'slug', v_id);
  elsif v_creating then
    v_slug := public.unique_slug('products', v_name, v_id);
  else
    v_slug := v_current.slug;
  end if;

  v_unlimited := coalesce(
    public.product_input_flag(p -> 'is_unlimited_quantity', 'Unlimited stock'),
    case when v_creating then false else v_current.is_unlimited_quantity end
  );
  v_quantity := case
    when v_unlimited then null
    when v_creating or p ? 'quantity_available' then
      public.product_input_number(p -> 'quantity_available', 'Quantity', null, true)
    else v_current.quantity_available
  end;

  -- media rule before anything is written --------------------------------------------------------
  if p ? 'media' and jsonb_typeof(p -> 'media') not in ('array', 'null') then
    raise exception 'media must be a list' using errcode = '22023';
  end if;
  if p ? 'media' and jsonb_typeof(p -> 'media') = 'array' then
    v_media_count := jsonb_array_length(p -> 'media');
  elsif v_creating then
    v_media_count := 0;
  else
    select count(*) into v_media_count from public.product_media where product_id = v_id and not _deleted;
  end if;
  if v_media_count = 0 then
    if v_creating then
      raise exception 'Please upload at least one product image or video';
    end if;
    raise exception 'Product must have at least one image or video';
  end if;

  -- the product row ----------------------------------------------------------------------------
  if v_creating then
    insert into public.products (
      id, sku, name, slug, description, brand_id, category_id, product_type_id, price,
      original_price, weight_grams, quantity_available, is_unlimited_quantity, thc_percentage,
      cbd_percentage, total_cannabinoids_percentage, smokeback_percentage, is_on_sale, is_active,
      is_featured, is_cannabis, limit_class, limit_grams, thc_mg, cbd_mg, servings
    ) values (
      v_id, v_sku, v_name, v_slug,
      public.order_input_text(p -> 'description', 'Description', 50000, false),
      public.product_input_reference(p -> 'brand_id', 'brands', 'Brand'),
      public.product_input_reference(p -> 'category_id', 'categories', 'Category'),
      public.product_input_reference(p -> 'product_type_id', 'product_types', 'Product type'),
      public.product_input_number(p -> 'price', 'Price'),
      public.product_input_number(p -> 'original_price', 'Original price'),
      public.product_input_number(p -> 'weight_grams', 'Weight'),
      v_quantity,
      v_unlimited,
      public.product_input_number(p -> 'thc_percentage', 'THC percentage', 100),
      public.product_input_number(p -> 'cbd_percentage', 'CBD percentage', 100),
      public.product_input_number(p -> 'total_cannabinoids_percentage', 'Total cannabinoids percentage', 100),
      public.product_input_number(p -> 'smokeback_percentage', 'Smokeback percentage', 100),
      coalesce(public.product_input_flag(p -> 'is_on_sale', 'On sale'), false),
      coalesce(public.product_input_flag(p -> 'is_active', 'Active'), true),
      coalesce(public.product_input_flag(p -> 'is_featured', 'Featured'), false),
      -- Left out: cannabis (the column's default), counted toward no daily limit, no milligrams.
      coalesce(public.product_input_flag(p -> 'is_cannabis', 'Cannabis product'), true),
      public.product_input_limit_class(p -> 'limit_class'),
      public.product_input_number(p -> 'limit_grams', 'Grams counted toward the daily limit', 100000),
      public.product_input_number(p -> 'thc_mg', 'THC mg per package', 100000),
      public.product_input_number(p -> 'cbd_mg', 'CBD mg per package', 100000),
      public.product_input_servings(p -> 'servings')
    )
    returning * into v_saved;
  else
    update public.products set
      sku = v_sku,
      name = v_name,
      slug = v_slug,
      description = case when p ? 'description'
        then public.order_input_text(p -> 'description', 'Description', 50000, false) else description end,
      brand_id = case when p ? 'brand_id'
        then public.product_input_reference(p -> 'brand_id', 'brands', 'Brand') else brand_id end,
      category_id = case when p ? 'category_id'
        then public.product_input_reference(p -> 'category_id', 'categories', 'Category') else category_id end,
      product_type_id = case when p ? 'product_type_id'
        then public.product_input_reference(p -> 'product_type_id', 'product_types', 'Product type') else product_type_id end,
      price = case when p ? 'price' then public.product_input_number(p -> 'price', 'Price') else price end,
      original_price = case when p ? 'original_price'
        then public.product_input_number(p -> 'original_price', 'Original price') else original_price end,
      weight_grams = case when p ? 'weight_grams'
        then public.product_input_number(p -> 'weight_grams', 'Weight') else weight_grams end,
      quantity_available = v_quantity,
      is_unlimited_quantity = v_unlimited,
      thc_percentage = case when p ? 'thc_percentage'
        then public.product_input_number(p -> 'thc_percentage', 'THC percentage', 100) else thc_percentage end,
      cbd_percentage = case when p ? 'cbd_percentage'
        then public.product_input_number(p -> 'cbd_percentage', 'CBD percentage', 100) else cbd_percentage end,
      total_cannabinoids_percentage = case when p ? 'total_cannabinoids_percentage'
        then public.product_input_number(p -> 'total_cannabinoids_percentage', 'Total cannabinoids percentage', 100)
        else total_cannabinoids_percentage end,
      smokeback_percentage = case when p ? 'smokeback_percentage'
        then public.product_input_number(p -> 'smokeback_percentage', 'Smokeback percentage', 100)
        else smokeback_percentage end,
      is_on_sale = coalesce(public.product_input_flag(p -> 'is_on_sale', 'On sale'), is_on_sale),
      is_active = coalesce(public.product_input_flag(p -> 'is_active', 'Active'), is_active),
      is_featured = coalesce(public.product_input_flag(p -> 'is_featured', 'Featured'), is_featured),
      -- Left out, each keeps what the product has.
      is_cannabis = coalesce(public.product_input_flag(p -> 'is_cannabis', 'Cannabis product'), is_cannabis),
      limit_class = case when p ? 'limit_class'
        then public.product_input_limit_class(p -> 'limit_class') else limit_class end,
      limit_grams = case when p ? 'limit_grams'
        then public.product_input_number(p -> 'limit_grams', 'Grams counted toward the daily limit', 100000)
        else limit_grams end,
      thc_mg = case when p ? 'thc_mg'
        then public.product_input_number(p -> 'thc_mg', 'THC mg per package', 100000) else thc_mg end,
      cbd_mg = case when p ? 'cbd_mg'
        then public.product_input_number(p -> 'cbd_mg', 'CBD mg per package', 100000) else cbd_mg end,
      servings = case when p ? 'servings' then public.product_input_servings(p -> 'servings') else servings end
    where id = v_id and not _deleted
    returning * into v_saved;
    if not found then
      raise exception 'Failed to update product with ID % - no rows affected', v_id;
    end if;
  end if;
  -- The facts together, as the row now stands (a key left out kept its value).
  perform public.product_facts_check(v_saved.is_cannabis, v_saved.limit_class, v_saved.limit_grams,
    v_saved.weight_grams);

  -- effects: kept by name, new ones added, the rest soft-deleted ---------------------------------
  if jsonb_typeof(p -> 'effects') = 'array' then
    select coalesce(array_agg(name order by first_at), '{}') into v_names
      from (
        select trim(value) as name, min(ordinality) as first_at
          from jsonb_array_elements_text(p -> 'effects') with ordinality
         where length(trim(value)) > 0
         group by trim(value)
      ) e;
    update public.product_effects set _deleted = true
     where product_id = v_id and not _deleted and effect_name <> all (v_names);
    insert into public.product_effects (product_id, effect_name)
    select v_id, n from unnest(v_names) as n
     where not exists (
       select 1 from public.product_effects e
        where e.product_id = v_id and not e._deleted and e.effect_name = n
     );
  end if;

  -- terpenes: blank names dropped (SPEC.md §5), percentages updated in place --------------------
  if jsonb_typeof(p -> 'terpenes') = 'array' then
    v_names := '{}';
    for v_terpene in
      select trim(coalesce(t ->> 'name', t ->> 'terpene_name', '')) as name, t -> 'percentage' as percentage
        from jsonb_array_elements(p -> 'terpenes') as t
       where jsonb_typeof(t) = 'object'
    loop
      continue when v_terpene.name = '' or v_terpene.name = any (v_names);
      v_names := v_names || v_terpene.name;
      update public.terpene_profiles
         set percentage = public.product_input_number(v_terpene.percentage, 'Terpene percentage', 100)
       where product_id = v_id and not _deleted and terpene_name = v_terpene.name;
      if not found then
        insert into public.terpene_profiles (product_id, terpene_name, percentage)
        values (v_id, v_terpene.name, public.product_input_number(v_terpene.percentage, 'Terpene percentage', 100));
      end if;
    end loop;
    update public.terpene_profiles set _deleted = true
     where product_id = v_id and not _deleted and terpene_name <> all (v_names);
  end if;

  -- media ----------------------------------------------------------------------------------------
  if jsonb_typeof(p -> 'media') = 'array' then
    for v_entry, v_n in
      select value, ordinality from jsonb_array_elements(p -> 'media') with ordinality
    loop
      if jsonb_typeof(v_entry) <> 'object' then
        raise exception 'Each media entry must be an object with media_url' using errcode = '22023';
      end if;
      v_media_url := public.order_input_text(v_entry -> 'media_url', 'Media URL', 1000);
      v_media_type := coalesce(
        nullif(v_entry ->> 'media_type', ''),
        case when v_media_url ~* '\.(mp4|webm|mov)(\?.*)?$' then 'video' else 'image' end
      );
      if v_media_type not in ('image', 'video') then
        raise exception 'Media type must be image or video';
      end if;
      v_media_id := null;
      if jsonb_typeof(v_entry -> 'id') = 'string' then
        begin
          v_media_id := (v_entry ->> 'id')::uuid;
        exception when invalid_text_representation then
          raise exception 'Media id % is not a UUID', v_entry ->> 'id' using errcode = '22023';
        end;
        if exists (select 1 from public.product_media where id = v_media_id and product_id <> v_id) then
          raise exception 'Media % belongs to another product', v_media_id;
        end if;
      else
        -- An entry for a file already attached (same path) is that row, not a second one.
        select id into v_media_id from public.product_media
         where product_id = v_id and media_url = v_media_url and not _deleted
         order by display_order, id limit 1;
      end if;
      if v_media_id = any (v_kept) then
        raise exception 'Media % is listed twice', v_media_id using errcode = '22023';
      end if;
      insert into public.product_media (id, product_id, media_url, media_type, is_primary, display_order, _deleted)
      values (
        coalesce(v_media_id, gen_random_uuid()), v_id, v_media_url, v_media_type,
        coalesce(public.product_input_flag(v_entry -> 'is_primary', 'Primary'), false),
        coalesce(public.product_input_number(v_entry -> 'display_order', 'Display order', null, true)::integer, v_n - 1),
        false
      )
      on conflict (id) do update set
        media_url = excluded.media_url,
        media_type = excluded.media_type,
        is_primary = excluded.is_primary,
        display_order = excluded.display_order,
        _deleted = false
      returning id into v_media_id;
      v_kept := v_kept || v_media_id;
    end loop;
    update public.product_media set _deleted = true, is_primary = false
     where product_id = v_id and not _deleted and id <> all (v_kept);
  end if;

  -- Exactly one primary: the first marked one, else the first by display order.
  select id into v_primary_id from public.product_media
   where product_id = v_id and not _deleted
   order by is_primary desc, display_order, created_at, id
   limit 1;
  update public.product_media set is_primary = (id = v_primary_id)
   where product_id = v_id and not _deleted and is_primary is distinct from (id = v_primary_id);

  return (
    select jsonb_build_object(
      'id', pr.id,
      'slug', pr.slug,
      'sku', pr.sku,
      'created', v_creating,
      '_modified', to_char(pr._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      'product', to_jsonb(pr) - '_deleted' - '_modified',
      'product_media', coalesce((
        select jsonb_agg(jsonb_build_object(
          'id', m.id, 'media_url', m.media_url, 'media_type', m.media_type,
          'is_primary', m.is_primary, 'display_order', m.display_order
        ) order by m.display_order, m.id)
        from public.product_media m where m.product_id = pr.id and not m._deleted
      ), '[]'::jsonb),
      'product_effects', coalesce((
        select jsonb_agg(jsonb_build_object('id', e.id, 'effect_name', e.effect_name) order by e.effect_name, e.id)
        from public.product_effects e where e.product_id = pr.id and not e._deleted
      ), '[]'::jsonb),
      'terpene_profiles', coalesce((
        select jsonb_agg(jsonb_build_object('id', t.id, 'terpene_name', t.terpene_name, 'percentage', t.percentage)
          order by t.percentage desc nulls last, t.terpene_name, t.id)
        from public.terpene_profiles t where t.product_id = pr.id and not t._deleted
      ), '[]'::jsonb)
    )
    from public.products pr where pr.id = v_id
  );
end;
$$;

revoke execute on function public.admin_save_product(jsonb) from public, anon;
grant execute on function public.admin_save_product(jsonb) to authenticated, service_role;

-- The admin catalogue's pull (pull_products_admin wraps it with read_at, 20261123090000) gains the
-- facts; otherwise 20261122202900's body.
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
            'is_cannabis', p.is_cannabis,
            'limit_class', p.limit_class,
            'limit_grams', p.limit_grams,
            'thc_mg', p.thc_mg,
            'cbd_mg', p.cbd_mg,
            'servings', p.servings,
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

-- Import Products' row-by-row check (20261126130200) with the facts, at the point admin_save_product
-- checks them.
create or replace function public.product_import_stage_row(p_import uuid, p_n integer, p_row jsonb)
returns void
language plpgsql
security definer
set search_path = public
-- As 20261126170100 set it (create or replace takes a function's settings from its definition).
set plan_cache_mode = auto
as $$
declare
  p jsonb := p_row;
  v_id uuid;
  v_creating boolean;
  v_staged private.product_import_rows;
  v_is_staged boolean;
  v_real public.products;
  v_is_real boolean;
  v_cur jsonb;
  v_sku text;
  v_name text;
  v_slug text;
  v_unlimited boolean;
  v_quantity numeric;
  v_media_count integer;
  v_f jsonb := '{}'::jsonb;
  v_number numeric;
  v_effects text[];
  v_terpenes jsonb;
  v_terpene record;
  v_names text[];
  v_media jsonb;
  v_media_ids uuid[];
  v_entry jsonb;
  v_n integer;
  v_media_id uuid;
  v_media_url text;
  v_media_type text;
  v_kept uuid[] := '{}';
  -- The product's live media as the list's entries so far leave them: id, url, display order.
  v_have_ids uuid[];
  v_have_urls text[];
  v_have_orders integer[];
  v_at integer;
  v_is_primary boolean;
  v_order integer;
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    raise exception 'The product must be a JSON object' using errcode = '22023';
  end if;

  -- create or update ---------------------------------------------------------------------------
  if p ? 'id' and jsonb_typeof(p -> 'id') = 'string' then
    begin
      v_id := (p ->> 'id')::uuid;
    exception when invalid_text_representation then
      raise exception 'Product with ID % not found', p ->> 'id';
    end;
  end if;
  v_creating := v_id is null or coalesce(public.product_input_flag(p -> 'is_new', 'is_new'), false);
  if v_id is null then
    v_id := gen_random_uuid();
  end if;
  select * into v_staged from private.product_import_rows
   where import_id = p_import and product_id = v_id and not superseded;
  v_is_staged := found;
  select * into v_real from public.products where id = v_id;
  v_is_real := found;
  if v_creating and (v_is_staged or (v_is_real and not v_real._deleted)) then
    v_creating := false; -- the retry of a create that already went through
  end if;
  if v_creating and v_is_real then
    raise exception 'Product with ID % not found', v_id; -- a deleted product's id is not reusable
  end if;
  if not v_creating and not v_is_staged and (not v_is_real or v_real._deleted) then
    raise exception 'Product with ID % not found', v_id;
  end if;
  -- The product as the earlier rows leave it (nothing when creating).
  if not v_creating then
    v_cur := case when v_is_real then to_jsonb(v_real) else '{}'::jsonb end;
    if v_is_staged then
      v_cur := v_cur || v_staged.fields || jsonb_build_object('sku', v_staged.sku, 'slug', v_staged.slug);
    end if;
  end if;

  -- fields -------------------------------------------------------------------------------------
  if v_creating or p ? 'sku' then
    v_sku := trim(coalesce(p ->> 'sku', ''));
    if v_sku = '' then
      raise exception 'SKU is required';
    end if;
    v_f := v_f || jsonb_build_object('sku', v_sku);
  else
    v_sku := v_cur ->> 'sku';
  end if;
  if v_creating or p ? 'name' then
    v_name := trim(coalesce(p ->> 'name', ''));
    if v_name = '' then
      raise exception 'Product name is required';
    end if;
    v_f := v_f || jsonb_build_object('name', v_name);
  else
    v_name := v_cur ->> 'name';
  end if;
  if exists (
    select 1 from private.product_import_rows r
     where r.import_id = p_import and not r.superseded and r.sku = v_sku and r.product_id <> v_id
  ) or exists (
    select 1 from public.products pr
     where pr.sku = v_sku and pr.id <> v_id and not pr._deleted
       and not exists (
         select 1 from private.product_import_rows r
          where r.import_id = p_import and not r.superseded and r.product_id = pr.id
       )
  ) then
    raise exception 'SKU % already exists for another product', v_sku;
  end if;

  if nullif(trim(coalesce(p ->> 'slug', '')), '') is not null then
    v_slug := public.product_import_slug(p_import, p ->> 'slug', v_id);
  elsif v_creating then
    v_slug := public.product_import_slug(p_import, v_name, v_id);
  else
    v_slug := v_cur ->> 'slug';
  end if;
  if v_slug is distinct from v_cur ->> 'slug' then
    -- The products table's own rule (a slug cut at 80 characters may end in '-').
    if v_slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' then
      raise exception 'new row for relation "products" violates check constraint "products_slug_check"'
        using errcode = '23514';
    end if;
    v_f := v_f || jsonb_build_object('slug', v_slug);
  end if;

  v_unlimited := coalesce(
    public.product_input_flag(p -> 'is_unlimited_quantity', 'Unlimited stock'),
    case when v_creating then false else (v_cur ->> 'is_unlimited_quantity')::boolean end
  );
  v_quantity := case
    when v_unlimited then null
    when v_creating or p ? 'quantity_available' then
      public.product_input_number(p -> 'quantity_available', 'Quantity', null, true)
    else (v_cur ->> 'quantity_available')::numeric
  end;

  -- media rule before anything is written --------------------------------------------------------
  if p ? 'media' and jsonb_typeof(p -> 'media') not in ('array', 'null') then
    raise exception 'media must be a list' using errcode = '22023';
  end if;
  if p ? 'media' and jsonb_typeof(p -> 'media') = 'array' then
    v_media_count := jsonb_array_length(p -> 'media');
  elsif v_creating then
    v_media_count := 0;
  elsif v_is_staged and v_staged.media is not null then
    v_media_count := jsonb_array_length(v_staged.media);
  else
    select count(*) into v_media_count from public.product_media where product_id = v_id and not _deleted;
  end if;
  if v_media_count = 0 then
    if v_creating then
      raise exception 'Please upload at least one product image or video';
    end if;
    raise exception 'Product must have at least one image or video';
  end if;

  -- the product's columns, checked in the table's column order as the insert or update would ----
  if v_creating or p ? 'description' then
    v_f := v_f || jsonb_build_object('description',
      public.order_input_text(p -> 'description', 'Description', 50000, false));
  end if;
  if v_creating or p ? 'price' then
    v_number := public.product_input_number(p -> 'price', 'Price')::numeric(10, 2);
    v_f := v_f || jsonb_build_object('price', v_number);
  end if;
  if v_creating or p ? 'original_price' then
    v_number := public.product_input_number(p -> 'original_price', 'Original price')::numeric(10, 2);
    v_f := v_f || jsonb_build_object('original_price', v_number);
  end if;
  -- Left out of the change unless set: an order taking stock while the import is staged must not
  -- be undone by it.
  v_number := v_quantity::integer;
  if v_creating or p ? 'quantity_available' or v_unlimited then
    v_f := v_f || jsonb_build_object('quantity_available', v_number::integer);
  end if;
  if v_creating or public.product_input_flag(p -> 'is_unlimited_quantity', 'Unlimited stock') is not null then
    v_f := v_f || jsonb_build_object('is_unlimited_quantity', v_unlimited);
  end if;
  v_f := v_f || jsonb_strip_nulls(jsonb_build_object(
    'is_active', coalesce(public.product_input_flag(p -> 'is_active', 'Active'), case when v_creating then true end),
    'is_on_sale', coalesce(public.product_input_flag(p -> 'is_on_sale', 'On sale'), case when v_creating then false end),
    'is_featured', coalesce(public.product_input_flag(p -> 'is_featured', 'Featured'), case when v_creating then false end)
  ));
  if v_creating or p ? 'thc_percentage' then
    v_f := v_f || jsonb_build_object('thc_percentage',
      public.product_input_number(p -> 'thc_percentage', 'THC percentage', 100)::numeric(5, 2));
  end if;
  if v_creating or p ? 'cbd_percentage' then
    v_f := v_f || jsonb_build_object('cbd_percentage',
      public.product_input_number(p -> 'cbd_percentage', 'CBD percentage', 100)::numeric(5, 2));
  end if;
  if v_creating or p ? 'total_cannabinoids_percentage' then
    v_f := v_f || jsonb_build_object('total_cannabinoids_percentage',
      public.product_input_number(p -> 'total_cannabinoids_percentage', 'Total cannabinoids percentage', 100)::numeric(5, 2));
  end if;
  if v_creating or p ? 'smokeback_percentage' then
    v_f := v_f || jsonb_build_object('smokeback_percentage',
      public.product_input_number(p -> 'smokeback_percentage', 'Smokeback percentage', 100)::numeric(5, 2));
  end if;
  if v_creating or p ? 'weight_grams' then
    v_f := v_f || jsonb_build_object('weight_grams',
      public.product_input_number(p -> 'weight_grams', 'Weight')::numeric(10, 2));
  end if;
  if v_creating or p ? 'brand_id' then
    v_f := v_f || jsonb_build_object('brand_id',
      public.product_input_reference(p -> 'brand_id', 'brands', 'Brand'));
  end if;
  if v_creating or p ? 'category_id' then
    v_f := v_f || jsonb_build_object('category_id',
      public.product_input_reference(p -> 'category_id', 'categories', 'Category'));
  end if;
  if v_creating or p ? 'product_type_id' then
    v_f := v_f || jsonb_build_object('product_type_id',
      public.product_input_reference(p -> 'product_type_id', 'product_types', 'Product type'));
  end if;
  -- What the law needs to know, after the columns above as in the table (and admin_save_product).
  v_f := v_f || jsonb_strip_nulls(jsonb_build_object(
    'is_cannabis', coalesce(public.product_input_flag(p -> 'is_cannabis', 'Cannabis product'),
                            case when v_creating then true end)
  ));
  if v_creating or p ? 'limit_class' then
    v_f := v_f || jsonb_build_object('limit_class', public.product_input_limit_class(p -> 'limit_class'));
  end if;
  if v_creating or p ? 'limit_grams' then
    v_f := v_f || jsonb_build_object('limit_grams',
      public.product_input_number(p -> 'limit_grams', 'Grams counted toward the daily limit', 100000)::numeric(10, 3));
  end if;
  if v_creating or p ? 'thc_mg' then
    v_f := v_f || jsonb_build_object('thc_mg',
      public.product_input_number(p -> 'thc_mg', 'THC mg per package', 100000)::numeric(8, 2));
  end if;
  if v_creating or p ? 'cbd_mg' then
    v_f := v_f || jsonb_build_object('cbd_mg',
      public.product_input_number(p -> 'cbd_mg', 'CBD mg per package', 100000)::numeric(8, 2));
  end if;
  if v_creating or p ? 'servings' then
    v_f := v_f || jsonb_build_object('servings', public.product_input_servings(p -> 'servings'));
  end if;
  -- The facts together, as the product stands once this row is saved.
  perform public.product_facts_check(
    coalesce((v_f ->> 'is_cannabis')::boolean, (v_cur ->> 'is_cannabis')::boolean, true),
    case when v_f ? 'limit_class' then v_f ->> 'limit_class' else v_cur ->> 'limit_class' end,
    case when v_f ? 'limit_grams' then (v_f ->> 'limit_grams')::numeric else (v_cur ->> 'limit_grams')::numeric end,
    case when v_f ? 'weight_grams' then (v_f ->> 'weight_grams')::numeric else (v_cur ->> 'weight_grams')::numeric end
  );

  -- effects: trimmed, blank and repeated names dropped -------------------------------------------
  if jsonb_typeof(p -> 'effects') = 'array' then
    select coalesce(array_agg(name order by first_at), '{}') into v_effects
      from (
        select trim(value) as name, min(ordinality) as first_at
          from jsonb_array_elements_text(p -> 'effects') with ordinality
         where length(trim(value)) > 0
         group by trim(value)
      ) e;
  end if;

  -- terpenes: blank and repeated names dropped (SPEC.md §5) --------------------------------------
  if jsonb_typeof(p -> 'terpenes') = 'array' then
    v_names := '{}';
    v_terpenes := '[]'::jsonb;
    for v_terpene in
      select trim(coalesce(t ->> 'name', t ->> 'terpene_name', '')) as name, t -> 'percentage' as percentage
        from jsonb_array_elements(p -> 'terpenes') as t
       where jsonb_typeof(t) = 'object'
    loop
      continue when v_terpene.name = '' or v_terpene.name = any (v_names);
      v_names := v_names || v_terpene.name;
      v_terpenes := v_terpenes || jsonb_build_array(jsonb_build_object(
        'name', v_terpene.name,
        'percentage', public.product_input_number(v_terpene.percentage, 'Terpene percentage', 100)::numeric(5, 2)
      ));
    end loop;
  end if;

  -- media: each entry's row decided as admin_save_product's upserts would ------------------------
  if jsonb_typeof(p -> 'media') = 'array' then
    if v_is_staged and v_staged.media is not null then
      select coalesce(array_agg((m ->> 'id')::uuid order by o), '{}'),
             coalesce(array_agg(m ->> 'media_url' order by o), '{}'),
             coalesce(array_agg((m ->> 'display_order')::integer order by o), '{}')
        into v_have_ids, v_have_urls, v_have_orders
        from jsonb_array_elements(v_staged.media) with ordinality as e (m, o);
    else
      select coalesce(array_agg(id order by display_order, id), '{}'),
             coalesce(array_agg(media_url order by display_order, id), '{}'),
             coalesce(array_agg(display_order order by display_order, id), '{}')
        into v_have_ids, v_have_urls, v_have_orders
        from public.product_media where product_id = v_id and not _deleted;
    end if;
    v_media := '[]'::jsonb;
    for v_entry, v_n in
      select value, ordinality from jsonb_array_elements(p -> 'media') with ordinality
    loop
      if jsonb_typeof(v_entry) <> 'object' then
        raise exception 'Each media entry must be an object with media_url' using errcode = '22023';
      end if;
      v_media_url := public.order_input_text(v_entry -> 'media_url', 'Media URL', 1000);
      v_media_type := coalesce(
        nullif(v_entry ->> 'media_type', ''),
        case when v_media_url ~* '\.(mp4|webm|mov)(\?.*)?$' then 'video' else 'image' end
      );
      if v_media_type not in ('image', 'video') then
        raise exception 'Media type must be image or video';
      end if;
      v_media_id := null;
      if jsonb_typeof(v_entry -> 'id') = 'string' then
        begin
          v_media_id := (v_entry ->> 'id')::uuid;
        exception when invalid_text_representation then
          raise exception 'Media id % is not a UUID', v_entry ->> 'id' using errcode = '22023';
        end;
        if exists (select 1 from public.product_media where id = v_media_id and product_id <> v_id)
           or exists (
             select 1 from private.product_import_rows r
              where r.import_id = p_import and r.media_ids is not null
                and r.media_ids @> array[v_media_id] and r.product_id <> v_id
           ) then
          raise exception 'Media % belongs to another product', v_media_id;
        end if;
        v_media_ids := coalesce(v_media_ids, '{}') || v_media_id;
      else
        -- An entry for a file already attached (same path) is that row, not a second one.
        select h.id into v_media_id
          from unnest(v_have_ids, v_have_urls, v_have_orders) as h (id, url, display_order)
         where h.url = v_media_url
         order by h.display_order, h.id
         limit 1;
      end if;
      if v_media_id = any (v_kept) then
        raise exception 'Media % is listed twice', v_media_id using errcode = '22023';
      end if;
      v_is_primary := coalesce(public.product_input_flag(v_entry -> 'is_primary', 'Primary'), false);
      v_order := coalesce(public.product_input_number(v_entry -> 'display_order', 'Display order', null, true)::integer, v_n - 1);
      v_media_id := coalesce(v_media_id, gen_random_uuid());
      v_at := array_position(v_have_ids, v_media_id);
      if v_at is null then
        v_have_ids := v_have_ids || v_media_id;
        v_have_urls := v_have_urls || v_media_url;
        v_have_orders := v_have_orders || v_order;
      else
        v_have_urls[v_at] := v_media_url;
        v_have_orders[v_at] := v_order;
      end if;
      v_kept := v_kept || v_media_id;
      v_media := v_media || jsonb_build_array(jsonb_build_object(
        'id', v_media_id, 'media_url', v_media_url, 'media_type', v_media_type,
        'is_primary', v_is_primary, 'display_order', v_order
      ));
    end loop;
  end if;

  -- staged -----------------------------------------------------------------------------------------
  if v_is_staged then
    update private.product_import_rows set superseded = true
     where import_id = p_import and n = v_staged.n;
  end if;
  insert into private.product_import_rows (
    import_id, n, label_sku, product_id, creating, is_insert, sku, slug, fields, effects, terpenes,
    media, media_ids
  ) values (
    p_import, p_n,
    case when jsonb_typeof(p_row) = 'object' then nullif(trim(coalesce(p_row ->> 'sku', '')), '') end,
    v_id, v_creating,
    case when v_is_staged then v_staged.is_insert else v_creating end,
    v_sku, v_slug,
    case when v_is_staged then v_staged.fields || v_f else v_f end,
    coalesce(v_effects, case when v_is_staged then v_staged.effects end),
    coalesce(v_terpenes, case when v_is_staged then v_staged.terpenes end),
    coalesce(v_media, case when v_is_staged then v_staged.media end),
    v_media_ids
  );
end;
$$;

revoke execute on function public.product_import_stage_row(uuid, integer, jsonb) from public, anon, authenticated;

-- The set-based staging of the SQL path (20261126130200): a row with facts is plain when each is
-- taken as it is and together they pass; anything else takes the row-by-row check.
create or replace function public.product_import_stage_plain_rows(p_import uuid, p_first integer, p_rows jsonb)
returns integer[]
language plpgsql
security definer
set search_path = public
-- As 20261126170100 set it (create or replace takes a function's settings from its definition).
set plan_cache_mode = force_custom_plan
as $$
declare
  v_careful integer[];
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
begin
  insert into private.product_import_chunk (import_id, n, r, id, sku, name, base, stem, repeated)
  select p_import, x.n, x.r, x.id, x.sku, x.name, x.base, regexp_replace(x.base, '-[0-9]+$', ''),
         -- an id, SKU or slug that more than one row of the chunk gives
         count(*) filter (where x.id is not null) over (partition by x.id) > 1
           or count(*) filter (where x.sku is not null) over (partition by x.sku) > 1
           or count(*) filter (where x.base is not null) over (partition by x.base) > 1
    from (
      select p_first + e.ordinality - 1 as n, e.value as r,
             case when jsonb_typeof(e.value -> 'id') = 'string' and (e.value ->> 'id') ~ v_uuid
               then (e.value ->> 'id')::uuid end as id,
             nullif(trim(coalesce(e.value ->> 'sku', '')), '') as sku,
             nullif(trim(coalesce(e.value ->> 'name', '')), '') as name,
             case
               when nullif(trim(coalesce(e.value ->> 'slug', '')), '') is not null
                 then left(public.slugify(e.value ->> 'slug'), 80)
               when nullif(trim(coalesce(e.value ->> 'name', '')), '') is not null
                 then left(public.slugify(trim(e.value ->> 'name')), 80)
             end as base
        from jsonb_array_elements(p_rows) with ordinality as e
       where jsonb_typeof(e.value) = 'object'
    ) x;

  update private.product_import_chunk c set plain = (
    -- a new product: no id, or a new id with is_new
    (case
       when jsonb_typeof(c.r -> 'id') is distinct from 'string' then
         c.r -> 'is_new' is null or jsonb_typeof(c.r -> 'is_new') in ('null', 'boolean')
       else c.id is not null and c.r -> 'is_new' = 'true'::jsonb
         and not exists (select 1 from public.products p where p.id = c.id)
         and not exists (select 1 from private.product_import_rows s
                          where s.import_id = p_import and s.product_id = c.id)
     end)
    -- SKU and name given; the SKU nobody's, in the catalogue, the import or the chunk
    and c.sku is not null and c.name is not null
    and not exists (select 1 from public.products p where p.sku = c.sku and not p._deleted)
    and not exists (select 1 from private.product_import_rows s
                     where s.import_id = p_import and not s.superseded and s.sku = c.sku)
    and not c.repeated
    -- the slug free as it is, and not one another row's unique_slug could come to
    and c.base ~ '^[a-z0-9]+(-[a-z0-9]+)*$'
    and not exists (select 1 from public.products p where p.slug = c.base and not p._deleted)
    and not exists (select 1 from private.product_import_rows s
                     where s.import_id = p_import and not s.superseded and s.slug = c.base)
    and (c.stem = c.base
         or c.stem not in (select o.base from private.product_import_chunk o
                            where o.import_id = p_import and o.base is not null))
    -- values admin_save_product takes as they are
    and (c.r -> 'is_unlimited_quantity' is null or jsonb_typeof(c.r -> 'is_unlimited_quantity') in ('null', 'boolean'))
    and (c.r -> 'is_unlimited_quantity' = 'true'::jsonb
         or public.product_import_number_ok(c.r -> 'quantity_available', null, true, 2147483648))
    and (c.r -> 'description' is null or jsonb_typeof(c.r -> 'description') = 'null'
         or (jsonb_typeof(c.r -> 'description') = 'string' and length(c.r ->> 'description') <= 50000))
    and public.product_import_number_ok(c.r -> 'price', null, false, 99999999)
    and public.product_import_number_ok(c.r -> 'original_price', null, false, 99999999)
    and public.product_import_number_ok(c.r -> 'weight_grams', null, false, 99999999)
    and public.product_import_number_ok(c.r -> 'thc_percentage', 100, false, 101)
    and public.product_import_number_ok(c.r -> 'cbd_percentage', 100, false, 101)
    and public.product_import_number_ok(c.r -> 'total_cannabinoids_percentage', 100, false, 101)
    and public.product_import_number_ok(c.r -> 'smokeback_percentage', 100, false, 101)
    and (c.r -> 'is_active' is null or jsonb_typeof(c.r -> 'is_active') in ('null', 'boolean'))
    and (c.r -> 'is_on_sale' is null or jsonb_typeof(c.r -> 'is_on_sale') in ('null', 'boolean'))
    and (c.r -> 'is_featured' is null or jsonb_typeof(c.r -> 'is_featured') in ('null', 'boolean'))
    -- the product's facts: each value taken as it is, and a daily limit only for cannabis with
    -- grams to count (casts guarded: the order of a condition's parts is not promised)
    and (c.r -> 'is_cannabis' is null or jsonb_typeof(c.r -> 'is_cannabis') in ('null', 'boolean'))
    and (c.r -> 'limit_class' is null or jsonb_typeof(c.r -> 'limit_class') = 'null'
         or (jsonb_typeof(c.r -> 'limit_class') = 'string' and c.r ->> 'limit_class' in ('', 'flower', 'concentrate')))
    and public.product_import_number_ok(c.r -> 'limit_grams', 100000, false, 100001)
    and public.product_import_number_ok(c.r -> 'thc_mg', 100000, false, 100001)
    and public.product_import_number_ok(c.r -> 'cbd_mg', 100000, false, 100001)
    and public.product_import_number_ok(c.r -> 'servings', 1000, true, 1001)
    and coalesce(case when jsonb_typeof(c.r -> 'servings') = 'number' then (c.r ->> 'servings')::numeric end, 1) >= 1
    and (coalesce(c.r ->> 'limit_class', '') = '' or (
      c.r -> 'is_cannabis' is distinct from 'false'::jsonb
      and coalesce(
        case when jsonb_typeof(c.r -> 'limit_grams') = 'number' then (c.r ->> 'limit_grams')::numeric(10, 3) end,
        case when jsonb_typeof(c.r -> 'limit_grams') = 'number' then 0
             when jsonb_typeof(c.r -> 'weight_grams') = 'number' then (c.r ->> 'weight_grams')::numeric(10, 2) end,
        0) > 0))
    and (c.r -> 'brand_id' is null or jsonb_typeof(c.r -> 'brand_id') = 'null' or c.r ->> 'brand_id' = ''
         or (jsonb_typeof(c.r -> 'brand_id') = 'string' and (c.r ->> 'brand_id') ~ v_uuid
             and exists (select 1 from public.brands x where x.id = (c.r ->> 'brand_id')::uuid and not x._deleted)))
    and (c.r -> 'category_id' is null or jsonb_typeof(c.r -> 'category_id') = 'null' or c.r ->> 'category_id' = ''
         or (jsonb_typeof(c.r -> 'category_id') = 'string' and (c.r ->> 'category_id') ~ v_uuid
             and exists (select 1 from public.categories x where x.id = (c.r ->> 'category_id')::uuid and not x._deleted)))
    and (c.r -> 'product_type_id' is null or jsonb_typeof(c.r -> 'product_type_id') = 'null' or c.r ->> 'product_type_id' = ''
         or (jsonb_typeof(c.r -> 'product_type_id') = 'string' and (c.r ->> 'product_type_id') ~ v_uuid
             and exists (select 1 from public.product_types x where x.id = (c.r ->> 'product_type_id')::uuid and not x._deleted)))
    and (jsonb_typeof(c.r -> 'terpenes') is distinct from 'array' or not exists (
      select 1 from jsonb_array_elements(c.r -> 'terpenes') as t
       where jsonb_typeof(t) = 'object'
         and trim(coalesce(t ->> 'name', t ->> 'terpene_name', '')) <> ''
         and not public.product_import_number_ok(t -> 'percentage', 100, false, 101)
    ))
    -- at least one media entry, each plainly valid, no ids of their own, no path twice
    and jsonb_typeof(c.r -> 'media') = 'array' and jsonb_array_length(c.r -> 'media') > 0
    and not exists (
      select 1 from jsonb_array_elements(c.r -> 'media') as m
       where jsonb_typeof(m) <> 'object'
          or jsonb_typeof(m -> 'media_url') is distinct from 'string'
          or trim(m ->> 'media_url') = '' or length(m ->> 'media_url') > 1000
          or jsonb_typeof(m -> 'id') = 'string'
          or (m -> 'media_type' is not null and jsonb_typeof(m -> 'media_type') not in ('null', 'string'))
          or coalesce(nullif(m ->> 'media_type', ''), 'image') not in ('image', 'video')
          or (m -> 'is_primary' is not null and jsonb_typeof(m -> 'is_primary') not in ('null', 'boolean'))
          or not public.product_import_number_ok(m -> 'display_order', null, true, 2147483648)
    )
    and (select count(distinct trim(m ->> 'media_url')) from jsonb_array_elements(c.r -> 'media') as m)
        = jsonb_array_length(c.r -> 'media')
  )
  where c.import_id = p_import;

  insert into private.product_import_rows (
    import_id, n, label_sku, product_id, creating, is_insert, sku, slug, fields, effects, terpenes,
    media, media_ids
  )
  select p_import, c.n, c.sku, coalesce(c.id, gen_random_uuid()), true, true, c.sku, c.base,
    jsonb_build_object(
      'sku', c.sku, 'name', c.name, 'slug', c.base,
      'description', nullif(trim(c.r ->> 'description'), ''),
      'price', (c.r ->> 'price')::numeric(10, 2),
      'original_price', (c.r ->> 'original_price')::numeric(10, 2),
      'quantity_available', case when c.r -> 'is_unlimited_quantity' = 'true'::jsonb then null
                                 else (c.r ->> 'quantity_available')::numeric::integer end,
      'is_unlimited_quantity', coalesce((c.r ->> 'is_unlimited_quantity')::boolean, false),
      'is_active', coalesce((c.r ->> 'is_active')::boolean, true),
      'is_on_sale', coalesce((c.r ->> 'is_on_sale')::boolean, false),
      'is_featured', coalesce((c.r ->> 'is_featured')::boolean, false),
      'thc_percentage', (c.r ->> 'thc_percentage')::numeric(5, 2),
      'cbd_percentage', (c.r ->> 'cbd_percentage')::numeric(5, 2),
      'total_cannabinoids_percentage', (c.r ->> 'total_cannabinoids_percentage')::numeric(5, 2),
      'smokeback_percentage', (c.r ->> 'smokeback_percentage')::numeric(5, 2),
      'weight_grams', (c.r ->> 'weight_grams')::numeric(10, 2),
      'brand_id', nullif(c.r ->> 'brand_id', '')::uuid,
      'category_id', nullif(c.r ->> 'category_id', '')::uuid,
      'product_type_id', nullif(c.r ->> 'product_type_id', '')::uuid,
      'is_cannabis', coalesce((c.r ->> 'is_cannabis')::boolean, true),
      'limit_class', nullif(c.r ->> 'limit_class', ''),
      'limit_grams', (c.r ->> 'limit_grams')::numeric(10, 3),
      'thc_mg', (c.r ->> 'thc_mg')::numeric(8, 2),
      'cbd_mg', (c.r ->> 'cbd_mg')::numeric(8, 2),
      'servings', (c.r ->> 'servings')::numeric::integer
    ),
    case when jsonb_typeof(c.r -> 'effects') = 'array' then (
      select coalesce(array_agg(name order by first_at), '{}')
        from (
          select trim(value) as name, min(ordinality) as first_at
            from jsonb_array_elements_text(c.r -> 'effects') with ordinality
           where length(trim(value)) > 0
           group by trim(value)
        ) e
    ) end,
    case when jsonb_typeof(c.r -> 'terpenes') = 'array' then (
      select coalesce(jsonb_agg(jsonb_build_object('name', t.name, 'percentage', t.percentage) order by t.at), '[]')
        from (
          select distinct on (trim(coalesce(x.t ->> 'name', x.t ->> 'terpene_name', '')))
                 trim(coalesce(x.t ->> 'name', x.t ->> 'terpene_name', '')) as name,
                 (x.t ->> 'percentage')::numeric(5, 2) as percentage, x.at
            from jsonb_array_elements(c.r -> 'terpenes') with ordinality as x (t, at)
           where jsonb_typeof(x.t) = 'object'
             and trim(coalesce(x.t ->> 'name', x.t ->> 'terpene_name', '')) <> ''
           order by trim(coalesce(x.t ->> 'name', x.t ->> 'terpene_name', '')), x.at
        ) t
    ) end,
    (
      select jsonb_agg(jsonb_build_object(
          'id', gen_random_uuid(),
          'media_url', trim(m.entry ->> 'media_url'),
          'media_type', coalesce(nullif(m.entry ->> 'media_type', ''),
            case when trim(m.entry ->> 'media_url') ~* '\.(mp4|webm|mov)(\?.*)?$' then 'video' else 'image' end),
          'is_primary', coalesce((m.entry ->> 'is_primary')::boolean, false),
          'display_order', coalesce((m.entry ->> 'display_order')::numeric::integer, (m.at - 1)::integer)
        ) order by m.at)
        from jsonb_array_elements(c.r -> 'media') with ordinality as m (entry, at)
    ),
    null
    from private.product_import_chunk c
   where c.import_id = p_import and c.plain;

  select coalesce(array_agg(n order by n), '{}') into v_careful
    from (
      select p_first + e.ordinality - 1 as n
        from jsonb_array_elements(p_rows) with ordinality as e
      except
      select c.n from private.product_import_chunk c where c.import_id = p_import and c.plain
    ) left_over;
  delete from private.product_import_chunk where import_id = p_import;
  return v_careful;
end;
$$;

revoke execute on function public.product_import_stage_plain_rows(uuid, integer, jsonb) from public, anon, authenticated;

-- The staging of rows the embedded server prepared (20261126170000; supabase/local/shop/import-products.ts
-- checks the facts in the same terms as the plain rows above) gains the facts' six fields.
create or replace function public.product_import_stage_prepared(
  p_import uuid,
  p_first integer,
  p_rows json,
  p_prepared json
)
returns integer
language plpgsql
security definer
set search_path = public
-- Planned for each chunk with its import's id: a generic plan, which PostgreSQL may switch to after
-- five calls, can look up the import's rows by scanning all of them, chunk after chunk (seen: a
-- 5,000-row import taking 5 s of CPU, each chunk slower than the last).
set plan_cache_mode = force_custom_plan
as $$
declare
  v_import private.product_imports;
  v_count integer;
  v_prepared integer;
  v_careful integer[];
  v_row jsonb;
  v_n integer;
  v_state text;
  v_message text;
  v_sku text;
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  v_import := public.product_import_of_caller(p_import);
  if p_rows is null or json_typeof(p_rows) <> 'array' then
    raise exception 'The rows must be a JSON list of products' using errcode = '22023';
  end if;
  v_count := json_array_length(p_rows);
  if p_first is distinct from v_import.staged + 1 then
    raise exception 'Import % has % rows staged: the next chunk starts at row %', p_import,
      v_import.staged, v_import.staged + 1 using errcode = '22023';
  end if;
  if v_import.staged + v_count > 5000 then
    raise exception 'At most 5000 products can be imported at once' using errcode = '22023';
  end if;
  v_prepared := coalesce(json_array_length(p_prepared), 0);

  -- Every row's keys as product_import_stage_plain_rows takes them (the prepared rows' from their
  -- record, the others' from the row itself); a prepared row passes if the catalogue, the import
  -- and the chunk let it, and is staged.
  with chunk as materialized (
    select k.*, regexp_replace(k.base, '-[0-9]+$', '') as stem,
           count(*) filter (where k.key_id is not null) over (partition by k.key_id) > 1
             or count(*) filter (where k.sku is not null) over (partition by k.sku) > 1
             or count(*) filter (where k.base is not null) over (partition by k.base) > 1 as repeated
      from (
        select x.*, case when x.given_id then x.product_id end as key_id,
               left(public.product_import_slugify(x.slug_source), 80) as base
          from json_to_recordset(p_prepared) as x (
            n integer, product_id uuid, given_id boolean, sku text, name text, slug_source text,
            description text, price numeric, original_price numeric, quantity_available numeric,
            is_unlimited_quantity boolean, is_active boolean, is_on_sale boolean,
            is_featured boolean, thc_percentage numeric, cbd_percentage numeric,
            total_cannabinoids_percentage numeric, smokeback_percentage numeric,
            weight_grams numeric, brand_id uuid, category_id uuid, product_type_id uuid,
            effects text[], effect_ids uuid[], terpenes jsonb, media jsonb, is_cannabis boolean,
            limit_class text, limit_grams numeric, thc_mg numeric, cbd_mg numeric, servings integer
          )
         where x.n between p_first and p_first + v_count - 1
        union all
        -- the other rows: only their keys (no product_id: never staged here)
        select r.n, null, null, nullif(trim(coalesce(r.v ->> 'sku', '')), ''), null, null, null,
               null, null, null, null, null, null, null, null, null, null, null, null, null, null,
               null, null, null, null, null,
               -- the facts' six (is_cannabis … servings)
               null, null, null, null, null, null,
               case when jsonb_typeof(r.v -> 'id') = 'string' and (r.v ->> 'id') ~ v_uuid
                 then (r.v ->> 'id')::uuid end,
               case
                 when nullif(trim(coalesce(r.v ->> 'slug', '')), '') is not null
                   then left(public.product_import_slugify(r.v ->> 'slug'), 80)
                 when nullif(trim(coalesce(r.v ->> 'name', '')), '') is not null
                   then left(public.product_import_slugify(trim(r.v ->> 'name')), 80)
               end
          from (
            select (p_first + e.ordinality - 1)::integer as n, e.value::jsonb as v
              from json_array_elements(p_rows) with ordinality as e
             where v_prepared < v_count
          ) r
         where jsonb_typeof(r.v) = 'object'
           and r.n not in (
             select (x.value ->> 'n')::integer from json_array_elements(p_prepared) as x
           )
      ) k
  )
  insert into private.product_import_rows (
    import_id, n, label_sku, product_id, creating, is_insert, sku, slug, fields, effects,
    effect_ids, terpenes, media, media_ids
  )
  select p_import, c.n, c.sku, c.product_id, true, true, c.sku, c.base,
    jsonb_build_object(
      'sku', c.sku, 'name', c.name, 'slug', c.base,
      'description', nullif(trim(c.description), ''),
      'price', c.price::numeric(10, 2),
      'original_price', c.original_price::numeric(10, 2),
      'quantity_available', case when c.is_unlimited_quantity then null
                                 else c.quantity_available::integer end,
      'is_unlimited_quantity', coalesce(c.is_unlimited_quantity, false),
      'is_active', coalesce(c.is_active, true),
      'is_on_sale', coalesce(c.is_on_sale, false),
      'is_featured', coalesce(c.is_featured, false),
      'thc_percentage', c.thc_percentage::numeric(5, 2),
      'cbd_percentage', c.cbd_percentage::numeric(5, 2),
      'total_cannabinoids_percentage', c.total_cannabinoids_percentage::numeric(5, 2),
      'smokeback_percentage', c.smokeback_percentage::numeric(5, 2),
      'weight_grams', c.weight_grams::numeric(10, 2),
      'brand_id', c.brand_id,
      'category_id', c.category_id,
      'product_type_id', c.product_type_id,
      'is_cannabis', coalesce(c.is_cannabis, true),
      'limit_class', nullif(c.limit_class, ''),
      'limit_grams', c.limit_grams::numeric(10, 3),
      'thc_mg', c.thc_mg::numeric(8, 2),
      'cbd_mg', c.cbd_mg::numeric(8, 2),
      'servings', c.servings
    ),
    c.effects, c.effect_ids, c.terpenes, c.media, null
    from chunk c
   where c.product_id is not null and c.sku is not null and c.name is not null
     -- a given id (a create with is_new) nobody has, in the catalogue or the import
     and (not c.given_id or (
       not exists (select 1 from public.products p where p.id = c.product_id)
       and not exists (select 1 from private.product_import_rows s
                        where s.import_id = p_import and s.product_id = c.product_id)))
     -- the SKU nobody's, in the catalogue, the import or the chunk
     and not exists (select 1 from public.products p where p.sku = c.sku and not p._deleted)
     and not exists (select 1 from private.product_import_rows s
                      where s.import_id = p_import and not s.superseded and s.sku = c.sku)
     and not c.repeated
     -- the slug free as it is, and not one another row's unique_slug could come to
     and c.base ~ '^[a-z0-9]+(-[a-z0-9]+)*$'
     and not exists (select 1 from public.products p where p.slug = c.base and not p._deleted)
     and not exists (select 1 from private.product_import_rows s
                      where s.import_id = p_import and not s.superseded and s.slug = c.base)
     and (c.stem = c.base or not exists (select 1 from chunk o where o.base = c.stem))
     -- references to live rows
     and (c.brand_id is null
          or exists (select 1 from public.brands b where b.id = c.brand_id and not b._deleted))
     and (c.category_id is null
          or exists (select 1 from public.categories g where g.id = c.category_id and not g._deleted))
     and (c.product_type_id is null
          or exists (select 1 from public.product_types t where t.id = c.product_type_id and not t._deleted));

  -- Every other row takes the row-by-row check, in row order.
  get diagnostics v_n = row_count;
  if v_n < v_count then
    for v_row, v_n in
      select e.value::jsonb, (p_first + e.ordinality - 1)::integer
        from json_array_elements(p_rows) with ordinality as e
       where not exists (
         select 1 from private.product_import_rows r
          where r.import_id = p_import and r.n = p_first + e.ordinality - 1
       )
       order by e.ordinality
    loop
      begin
        perform public.product_import_stage_row(p_import, v_n, v_row);
      exception when others then
        -- Re-raised with the row named, as the row-by-row import did.
        get stacked diagnostics v_state = returned_sqlstate, v_message = message_text;
        v_sku := case when jsonb_typeof(v_row) = 'object' then nullif(trim(coalesce(v_row ->> 'sku', '')), '') end;
        raise exception 'Row %: %', v_n || coalesce(' (SKU ' || v_sku || ')', ''), v_message
          using errcode = v_state;
      end;
    end loop;
  end if;

  update private.product_imports set staged = staged + v_count where id = p_import
  returning staged into v_n;
  return v_n;
end;
$$;

-- Only the embedded server (the database owner) calls it, with rows it has checked.
revoke execute on function public.product_import_stage_prepared(uuid, integer, json, json)
  from public, anon, authenticated, service_role;

-- The apply in steps (20261126170100) writes the facts.
create or replace function public.product_import_apply_step(p_import uuid, p_count integer, p_step integer)
returns jsonb
language plpgsql
security definer
set search_path = public
-- Planned for its import each time, as product_import_stage_prepared (a few ms a step).
set plan_cache_mode = force_custom_plan
as $$
declare
  -- Steps 2-9 write one table each in two halves (the products of even, then odd row numbers);
  -- v_table_step is the step of migration 20261126170000 they belong to, v_part the half.
  v_table_step integer := case when p_step between 2 and 9 then (p_step + 2) / 2 end;
  v_part integer := p_step % 2;
  v_import private.product_imports;
  v_n integer;
  v_sku text;
  v_message text;
  v_ids uuid[];
  v_created integer;
  v_table text;
  v_replica boolean;
  v_now timestamptz;
begin
  if p_step = 1 then
    if not (public.is_admin() or auth.role() = 'service_role') then
      raise exception 'Admin privileges required' using errcode = '42501';
    end if;
    v_import := public.product_import_of_caller(p_import);
    if v_import.staged is distinct from p_count then
      raise exception 'Import % has % of % rows staged', p_import, v_import.staged, p_count
        using errcode = '22023';
    end if;

    -- The products as the import leaves them, one row each (the last row naming it).
    create temporary table if not exists product_import_applying (
      n integer, label_sku text, product_id uuid primary key, is_insert boolean, sku text,
      fields jsonb, effects text[], effect_ids uuid[], terpenes jsonb, media jsonb
    ) on commit delete rows;
    truncate pg_temp.product_import_applying;
    insert into pg_temp.product_import_applying
    select r.n, r.label_sku, r.product_id, r.is_insert, r.sku, r.fields, r.effects, r.effect_ids,
           r.terpenes, r.media
      from private.product_import_rows r
     where r.import_id = p_import and not r.superseded;

    -- Re-checked against the catalogue as it is now; the first refused row (in row order) wins.
    select n, label_sku, message into v_n, v_sku, v_message from (
      select f.n, f.label_sku, format('Product with ID %s not found', f.product_id) as message
        from pg_temp.product_import_applying f join public.products p on p.id = f.product_id
       where p._deleted
      union all
      select f.n, f.label_sku, format('Product with ID %s not found', f.product_id)
        from pg_temp.product_import_applying f
       where not f.is_insert and not exists (select 1 from public.products p where p.id = f.product_id)
      union all
      select f.n, f.label_sku, format('SKU %s already exists for another product', f.sku)
        from pg_temp.product_import_applying f
       where exists (
         select 1 from public.products p
          where p.sku = f.sku and p.id <> f.product_id and not p._deleted
            and not exists (select 1 from pg_temp.product_import_applying o where o.product_id = p.id)
       )
      union all
      select f.n, f.label_sku, format('%s %s not found', ref.label, f.fields ->> ref.key)
        from pg_temp.product_import_applying f
        cross join (values ('brand_id', 'Brand', 'brands'), ('category_id', 'Category', 'categories'),
                           ('product_type_id', 'Product type', 'product_types')) as ref (key, label, tbl)
       where f.fields ->> ref.key is not null
         and not exists (
           select 1 from public.brands b where ref.tbl = 'brands' and b.id = (f.fields ->> ref.key)::uuid and not b._deleted
           union all
           select 1 from public.categories c where ref.tbl = 'categories' and c.id = (f.fields ->> ref.key)::uuid and not c._deleted
           union all
           select 1 from public.product_types t where ref.tbl = 'product_types' and t.id = (f.fields ->> ref.key)::uuid and not t._deleted
         )
      union all
      select f.n, f.label_sku, format('Media %s belongs to another product', m ->> 'id')
        from pg_temp.product_import_applying f cross join jsonb_array_elements(f.media) as m
       where f.media is not null
         and exists (select 1 from public.product_media pm where pm.id = (m ->> 'id')::uuid and pm.product_id <> f.product_id)
    ) refused
    order by n
    limit 1;
    if found then
      raise exception 'Row %: %', v_n || coalesce(' (SKU ' || v_sku || ')', ''), v_message;
    end if;

    -- The per-row triggers stand aside (decision 031); the feed is bumped once below. Where the
    -- functions' owner may (the embedded server's superuser), no row trigger runs at all (replica
    -- mode: _modified, updated_at and the slug are written here, and every reference was checked
    -- above): 25,000 trigger calls are most of the apply of 5,000 products with their lists.
    perform set_config('humo.bulk', 'on', true);
    v_replica := coalesce((select rolsuper from pg_roles where rolname = current_user), false);
    if v_replica then
      perform set_config('session_replication_role', 'replica', true);
    end if;
    v_now := clock_timestamp();

    -- A product created meanwhile under the same id (the same file imported twice at once) is
    -- updated, as the retry of a create is.
    update pg_temp.product_import_applying f set is_insert = false
      from public.products p where f.is_insert and p.id = f.product_id;

    -- SKUs and slugs handed from one product of the import to another would collide inside one
    -- update (unique indexes are checked row by row): those products first step aside.
    update public.products p
       set _modified = v_now,
           sku = case when f.fields ->> 'sku' <> p.sku then p.sku || ' ' || p.id::text else p.sku end,
           slug = case when f.fields ->> 'slug' <> p.slug
             then p.slug || '-' || replace(p.id::text, '-', '') else p.slug end
      from pg_temp.product_import_applying f
     where not f.is_insert and p.id = f.product_id
       and ((f.fields ? 'sku' and f.fields ->> 'sku' <> p.sku)
         or (f.fields ? 'slug' and f.fields ->> 'slug' <> p.slug));
    perform set_config('humo.import_now', v_now::text, true);
    perform set_config('humo.import_id', p_import::text, true);
    return null;
  end if;

    v_now := nullif(current_setting('humo.import_now', true), '')::timestamptz;
    if v_now is null or current_setting('humo.import_id', true) is distinct from p_import::text then
      raise exception 'Import % is not being applied', p_import using errcode = '22023';
    end if;
    v_replica := current_setting('session_replication_role') = 'replica';
  if v_table_step = 2 then
    insert into public.products (
      id, name, slug, sku, description, price, original_price, quantity_available,
      is_unlimited_quantity, is_active, is_on_sale, is_featured, thc_percentage, cbd_percentage,
      total_cannabinoids_percentage, smokeback_percentage, weight_grams, brand_id, category_id,
      product_type_id, _modified, is_cannabis, limit_class, limit_grams, thc_mg, cbd_mg, servings
    )
    select f.product_id, f.fields ->> 'name', f.fields ->> 'slug', f.fields ->> 'sku',
           f.fields ->> 'description', (f.fields ->> 'price')::numeric,
           (f.fields ->> 'original_price')::numeric, (f.fields ->> 'quantity_available')::integer,
           (f.fields ->> 'is_unlimited_quantity')::boolean, (f.fields ->> 'is_active')::boolean,
           (f.fields ->> 'is_on_sale')::boolean, (f.fields ->> 'is_featured')::boolean,
           (f.fields ->> 'thc_percentage')::numeric, (f.fields ->> 'cbd_percentage')::numeric,
           (f.fields ->> 'total_cannabinoids_percentage')::numeric,
           (f.fields ->> 'smokeback_percentage')::numeric, (f.fields ->> 'weight_grams')::numeric,
           (f.fields ->> 'brand_id')::uuid, (f.fields ->> 'category_id')::uuid,
           (f.fields ->> 'product_type_id')::uuid, v_now,
           coalesce((f.fields ->> 'is_cannabis')::boolean, true), f.fields ->> 'limit_class',
           (f.fields ->> 'limit_grams')::numeric, (f.fields ->> 'thc_mg')::numeric,
           (f.fields ->> 'cbd_mg')::numeric, (f.fields ->> 'servings')::integer
      from pg_temp.product_import_applying f
     where f.is_insert and f.n % 2 = v_part;

    if v_part = 1 then
      update public.products p set
        name = case when f.fields ? 'name' then f.fields ->> 'name' else p.name end,
        slug = case when f.fields ? 'slug' then f.fields ->> 'slug' else p.slug end,
        sku = case when f.fields ? 'sku' then f.fields ->> 'sku' else p.sku end,
        description = case when f.fields ? 'description' then f.fields ->> 'description' else p.description end,
        price = case when f.fields ? 'price' then (f.fields ->> 'price')::numeric else p.price end,
        original_price = case when f.fields ? 'original_price'
          then (f.fields ->> 'original_price')::numeric else p.original_price end,
        quantity_available = case when f.fields ? 'quantity_available'
          then (f.fields ->> 'quantity_available')::integer else p.quantity_available end,
        is_unlimited_quantity = case when f.fields ? 'is_unlimited_quantity'
          then (f.fields ->> 'is_unlimited_quantity')::boolean else p.is_unlimited_quantity end,
        is_active = case when f.fields ? 'is_active' then (f.fields ->> 'is_active')::boolean else p.is_active end,
        is_on_sale = case when f.fields ? 'is_on_sale' then (f.fields ->> 'is_on_sale')::boolean else p.is_on_sale end,
        is_featured = case when f.fields ? 'is_featured' then (f.fields ->> 'is_featured')::boolean else p.is_featured end,
        thc_percentage = case when f.fields ? 'thc_percentage'
          then (f.fields ->> 'thc_percentage')::numeric else p.thc_percentage end,
        cbd_percentage = case when f.fields ? 'cbd_percentage'
          then (f.fields ->> 'cbd_percentage')::numeric else p.cbd_percentage end,
        total_cannabinoids_percentage = case when f.fields ? 'total_cannabinoids_percentage'
          then (f.fields ->> 'total_cannabinoids_percentage')::numeric else p.total_cannabinoids_percentage end,
        smokeback_percentage = case when f.fields ? 'smokeback_percentage'
          then (f.fields ->> 'smokeback_percentage')::numeric else p.smokeback_percentage end,
        weight_grams = case when f.fields ? 'weight_grams' then (f.fields ->> 'weight_grams')::numeric else p.weight_grams end,
        brand_id = case when f.fields ? 'brand_id' then (f.fields ->> 'brand_id')::uuid else p.brand_id end,
        category_id = case when f.fields ? 'category_id' then (f.fields ->> 'category_id')::uuid else p.category_id end,
        product_type_id = case when f.fields ? 'product_type_id'
          then (f.fields ->> 'product_type_id')::uuid else p.product_type_id end,
        is_cannabis = case when f.fields ? 'is_cannabis'
          then (f.fields ->> 'is_cannabis')::boolean else p.is_cannabis end,
        limit_class = case when f.fields ? 'limit_class' then f.fields ->> 'limit_class' else p.limit_class end,
        limit_grams = case when f.fields ? 'limit_grams'
          then (f.fields ->> 'limit_grams')::numeric else p.limit_grams end,
        thc_mg = case when f.fields ? 'thc_mg' then (f.fields ->> 'thc_mg')::numeric else p.thc_mg end,
        cbd_mg = case when f.fields ? 'cbd_mg' then (f.fields ->> 'cbd_mg')::numeric else p.cbd_mg end,
        servings = case when f.fields ? 'servings' then (f.fields ->> 'servings')::integer else p.servings end,
        updated_at = now(),
        _modified = v_now
        from pg_temp.product_import_applying f
       where not f.is_insert and p.id = f.product_id;
    end if;
    return null;
  end if;
  if v_table_step = 3 then
    -- effects: the given names live, the others soft-deleted
    if v_part = 0 then
      update public.product_effects e set _deleted = true, _modified = v_now
        from pg_temp.product_import_applying f
       where f.effects is not null and not f.is_insert and e.product_id = f.product_id and not e._deleted
         and e.effect_name <> all (f.effects);
    end if;
    insert into public.product_effects (id, product_id, effect_name, _modified)
    select coalesce(x.id, gen_random_uuid()), f.product_id, x.effect, v_now
      from pg_temp.product_import_applying f cross join unnest(f.effects, f.effect_ids) as x (effect, id)
     where f.effects is not null and x.effect is not null and f.n % 2 = v_part
       and (f.is_insert or not exists (
         select 1 from public.product_effects e
          where e.product_id = f.product_id and not e._deleted and e.effect_name = x.effect
       ));
    return null;
  end if;
  if v_table_step = 4 then
    -- terpenes: percentages updated in place, new names added, the others soft-deleted
    if v_part = 0 then
      update public.terpene_profiles t set percentage = (x.terpene ->> 'percentage')::numeric, _modified = v_now
        from pg_temp.product_import_applying f cross join jsonb_array_elements(f.terpenes) as x (terpene)
       where f.terpenes is not null and not f.is_insert and t.product_id = f.product_id and not t._deleted
         and t.terpene_name = x.terpene ->> 'name';
    end if;
    insert into public.terpene_profiles (id, product_id, terpene_name, percentage, _modified)
    select coalesce((x.terpene ->> 'id')::uuid, gen_random_uuid()), f.product_id, x.terpene ->> 'name',
           (x.terpene ->> 'percentage')::numeric, v_now
      from pg_temp.product_import_applying f cross join jsonb_array_elements(f.terpenes) as x (terpene)
     where f.terpenes is not null and f.n % 2 = v_part
       and (f.is_insert or not exists (
         select 1 from public.terpene_profiles t
          where t.product_id = f.product_id and not t._deleted and t.terpene_name = x.terpene ->> 'name'
       ));
    if v_part = 1 then
      update public.terpene_profiles t set _deleted = true, _modified = v_now
        from pg_temp.product_import_applying f
       where f.terpenes is not null and not f.is_insert and t.product_id = f.product_id and not t._deleted
         and not exists (
           select 1 from jsonb_array_elements(f.terpenes) as x (terpene)
            where x.terpene ->> 'name' = t.terpene_name
         );
    end if;
    return null;
  end if;
  if v_table_step = 5 then
    -- media: a new product's rows inserted, with its one primary decided here (the rule below, where
    -- every row has the same created_at; their ids were made at staging, so none exists yet);
    -- another product's listed rows written (revived if soft-deleted), its unlisted ones
    -- soft-deleted
    insert into public.product_media (id, product_id, media_url, media_type, is_primary, display_order, _deleted, _modified)
    select (m.entry ->> 'id')::uuid, f.product_id, m.entry ->> 'media_url', m.entry ->> 'media_type',
           row_number() over (
             partition by f.product_id
             order by (m.entry ->> 'is_primary')::boolean desc, (m.entry ->> 'display_order')::integer,
                      (m.entry ->> 'id')::uuid) = 1,
           (m.entry ->> 'display_order')::integer, false, v_now
      from pg_temp.product_import_applying f cross join jsonb_array_elements(f.media) as m (entry)
     where f.media is not null and f.is_insert and f.n % 2 = v_part;
    if v_part = 1 then
      insert into public.product_media (id, product_id, media_url, media_type, is_primary, display_order, _deleted, _modified)
      select (m.entry ->> 'id')::uuid, f.product_id, m.entry ->> 'media_url', m.entry ->> 'media_type',
             (m.entry ->> 'is_primary')::boolean, (m.entry ->> 'display_order')::integer, false, v_now
        from pg_temp.product_import_applying f cross join jsonb_array_elements(f.media) as m (entry)
       where f.media is not null and not f.is_insert
      on conflict (id) do update set
        media_url = excluded.media_url,
        media_type = excluded.media_type,
        is_primary = excluded.is_primary,
        display_order = excluded.display_order,
        _deleted = false,
        _modified = excluded._modified;
      update public.product_media pm set _deleted = true, is_primary = false, _modified = v_now
        from pg_temp.product_import_applying f
       where f.media is not null and not f.is_insert and pm.product_id = f.product_id and not pm._deleted
         and not exists (
           select 1 from jsonb_array_elements(f.media) as m (entry)
            where (m.entry ->> 'id')::uuid = pm.id
         );
      -- Exactly one primary per product: the first marked one, else the first by display order.
      update public.product_media pm set is_primary = (pm.id = first.id), _modified = v_now
        from (
          select distinct on (m.product_id) m.product_id, m.id
            from public.product_media m
            join pg_temp.product_import_applying f on f.product_id = m.product_id and not f.is_insert
           where not m._deleted
           order by m.product_id, m.is_primary desc, m.display_order, m.created_at, m.id
        ) first
       where pm.product_id = first.product_id and not pm._deleted
         and pm.is_primary is distinct from (pm.id = first.id);
    end if;
    return null;
  end if;
  if p_step <> 10 then
    raise exception 'No step % in an import', p_step using errcode = '22023';
  end if;
  -- The caller's, still open.
  v_import := public.product_import_of_caller(p_import);

  if v_replica then
    perform set_config('session_replication_role', 'origin', true);
  end if;
  perform set_config('humo.bulk', '', true);
  if not v_replica then
    -- The triggers gave every row its own clock; the products move past their lists' rows (as
    -- decision 031 does), so a device pulling from its checkpoint gets each one whole.
    update public.products set _modified = clock_timestamp()
     where id in (select product_id from pg_temp.product_import_applying);
  end if;

  -- Every product written above has a new _modified, so devices pull it with its media, effects
  -- and terpenes (all written at v_now); the change feed moves once per catalogue table.
  foreach v_table in array array['products', 'product_media', 'product_effects', 'terpene_profiles'] loop
    insert into public.catalogue_changes (table_name, changed_at)
    values (v_table, clock_timestamp())
    on conflict (table_name) do update set changed_at = excluded.changed_at;
  end loop;

  select coalesce(array_agg(r.product_id order by r.n), '{}'),
         count(*) filter (where r.creating)
    into v_ids, v_created
    from private.product_import_rows r where r.import_id = p_import;
  delete from private.product_imports where id = p_import;
  perform set_config('humo.import_now', '', true);
  perform set_config('humo.import_id', '', true);

  return jsonb_build_object(
    'count', coalesce(array_length(v_ids, 1), 0),
    'created', v_created,
    'updated', coalesce(array_length(v_ids, 1), 0) - v_created,
    'ids', to_jsonb(v_ids)
  );

end;
$$;


revoke execute on function public.product_import_apply_step(uuid, integer, integer)
  from public, anon, authenticated, service_role;
