-- The admin's product save (DESIGN.md §3): the product row and its effects, terpenes and media
-- rows change in one transaction, with SPEC.md §5's server-side rules and exact messages, instead
-- of SPEC.md §7's client-side sequence of calls (which could leave a half-saved product, and
-- cannot be replayed safely from an offline device). Also admin_delete_product (a soft delete).
--
-- Rule violations raise errcode P0001 (raise_exception) with the message the admin sees, so
-- supabase-js hands it over as error.message; PostgREST answers them with 400.
--
-- p_product (snake_case, the columns of products plus three lists):
--   { id?, is_new?, sku, name, slug?, description?, brand_id?, category_id?, product_type_id?,
--     price?, original_price?, weight_grams?, quantity_available?, is_unlimited_quantity?,
--     thc_percentage?, cbd_percentage?, total_cannabinoids_percentage?, smokeback_percentage?,
--     is_on_sale?, is_active?, is_featured?,
--     effects?: [text], terpenes?: [{name, percentage?}],
--     media?: [{id?, media_url, media_type?, is_primary?, display_order?}] }
-- Without id, or with is_new: true, it creates (is_new lets an offline device choose the id; a
-- retry of that create then finds the product and updates it with the same values). Otherwise it
-- updates, and a key left out keeps its current value; a list that is given replaces the current
-- one (an empty effects or terpenes list clears it). Media rows left out of a given media list
-- are soft-deleted; their files are the client's to remove from storage.

-- A nullable number within bounds, or P0001 with the field's label. Internal.
create or replace function public.product_input_number(
  p_value jsonb,
  p_label text,
  p_max numeric default null,
  p_whole boolean default false
)
returns numeric
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
    raise exception '% must be a number', p_label;
  end if;
  v := (p_value #>> '{}')::numeric;
  if p_whole and v <> trunc(v) then
    raise exception '% must be a whole number', p_label;
  end if;
  if p_max is null and v < 0 then
    raise exception '% must be at least 0', p_label;
  end if;
  if p_max is not null and (v < 0 or v > p_max) then
    raise exception '% must be between 0 and %', p_label, p_max;
  end if;
  return v;
end;
$$;

revoke execute on function public.product_input_number(jsonb, text, numeric, boolean) from public, anon, authenticated;

create or replace function public.product_input_flag(p_value jsonb, p_label text)
returns boolean
language plpgsql
immutable
set search_path = public
as $$
begin
  if p_value is null or jsonb_typeof(p_value) = 'null' then
    return null;
  end if;
  if jsonb_typeof(p_value) <> 'boolean' then
    raise exception '% must be true or false', p_label;
  end if;
  return (p_value #>> '{}')::boolean;
end;
$$;

revoke execute on function public.product_input_flag(jsonb, text) from public, anon, authenticated;

-- A uuid reference that must name a live row of p_table, or null. Internal.
create or replace function public.product_input_reference(p_value jsonb, p_table text, p_label text)
returns uuid
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_id uuid;
  v_found boolean;
begin
  if p_value is null or jsonb_typeof(p_value) = 'null' or (p_value #>> '{}') = '' then
    return null;
  end if;
  begin
    v_id := (p_value #>> '{}')::uuid;
  exception when invalid_text_representation then
    raise exception '% % not found', p_label, p_value #>> '{}';
  end;
  execute format('select exists (select 1 from public.%I where id = $1 and not _deleted)', p_table)
    into v_found using v_id;
  if not v_found then
    raise exception '% % not found', p_label, v_id;
  end if;
  return v_id;
end;
$$;

revoke execute on function public.product_input_reference(jsonb, text, text) from public, anon, authenticated;

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
      is_featured
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
      coalesce(public.product_input_flag(p -> 'is_featured', 'Featured'), false)
    );
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
      is_featured = coalesce(public.product_input_flag(p -> 'is_featured', 'Featured'), is_featured)
    where id = v_id and not _deleted;
    if not found then
      raise exception 'Failed to update product with ID % - no rows affected', v_id;
    end if;
  end if;

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

-- Soft delete: the product becomes a tombstone that devices pull (pull_products), frees its SKU
-- and slug for reuse, and keeps its order history intact. Returns the deleted product's id.
create or replace function public.admin_delete_product(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  update public.products set _deleted = true where id = p_id and not _deleted;
  if not found then
    raise exception 'Product with ID % not found', p_id;
  end if;
  return jsonb_build_object('id', p_id, 'deleted', true);
end;
$$;

revoke execute on function public.admin_delete_product(uuid) from public, anon;
grant execute on function public.admin_delete_product(uuid) to authenticated, service_role;
