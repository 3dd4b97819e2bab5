-- Imports checked and staged in small transactions, then applied in one short set-based one
-- (issue 24, docs/decisions/033).
--
-- Decision 031's import saved row after row through admin_save_product in one transaction: 6-10 s
-- for 5,000 rows, and PGlite's one connection was held the whole time, so every shop request
-- waited. Now an import is three steps:
--
--   admin_import_begin()                      opens an import (its rows are kept apart from
--                                             every other import's), and drops abandoned ones;
--   admin_import_stage(import, first, rows)   checks a chunk of rows exactly as admin_save_product
--                                             would have, in row order, against the catalogue as
--                                             the rows before them leave it, and keeps each as a
--                                             normalised change; the first refusal raises
--                                             "Row N (SKU …): <admin_save_product's message>";
--   admin_import_apply(import, count)         writes every staged change with one statement per
--                                             table, bumps the change feed once, forgets the import.
--
-- The embedded server drives the three for one POST /rest/v1/rpc/admin_import_products, each chunk
-- in its own transaction, so requests queued meanwhile are answered between chunks
-- (supabase/local/shop/import-products.ts); admin_import_products(p_rows) itself runs the same three in
-- one transaction (for callers that are not the embedded server's REST API). Nothing reaches the
-- catalogue before the apply, so a refusal at any row writes nothing.

create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

create unlogged table private.product_imports (
  id uuid primary key default gen_random_uuid(),
  -- The admin who opened it (null for the service role): nobody else may stage into or apply it.
  owner_id uuid,
  staged integer not null default 0,
  started_at timestamptz not null default clock_timestamp(),
  touched_at timestamptz not null default clock_timestamp()
);

-- One row per staged import row. A product named by several rows of one import has one live
-- (not superseded) row at a time, carrying the changes of all its rows so far.
create unlogged table private.product_import_rows (
  import_id uuid not null references private.product_imports (id) on delete cascade,
  n integer not null,
  -- The row's own SKU, as a refusal names it ("Row 3 (SKU FLW-3): …").
  label_sku text,
  product_id uuid not null,
  -- This row created the product (admin_save_product's "created").
  creating boolean not null,
  -- The product is not in the catalogue yet: the apply inserts it.
  is_insert boolean not null,
  superseded boolean not null default false,
  -- The product's SKU and slug once this row is saved.
  sku text not null,
  slug text not null,
  -- The columns the rows set, normalised: { "price": 12.5, "brand_id": null, … }.
  fields jsonb not null,
  -- Given lists (null: left as they are): effect names, [{name, percentage}], and
  -- [{id, media_url, media_type, is_primary, display_order}] with every id decided.
  effects text[],
  terpenes jsonb,
  media jsonb,
  -- Media ids the row named itself, for "Media … belongs to another product" across rows.
  media_ids uuid[],
  primary key (import_id, n)
);

-- A chunk's rows while admin_import_stage sorts the plain ones from the rest (emptied before it
-- returns). A table rather than a temporary one: emptying a temporary table gives it a new file,
-- and that makes every statement that reads it plan again, chunk after chunk.
create unlogged table private.product_import_chunk (
  import_id uuid not null,
  n integer not null,
  r jsonb,
  id uuid,
  sku text,
  name text,
  base text,
  stem text,
  repeated boolean,
  plain boolean,
  primary key (import_id, n)
);

create index product_import_rows_product_idx
  on private.product_import_rows (import_id, product_id) where not superseded;
create index product_import_rows_sku_idx
  on private.product_import_rows (import_id, sku) where not superseded;
create index product_import_rows_slug_idx
  on private.product_import_rows (import_id, slug) where not superseded;
create index product_import_rows_media_ids_idx
  on private.product_import_rows using gin (media_ids) where media_ids is not null;

-- Only the functions below (security definer) touch the staging tables; the API cannot reach
-- schema private at all.
revoke all on private.product_imports, private.product_import_rows, private.product_import_chunk
  from public, anon, authenticated;

-- The open import p_import of the caller, touched; refuses anyone else's or a closed one.
create or replace function public.product_import_of_caller(p_import uuid)
returns private.product_imports
language plpgsql
security definer
set search_path = public
as $$
declare
  v private.product_imports;
begin
  update private.product_imports set touched_at = clock_timestamp()
   where id = p_import and owner_id is not distinct from auth.uid()
  returning * into v;
  if not found then
    raise exception 'Import % is not open', p_import using errcode = '22023';
  end if;
  return v;
end;
$$;

revoke execute on function public.product_import_of_caller(uuid) from public, anon, authenticated;

-- A unique slug for p_id as the catalogue stands once the import's rows so far are saved
-- (unique_slug's rule: -2, -3, … until no other live product has it).
create or replace function public.product_import_slug(p_import uuid, p_base text, p_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_base text := left(public.slugify(p_base), 80);
  v_slug text := v_base;
  v_n integer := 1;
begin
  loop
    exit when not exists (
      select 1 from private.product_import_rows r
       where r.import_id = p_import and not r.superseded and r.slug = v_slug and r.product_id <> p_id
    ) and not exists (
      select 1 from public.products p
       where p.slug = v_slug and not p._deleted and p.id <> p_id
         and not exists (
           select 1 from private.product_import_rows r
            where r.import_id = p_import and not r.superseded and r.product_id = p.id
         )
    );
    v_n := v_n + 1;
    v_slug := v_base || '-' || v_n;
  end loop;
  return v_slug;
end;
$$;

revoke execute on function public.product_import_slug(uuid, text, uuid) from public, anon, authenticated;

-- Checks one row exactly as admin_save_product does (same order, same messages) against the
-- catalogue as the import's earlier rows leave it, and stages it. Internal.
create or replace function public.product_import_stage_row(p_import uuid, p_n integer, p_row jsonb)
returns void
language plpgsql
security definer
set search_path = public
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

-- A number a row gives that product_input_number (and the column's type) takes without refusal.
-- (No search_path of its own, so that it is inlined into the set-based check; built-ins only.)
create or replace function public.product_import_number_ok(
  p_value jsonb,
  p_max numeric,
  p_whole boolean,
  p_below numeric
)
returns boolean
language sql
immutable
as $$
  select p_value is null or jsonb_typeof(p_value) = 'null' or (
    jsonb_typeof(p_value) = 'number'
    and (p_value #>> '{}')::numeric >= 0
    and (p_value #>> '{}')::numeric <= coalesce(p_max, p_below)
    and (p_value #>> '{}')::numeric < p_below
    and (not p_whole or (p_value #>> '{}')::numeric = trunc((p_value #>> '{}')::numeric))
  )
$$;

revoke execute on function public.product_import_number_ok(jsonb, numeric, boolean, numeric) from public, anon, authenticated;


-- Stages, in one statement, the rows of a chunk that plainly pass: each creates a new product, every
-- value is one admin_save_product takes as it is, and nothing ties the row to another row of the
-- chunk or of the import (its id, SKU and slug are nobody else's; its slug is not one a unique_slug
-- of another row could make; no media ids of its own). Such a row is checked and saved the same
-- whenever it comes, so staging it ahead of the chunk's other rows changes nothing. Returns the
-- row numbers left to the row-by-row check. Internal.
create or replace function public.product_import_stage_plain_rows(p_import uuid, p_first integer, p_rows jsonb)
returns integer[]
language plpgsql
security definer
set search_path = public
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
      'product_type_id', nullif(c.r ->> 'product_type_id', '')::uuid
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

create or replace function public.admin_import_begin()
returns uuid
language plpgsql
security definer
set search_path = public
as $$
declare
  v_id uuid;
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  -- Imports whose server went away (or that were never applied) are dropped after a while.
  delete from private.product_imports where touched_at < clock_timestamp() - interval '15 minutes';
  insert into private.product_imports (owner_id) values (auth.uid()) returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function public.admin_import_begin() from public, anon;
grant execute on function public.admin_import_begin() to authenticated, service_role;

-- Stages rows p_first, p_first + 1, … of an open import (chunks come in order). Returns how many
-- rows the import has staged.
create or replace function public.admin_import_stage(p_import uuid, p_first integer, p_rows jsonb)
returns integer
language plpgsql
security definer
set search_path = public
as $$
declare
  v_import private.product_imports;
  v_row jsonb;
  v_n integer;
  v_state text;
  v_message text;
  v_sku text;
  v_careful integer[];
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  v_import := public.product_import_of_caller(p_import);
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'The rows must be a JSON list of products' using errcode = '22023';
  end if;
  if p_first is distinct from v_import.staged + 1 then
    raise exception 'Import % has % rows staged: the next chunk starts at row %', p_import,
      v_import.staged, v_import.staged + 1 using errcode = '22023';
  end if;
  if v_import.staged + jsonb_array_length(p_rows) > 5000 then
    raise exception 'At most 5000 products can be imported at once' using errcode = '22023';
  end if;

  -- Most rows of an import create a product and are plainly valid: those are checked and staged
  -- together (below); every other row goes through the row-by-row check, in row order, which also
  -- finds the first refusal and its exact message.
  v_careful := public.product_import_stage_plain_rows(p_import, p_first, p_rows);

  for v_row, v_n in
    select value, ordinality from jsonb_array_elements(p_rows) with ordinality
     where p_first + ordinality - 1 = any (v_careful)
     order by ordinality
  loop
    v_n := p_first + v_n - 1;
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

  update private.product_imports set staged = staged + jsonb_array_length(p_rows) where id = p_import
  returning staged into v_n;
  return v_n;
end;
$$;

revoke execute on function public.admin_import_stage(uuid, integer, jsonb) from public, anon;
grant execute on function public.admin_import_stage(uuid, integer, jsonb) to authenticated, service_role;

create or replace function public.admin_import_abort(p_import uuid)
returns void
language plpgsql
security definer
set search_path = public
as $$
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  delete from private.product_imports where id = p_import and owner_id is not distinct from auth.uid();
end;
$$;

revoke execute on function public.admin_import_abort(uuid) from public, anon;
grant execute on function public.admin_import_abort(uuid) to authenticated, service_role;

-- Writes an import whose p_count rows are all staged, one statement per table, and forgets it.
-- The catalogue may have changed since the rows were checked (another admin's save, another
-- import): what would now be refused is refused with the message its row would have had.
create or replace function public.admin_import_apply(p_import uuid, p_count integer)
returns jsonb
language plpgsql
security definer
set search_path = public
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
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  v_import := public.product_import_of_caller(p_import);
  if v_import.staged is distinct from p_count then
    raise exception 'Import % has % of % rows staged', p_import, v_import.staged, p_count
      using errcode = '22023';
  end if;

  -- The products as the import leaves them, one row each (the last row naming it).
  create temporary table if not exists product_import_final (
    n integer, label_sku text, product_id uuid primary key, is_insert boolean, sku text,
    fields jsonb, effects text[], terpenes jsonb, media jsonb
  ) on commit delete rows;
  truncate pg_temp.product_import_final;
  insert into pg_temp.product_import_final
  select r.n, r.label_sku, r.product_id, r.is_insert, r.sku, r.fields, r.effects, r.terpenes, r.media
    from private.product_import_rows r
   where r.import_id = p_import and not r.superseded;

  -- Re-checked against the catalogue as it is now; the first refused row (in row order) wins.
  select n, label_sku, message into v_n, v_sku, v_message from (
    select f.n, f.label_sku, format('Product with ID %s not found', f.product_id) as message
      from pg_temp.product_import_final f join public.products p on p.id = f.product_id
     where p._deleted
    union all
    select f.n, f.label_sku, format('Product with ID %s not found', f.product_id)
      from pg_temp.product_import_final f
     where not f.is_insert and not exists (select 1 from public.products p where p.id = f.product_id)
    union all
    select f.n, f.label_sku, format('SKU %s already exists for another product', f.sku)
      from pg_temp.product_import_final f
     where exists (
       select 1 from public.products p
        where p.sku = f.sku and p.id <> f.product_id and not p._deleted
          and not exists (select 1 from pg_temp.product_import_final o where o.product_id = p.id)
     )
    union all
    select f.n, f.label_sku, format('%s %s not found', ref.label, f.fields ->> ref.key)
      from pg_temp.product_import_final f
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
      from pg_temp.product_import_final f cross join jsonb_array_elements(f.media) as m
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
  update pg_temp.product_import_final f set is_insert = false
    from public.products p where f.is_insert and p.id = f.product_id;

  -- SKUs and slugs handed from one product of the import to another would collide inside one
  -- update (unique indexes are checked row by row): those products first step aside.
  update public.products p
     set _modified = v_now,
         sku = case when f.fields ->> 'sku' <> p.sku then p.sku || ' ' || p.id::text else p.sku end,
         slug = case when f.fields ->> 'slug' <> p.slug
           then p.slug || '-' || replace(p.id::text, '-', '') else p.slug end
    from pg_temp.product_import_final f
   where not f.is_insert and p.id = f.product_id
     and ((f.fields ? 'sku' and f.fields ->> 'sku' <> p.sku)
       or (f.fields ? 'slug' and f.fields ->> 'slug' <> p.slug));

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
    from pg_temp.product_import_final f
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
    from pg_temp.product_import_final f
   where not f.is_insert and p.id = f.product_id;

  -- effects: the given names live, the others soft-deleted
  update public.product_effects e set _deleted = true, _modified = v_now
    from pg_temp.product_import_final f
   where f.effects is not null and not f.is_insert and e.product_id = f.product_id and not e._deleted
     and e.effect_name <> all (f.effects);
  insert into public.product_effects (product_id, effect_name, _modified)
  select f.product_id, x.effect, v_now
    from pg_temp.product_import_final f cross join unnest(f.effects) as x (effect)
   where f.effects is not null
     and (f.is_insert or not exists (
       select 1 from public.product_effects e
        where e.product_id = f.product_id and not e._deleted and e.effect_name = x.effect
     ));

  -- terpenes: percentages updated in place, new names added, the others soft-deleted
  update public.terpene_profiles t set percentage = (x.terpene ->> 'percentage')::numeric, _modified = v_now
    from pg_temp.product_import_final f cross join jsonb_array_elements(f.terpenes) as x (terpene)
   where f.terpenes is not null and not f.is_insert and t.product_id = f.product_id and not t._deleted
     and t.terpene_name = x.terpene ->> 'name';
  insert into public.terpene_profiles (product_id, terpene_name, percentage, _modified)
  select f.product_id, x.terpene ->> 'name', (x.terpene ->> 'percentage')::numeric, v_now
    from pg_temp.product_import_final f cross join jsonb_array_elements(f.terpenes) as x (terpene)
   where f.terpenes is not null
     and (f.is_insert or not exists (
       select 1 from public.terpene_profiles t
        where t.product_id = f.product_id and not t._deleted and t.terpene_name = x.terpene ->> 'name'
     ));
  update public.terpene_profiles t set _deleted = true, _modified = v_now
    from pg_temp.product_import_final f
   where f.terpenes is not null and not f.is_insert and t.product_id = f.product_id and not t._deleted
     and not exists (
       select 1 from jsonb_array_elements(f.terpenes) as x (terpene)
        where x.terpene ->> 'name' = t.terpene_name
     );

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
    from pg_temp.product_import_final f cross join jsonb_array_elements(f.media) as m (entry)
   where f.media is not null and f.is_insert;
  insert into public.product_media (id, product_id, media_url, media_type, is_primary, display_order, _deleted, _modified)
  select (m.entry ->> 'id')::uuid, f.product_id, m.entry ->> 'media_url', m.entry ->> 'media_type',
         (m.entry ->> 'is_primary')::boolean, (m.entry ->> 'display_order')::integer, false, v_now
    from pg_temp.product_import_final f cross join jsonb_array_elements(f.media) as m (entry)
   where f.media is not null and not f.is_insert
  on conflict (id) do update set
    media_url = excluded.media_url,
    media_type = excluded.media_type,
    is_primary = excluded.is_primary,
    display_order = excluded.display_order,
    _deleted = false,
    _modified = excluded._modified;
  update public.product_media pm set _deleted = true, is_primary = false, _modified = v_now
    from pg_temp.product_import_final f
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
        join pg_temp.product_import_final f on f.product_id = m.product_id and not f.is_insert
       where not m._deleted
       order by m.product_id, m.is_primary desc, m.display_order, m.created_at, m.id
    ) first
   where pm.product_id = first.product_id and not pm._deleted
     and pm.is_primary is distinct from (pm.id = first.id);

  if v_replica then
    perform set_config('session_replication_role', 'origin', true);
  end if;
  perform set_config('humo.bulk', '', true);
  if not v_replica then
    -- The triggers gave every row its own clock; the products move past their lists' rows (as
    -- decision 031 does), so a device pulling from its checkpoint gets each one whole.
    update public.products set _modified = clock_timestamp()
     where id in (select product_id from pg_temp.product_import_final);
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

  return jsonb_build_object(
    'count', coalesce(array_length(v_ids, 1), 0),
    'created', v_created,
    'updated', coalesce(array_length(v_ids, 1), 0) - v_created,
    'ids', to_jsonb(v_ids)
  );
end;
$$;

revoke execute on function public.admin_import_apply(uuid, integer) from public, anon;
grant execute on function public.admin_import_apply(uuid, integer) to authenticated, service_role;

-- The whole import in one transaction (the embedded server's REST API stages it in chunks
-- instead, supabase/local/shop/import-products.ts): same refusals, same writes.
create or replace function public.admin_import_products(p_rows jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_import uuid;
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
  v_import := public.admin_import_begin();
  perform public.admin_import_stage(v_import, 1, p_rows);
  return public.admin_import_apply(v_import, jsonb_array_length(p_rows));
end;
$$;

revoke execute on function public.admin_import_products(jsonb) from public, anon;
grant execute on function public.admin_import_products(jsonb) to authenticated, service_role;
