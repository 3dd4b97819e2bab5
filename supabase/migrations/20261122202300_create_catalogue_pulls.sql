-- Checkpointed pulls of categories, brands and product types for device replication, with the
-- same parameters, ordering, overlap window and {rows, behind} result as pull_products (see that
-- migration and docs/decisions/002). A category or brand that is inactive or deleted, and a
-- product type that is deleted, comes as a tombstone {id, _modified, _deleted: true}, which row
-- level security alone could not hand to a shopper's device.

create or replace function public.pull_categories(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  with settings as (
    select
      least(greatest(coalesce(max_rows, 200), 1), 2000) as row_limit,
      coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid) as checkpoint_id
  ),
  ahead as (
    select c.* from categories c, settings s
    where after_modified is null or (c._modified, c.id) > (after_modified, s.checkpoint_id)
    order by c._modified, c.id
    limit (select row_limit from settings)
  ),
  behind as (
    select c.* from categories c, settings s
    where behind_from is not null and after_modified is not null
      and c._modified >= behind_from
      and (c._modified, c.id) <= (after_modified, s.checkpoint_id)
    order by c._modified, c.id
    limit (select row_limit from settings)
  ),
  docs as (
    select k.part, k.id, k._modified,
      case when k.is_active and not k._deleted then
        jsonb_build_object(
          'id', k.id, 'name', k.name, 'slug', k.slug, 'description', k.description,
          'display_order', k.display_order, 'is_active', k.is_active,
          'created_at', k.created_at, 'updated_at', k.updated_at,
          '_modified', to_char(k._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', false)
      else
        jsonb_build_object(
          'id', k.id,
          '_modified', to_char(k._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', true)
      end as doc
    from (select 'rows' as part, * from ahead union all select 'behind' as part, * from behind) k
  )
  select jsonb_build_object(
    'rows', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'rows'), '[]'::jsonb),
    'behind', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'behind'), '[]'::jsonb)
  )
$$;

revoke execute on function public.pull_categories(timestamptz, uuid, integer, timestamptz) from public;
grant execute on function public.pull_categories(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;

create or replace function public.pull_brands(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  with settings as (
    select
      least(greatest(coalesce(max_rows, 200), 1), 2000) as row_limit,
      coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid) as checkpoint_id
  ),
  ahead as (
    select b.* from brands b, settings s
    where after_modified is null or (b._modified, b.id) > (after_modified, s.checkpoint_id)
    order by b._modified, b.id
    limit (select row_limit from settings)
  ),
  behind as (
    select b.* from brands b, settings s
    where behind_from is not null and after_modified is not null
      and b._modified >= behind_from
      and (b._modified, b.id) <= (after_modified, s.checkpoint_id)
    order by b._modified, b.id
    limit (select row_limit from settings)
  ),
  docs as (
    select k.part, k.id, k._modified,
      case when k.is_active and not k._deleted then
        jsonb_build_object(
          'id', k.id, 'name', k.name, 'slug', k.slug, 'description', k.description,
          'founded_year', k.founded_year, 'logo_url', k.logo_url, 'is_active', k.is_active,
          'created_at', k.created_at, 'updated_at', k.updated_at,
          '_modified', to_char(k._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', false)
      else
        jsonb_build_object(
          'id', k.id,
          '_modified', to_char(k._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', true)
      end as doc
    from (select 'rows' as part, * from ahead union all select 'behind' as part, * from behind) k
  )
  select jsonb_build_object(
    'rows', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'rows'), '[]'::jsonb),
    'behind', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'behind'), '[]'::jsonb)
  )
$$;

revoke execute on function public.pull_brands(timestamptz, uuid, integer, timestamptz) from public;
grant execute on function public.pull_brands(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;

create or replace function public.pull_product_types(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  with settings as (
    select
      least(greatest(coalesce(max_rows, 200), 1), 2000) as row_limit,
      coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid) as checkpoint_id
  ),
  ahead as (
    select t.* from product_types t, settings s
    where after_modified is null or (t._modified, t.id) > (after_modified, s.checkpoint_id)
    order by t._modified, t.id
    limit (select row_limit from settings)
  ),
  behind as (
    select t.* from product_types t, settings s
    where behind_from is not null and after_modified is not null
      and t._modified >= behind_from
      and (t._modified, t.id) <= (after_modified, s.checkpoint_id)
    order by t._modified, t.id
    limit (select row_limit from settings)
  ),
  docs as (
    select k.part, k.id, k._modified,
      case when not k._deleted then
        jsonb_build_object(
          'id', k.id, 'name', k.name, 'description', k.description,
          'created_at', k.created_at, 'updated_at', k.updated_at,
          '_modified', to_char(k._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', false)
      else
        jsonb_build_object(
          'id', k.id,
          '_modified', to_char(k._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', true)
      end as doc
    from (select 'rows' as part, * from ahead union all select 'behind' as part, * from behind) k
  )
  select jsonb_build_object(
    'rows', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'rows'), '[]'::jsonb),
    'behind', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'behind'), '[]'::jsonb)
  )
$$;

revoke execute on function public.pull_product_types(timestamptz, uuid, integer, timestamptz) from public;
grant execute on function public.pull_product_types(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;
