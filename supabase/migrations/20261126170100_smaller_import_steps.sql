-- The apply's writing steps in halves (issue 24, docs/decisions/047): each of the four tables is
-- written in two statements, the products of even row numbers, then of odd ones, so that the
-- event loop turns twice as often while an import is applied (an anonymous read the catalogue
-- cache holds waits for one statement, not for a whole table). Steps: 1 checks and prepares,
-- 2-3 products, 4-5 effects, 6-7 terpenes, 8-9 media, 10 the change feed and the answer.
-- Statements that touch the products already in the catalogue (updates, soft-deletions) run in
-- the half that keeps their order with the inserts; otherwise unchanged.

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
      product_type_id, _modified
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
           (f.fields ->> 'product_type_id')::uuid, v_now
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

create or replace function public.admin_import_apply(p_import uuid, p_count integer)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_result jsonb;
begin
  for v_step in 1..10 loop
    v_result := public.product_import_apply_step(p_import, p_count, v_step);
  end loop;
  return v_result;
end;
$$;

revoke execute on function public.admin_import_apply(uuid, integer) from public, anon;
grant execute on function public.admin_import_apply(uuid, integer) to authenticated, service_role;

-- Settings 20261126170000 gained after it was first committed, for a data folder that applied the
-- first version (migrations run once by version): plans made for each chunk, not the row-by-row
-- check (docs/decisions/047).
alter function public.product_import_stage_prepared(uuid, integer, json, json)
  set plan_cache_mode = force_custom_plan;
alter function public.product_import_stage_plain_rows(uuid, integer, jsonb)
  set plan_cache_mode = force_custom_plan;
alter function public.product_import_stage_row(uuid, integer, jsonb)
  set plan_cache_mode = auto;
