-- Checkpointed product pull for device replication (DESIGN.md §3).
--
-- Devices keep a checkpoint (_modified, id) and ask for what changed after it. Row level security
-- would hide inactive and deleted products entirely, so a device could never learn that a
-- product it holds went away; this function runs as its owner and hands out a tombstone
-- ({id, _modified, _deleted: true}) for such rows, and the full product, with its brand,
-- category, type, media, effects and terpenes, for the rest.
--
-- `behind` re-reads an overlap window (_modified >= behind_from, up to the checkpoint) because a
-- transaction that started earlier can commit after rows with later _modified values were
-- already pulled; the client merges it idempotently.
--
-- _modified is returned as fixed-width UTC text with microseconds, so the client can hand it back
-- unchanged and compare checkpoints as strings.

create or replace function public.pull_products(
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
    select p.id, p._modified
    from products p, settings s
    where after_modified is null
       or (p._modified, p.id) > (after_modified, s.checkpoint_id)
    order by p._modified, p.id
    limit (select row_limit from settings)
  ),
  behind as (
    select p.id, p._modified
    from products p, settings s
    where behind_from is not null
      and after_modified is not null
      and p._modified >= behind_from
      and (p._modified, p.id) <= (after_modified, s.checkpoint_id)
    order by p._modified, p.id
    limit (select row_limit from settings)
  ),
  picked as (
    select id, _modified, 'rows' as part from ahead
    union all
    select id, _modified, 'behind' as part from behind
  ),
  docs as (
    select
      k.part,
      p.id,
      p._modified,
      case
        when p.is_active and not p._deleted then
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
            '_deleted', true
          )
      end as doc
    from picked k
    join products p on p.id = k.id
  )
  select jsonb_build_object(
    'rows', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'rows'), '[]'::jsonb),
    'behind', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'behind'), '[]'::jsonb)
  )
$$;

revoke execute on function public.pull_products(timestamptz, uuid, integer, timestamptz) from public;
grant execute on function public.pull_products(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;
