-- Imports staged with the server's help and applied without generating ids (issue 24,
-- docs/decisions/047).
--
-- Measured on decision 033's staging (5,000 new products, each with a media row, two effects and a
-- terpene): about 1.2 s of CPU to stage, 0.4 s to apply. Most of the staging went into reading
-- every value of every row out of JSON in SQL (three statements over each chunk: the row's keys,
-- the "plainly valid" test, the normalised change), and about 10 µs went into each
-- gen_random_uuid(), which PGlite draws from the strong random source one call at a time: 15,000 of
-- them (the effects' and terpenes' ids) were a third of the apply.
--
-- Now, for the embedded server's REST import (supabase/local/shop/import-products.ts):
--   * The server tests in JavaScript what only depends on the row itself (the types and bounds
--     product_import_stage_plain_rows checks, in the same terms) and hands each row that passes as
--     a typed record with its lists already normalised and every id made (product, media, effects,
--     terpenes). product_import_stage_prepared checks, for the whole chunk in one statement, what
--     depends on the database (the id, SKU and slug nobody's, the brand, category and type live,
--     no other row of the chunk sharing a key or a slug stem), and stages the rows that pass. The
--     slug is still made here by slugify's own expression. Every other row (and every row the
--     server was not sure of) takes the row-by-row check as before, in row order, with the same
--     messages. It is not an API function: the server calls it as the database owner with the
--     caller's claims, so nobody can hand it rows that were not checked.
--   * The apply takes the effects' and terpenes' ids from the staged rows when they have them.
--
-- admin_import_products (one SQL call) and admin_import_stage keep staging the rows themselves.

alter table private.product_import_rows add column if not exists effect_ids uuid[];

-- The SQL path's set-based staging (admin_import_stage, admin_import_products) is planned for each
-- chunk too, for the reason given at product_import_stage_prepared below.
alter function public.product_import_stage_plain_rows(uuid, integer, jsonb)
  set plan_cache_mode = force_custom_plan;
-- The row-by-row check keeps the default (a setting of a function holds in the functions it calls,
-- and planning its statements for every row cost 2.5 times its time).
alter function public.product_import_stage_row(uuid, integer, jsonb)
  set plan_cache_mode = auto;

-- slugify's expression without its own search_path, so that it is inlined into a set-based
-- statement instead of being called (and its setting swapped) once a row. Built-ins only.
create or replace function public.product_import_slugify(p_text text)
returns text
language sql
immutable
as $$
  select coalesce(nullif(
    trim(both '-' from regexp_replace(
      replace(
        translate(lower(coalesce(p_text, '')),
          'áàâäãåāçćčéèêëēęíìîïīñńóòôöõøōúùûüūýÿžźż',
          'aaaaaaaccceeeeeeiiiiinnoooooooouuuuuyyzzz'),
        '&', ' and '),
      '[^a-z0-9]+', '-', 'g')),
    ''), 'item')
$$;

revoke execute on function public.product_import_slugify(text) from public, anon, authenticated;

-- Stages rows p_first, p_first + 1, … of an open import, as admin_import_stage does. p_rows is
-- the chunk as sent (json: only the rows that take the row-by-row check are read from it), and
-- p_prepared the rows the server found plainly valid on their own (see above), each as
-- { n, product_id, given_id, sku, name, slug_source, description, price, …, effects, effect_ids,
-- terpenes, media }, where sku and name are trimmed and slug_source is what the slug is made from.
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
            effects text[], effect_ids uuid[], terpenes jsonb, media jsonb
          )
         where x.n between p_first and p_first + v_count - 1
        union all
        -- the other rows: only their keys (no product_id: never staged here)
        select r.n, null, null, nullif(trim(coalesce(r.v ->> 'sku', '')), ''), null, null, null,
               null, null, null, null, null, null, null, null, null, null, null, null, null, null,
               null, null, null, null, null,
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
      'product_type_id', c.product_type_id
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

-- The apply of decision 033, in steps (below), taking the effects' and terpenes' ids the staging
-- made when it made them (one gen_random_uuid() costs ~10 µs in PGlite). Otherwise unchanged.
-- admin_import_apply in steps, each one statement of the same transaction, so that the embedded
-- server can let its event loop turn between them (answers from the catalogue cache, which an
-- import does not empty until it commits, go out meanwhile): 1 checks and prepares, 2 writes the
-- products, 3 the effects, 4 the terpenes, 5 the media, 6 bumps the change feed, forgets the
-- import and returns admin_import_apply's answer. Steps 2-6 refuse to run unless step 1 ran for the
-- same import in the same transaction. Not an API function: admin_import_apply runs all six in one
-- call, and the server calls them as the database owner with the caller's claims.
create or replace function public.product_import_apply_step(p_import uuid, p_count integer, p_step integer)
returns jsonb
language plpgsql
security definer
set search_path = public
-- Planned for its import each time, as product_import_stage_prepared (a few ms a step).
set plan_cache_mode = force_custom_plan
as $$
declare
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
  if p_step = 2 then
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
     where f.is_insert;

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
    return null;
  end if;
  if p_step = 3 then
    -- effects: the given names live, the others soft-deleted
    update public.product_effects e set _deleted = true, _modified = v_now
      from pg_temp.product_import_applying f
     where f.effects is not null and not f.is_insert and e.product_id = f.product_id and not e._deleted
       and e.effect_name <> all (f.effects);
    insert into public.product_effects (id, product_id, effect_name, _modified)
    select coalesce(x.id, gen_random_uuid()), f.product_id, x.effect, v_now
      from pg_temp.product_import_applying f cross join unnest(f.effects, f.effect_ids) as x (effect, id)
     where f.effects is not null and x.effect is not null
       and (f.is_insert or not exists (
         select 1 from public.product_effects e
          where e.product_id = f.product_id and not e._deleted and e.effect_name = x.effect
       ));
    return null;
  end if;
  if p_step = 4 then
    -- terpenes: percentages updated in place, new names added, the others soft-deleted
    update public.terpene_profiles t set percentage = (x.terpene ->> 'percentage')::numeric, _modified = v_now
      from pg_temp.product_import_applying f cross join jsonb_array_elements(f.terpenes) as x (terpene)
     where f.terpenes is not null and not f.is_insert and t.product_id = f.product_id and not t._deleted
       and t.terpene_name = x.terpene ->> 'name';
    insert into public.terpene_profiles (id, product_id, terpene_name, percentage, _modified)
    select coalesce((x.terpene ->> 'id')::uuid, gen_random_uuid()), f.product_id, x.terpene ->> 'name',
           (x.terpene ->> 'percentage')::numeric, v_now
      from pg_temp.product_import_applying f cross join jsonb_array_elements(f.terpenes) as x (terpene)
     where f.terpenes is not null
       and (f.is_insert or not exists (
         select 1 from public.terpene_profiles t
          where t.product_id = f.product_id and not t._deleted and t.terpene_name = x.terpene ->> 'name'
       ));
    update public.terpene_profiles t set _deleted = true, _modified = v_now
      from pg_temp.product_import_applying f
     where f.terpenes is not null and not f.is_insert and t.product_id = f.product_id and not t._deleted
       and not exists (
         select 1 from jsonb_array_elements(f.terpenes) as x (terpene)
          where x.terpene ->> 'name' = t.terpene_name
       );
    return null;
  end if;
  if p_step = 5 then
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
     where f.media is not null and f.is_insert;
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
    return null;
  end if;
  if p_step <> 6 then
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

-- Writes an import whose p_count rows are all staged (decision 033), all steps in one call.
create or replace function public.admin_import_apply(p_import uuid, p_count integer)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_result jsonb;
begin
  for v_step in 1..6 loop
    v_result := public.product_import_apply_step(p_import, p_count, v_step);
  end loop;
  return v_result;
end;
$$;

revoke execute on function public.admin_import_apply(uuid, integer) from public, anon;
grant execute on function public.admin_import_apply(uuid, integer) to authenticated, service_role;
