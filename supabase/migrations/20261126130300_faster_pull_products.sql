-- pull_products at a third of its cost per page (issue 24, docs/decisions/035). Same name,
-- arguments, grants and answer ({rows, behind, read_at}, every key and value as before): a
-- device's first sync of 10,000 products asks for it ten times, and each page of 1,000 cost the
-- database ~100 ms of CPU, now ~40 ms.
--
-- What made it slow:
-- - The checkpoint's id came from a CTE, so `(_modified, id) > (after_modified, checkpoint)` was
--   not an index condition: every page scanned the index from the start and filtered out the
--   rows of all pages before it (the tenth page read 10,000 entries to return 1,000).
-- - Six correlated subqueries per product (brand, category, type, media, effects, terpenes), each
--   building jsonb, then the page aggregated as jsonb, concatenated with read_at (a copy of the
--   whole page) and printed as text for the answer.
-- Now the page's ids are picked by the index, the children of all of them are aggregated in one
-- pass per table, the documents are built as json (text, no binary form to print again), and
-- read_at is part of the one object built. pull_products_page (the page without read_at, called
-- only by pull_products since 20261123090000_pull_read_at.sql) goes.

drop function if exists public.pull_products(timestamptz, uuid, integer, timestamptz);
drop function if exists public.pull_products_page(timestamptz, uuid, integer, timestamptz);

create function public.pull_products(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns json
language sql
stable
security definer
set search_path = public
as $$
  with picked as materialized (
    (
      select p.id, true as ahead
      from products p
      where after_modified is null
         or (p._modified, p.id)
            > (after_modified, coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid))
      order by p._modified, p.id
      limit least(greatest(coalesce(max_rows, 200), 1), 2000)
    )
    union all
    (
      select p.id, false as ahead
      from products p
      where behind_from is not null
        and after_modified is not null
        and p._modified >= behind_from
        and (p._modified, p.id)
            <= (after_modified, coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid))
      order by p._modified, p.id
      limit least(greatest(coalesce(max_rows, 200), 1), 2000)
    )
  ),
  media as (
    select m.product_id,
      json_agg(
        (select x from (select m.id, m.media_url, m.media_type, m.is_primary, m.display_order) x)
        order by m.display_order, m.id
      ) as items
    from product_media m
    where m.product_id = any(array(select id from picked)) and not m._deleted
    group by m.product_id
  ),
  effects as (
    select e.product_id,
      json_agg((select x from (select e.id, e.effect_name) x) order by e.effect_name, e.id) as items
    from product_effects e
    where e.product_id = any(array(select id from picked)) and not e._deleted
    group by e.product_id
  ),
  terpenes as (
    select tp.product_id,
      json_agg(
        (select x from (select tp.id, tp.terpene_name, tp.percentage) x)
        order by tp.percentage desc nulls last, tp.terpene_name, tp.id
      ) as items
    from terpene_profiles tp
    where tp.product_id = any(array(select id from picked)) and not tp._deleted
    group by tp.product_id
  ),
  docs as (
    select k.ahead, p._modified, p.id,
      case when p.is_active and not p._deleted then
        (
          select row_to_json(x) from (
            select
              p.id, p.name, p.slug, p.sku, p.description, p.price, p.original_price,
              p.quantity_available, p.is_unlimited_quantity, p.is_active, p.is_on_sale,
              p.is_featured, p.rating, p.review_count, p.thc_percentage, p.cbd_percentage,
              p.total_cannabinoids_percentage, p.smokeback_percentage, p.weight_grams,
              p.created_at, p.updated_at,
              to_char(p._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as _modified,
              false as _deleted,
              case when b.id is not null then (select x from (select b.id, b.name, b.slug) x) end
                as brand,
              case when c.id is not null then (select x from (select c.id, c.name, c.slug) x) end
                as category,
              case when t.id is not null then (select x from (select t.id, t.name) x) end
                as product_type,
              coalesce(media.items, '[]'::json) as product_media,
              coalesce(effects.items, '[]'::json) as product_effects,
              coalesce(terpenes.items, '[]'::json) as terpene_profiles
          ) x
        )
      else
        json_build_object(
          'id', p.id,
          '_modified', to_char(p._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', true
        )
      end as doc
    from picked k
    join products p on p.id = k.id
    left join brands b on b.id = p.brand_id
    left join categories c on c.id = p.category_id
    left join product_types t on t.id = p.product_type_id
    left join media on media.product_id = p.id
    left join effects on effects.product_id = p.id
    left join terpenes on terpenes.product_id = p.id
  )
  select json_build_object(
    'rows', coalesce((select json_agg(d.doc order by d._modified, d.id) from docs d where d.ahead), '[]'::json),
    'behind', coalesce((select json_agg(d.doc order by d._modified, d.id) from docs d where not d.ahead), '[]'::json),
    'read_at', now()
  )
$$;

revoke execute on function public.pull_products(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;
grant execute on function public.pull_products(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;
