-- What the law needs to know of a product (issue 31; docs/decisions/051):
-- - is_cannabis: the cannabis excise tax applies (accessories and merchandise pay sales tax only);
-- - limit_class and limit_grams: which of 4 CCR §15409's daily limits the product counts toward
--   ('flower' for non-concentrated cannabis, 'concentrate' for concentrates and the concentrate
--   in manufactured products) and how many grams one unit counts (null: its weight_grams);
-- - thc_mg, cbd_mg and servings: potency per package the way California labels edibles, drinks,
--   tinctures and capsules (milligrams per package and per serving); flower and concentrates
--   keep their percentages.
-- Every product is touched once here, so every device pulls the new fields.

alter table public.products
  add column is_cannabis boolean not null default true,
  add column limit_class text constraint products_limit_class_check check (limit_class in ('flower', 'concentrate')),
  add column limit_grams numeric(10, 3) constraint products_limit_grams_check check (limit_grams >= 0 and limit_grams <= 100000),
  add column thc_mg numeric(8, 2) constraint products_thc_mg_check check (thc_mg >= 0 and thc_mg <= 100000),
  add column cbd_mg numeric(8, 2) constraint products_cbd_mg_check check (cbd_mg >= 0 and cbd_mg <= 100000),
  add column servings integer constraint products_servings_check check (servings between 1 and 1000);

-- Today's products by their category and type: merchandise is not cannabis; flower, pre-rolls
-- and bulk flower count toward the flower limit; concentrates (bulk ones too) toward the
-- concentrate limit by their weight. Edibles count by the concentrate they hold, which staff
-- enter (limit_grams) with their milligrams.
update public.products p
   set is_cannabis = not (coalesce(c.slug, '') = 'branded-bags' or coalesce(t.name, '') = 'Packaging'),
       limit_class = case
         when coalesce(c.slug, '') = 'branded-bags' or coalesce(t.name, '') = 'Packaging' then null
         when c.slug = 'flower' or t.name = 'Bulk Flower' then 'flower'
         when c.slug = 'concentrates' or t.name = 'Bulk Concentrates' then 'concentrate'
         else null
       end
  from public.products q
  left join public.categories c on c.id = q.category_id
  left join public.product_types t on t.id = q.product_type_id
 where q.id = p.id;

-- pull_products gains the new fields; everything else is 20261126130300_faster_pull_products.
create or replace function public.pull_products(
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
              p.is_cannabis, p.limit_class, p.limit_grams, p.thc_mg, p.cbd_mg, p.servings,
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
