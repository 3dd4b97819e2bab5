-- Owners only: tax settings and the compliance rules; budtenders read the admin catalogue (issue 32,
-- docs/decisions/053). public.is_admin() (owner or manager) already keeps budtenders and drivers
-- out of every other settings, catalogue and export path.

-- Tax settings ------------------------------------------------------------------------------------
-- The rates live in compliance_rules (20261128100000); shop_settings.tax_rate is the old single
-- rate old clients still send. A change of it by anyone but an owner is refused, whichever way it
-- comes (admin_save_shop_settings or a PATCH of the row).
create or replace function private.tax_settings_owner_only()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if coalesce(auth.role(), '') in ('authenticated', 'anon') and not public.is_owner() then
    if tg_table_name = 'compliance_rules' then
      raise exception 'Only an owner can change tax settings.' using errcode = '42501';
    end if;
    -- (A separate test: new.tax_rate exists only on shop_settings.)
    if new.tax_rate is distinct from old.tax_rate then
      raise exception 'Only an owner can change tax settings.' using errcode = '42501';
    end if;
  end if;
  return coalesce(new, old);
end;
$$;

revoke all on function private.tax_settings_owner_only() from public, anon, authenticated;

create trigger shop_settings_tax_owner_only
  before update of tax_rate on public.shop_settings
  for each row execute function private.tax_settings_owner_only();

create trigger compliance_rules_owner_only
  before insert or update or delete on public.compliance_rules
  for each row execute function private.tax_settings_owner_only();

-- The compliance rules' RPCs say so before looking at their input (20261128100000's bodies move to
-- the private schema and these wrap them).
alter function public.admin_save_compliance_rule(jsonb) rename to admin_save_compliance_rule_checked;
alter function public.admin_save_compliance_rule_checked(jsonb) set schema private;
revoke all on function private.admin_save_compliance_rule_checked(jsonb) from public, anon, authenticated;

create or replace function public.admin_save_compliance_rule(p_rule jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
begin
  if not (public.is_owner() or coalesce(auth.role(), '') = 'service_role') then
    perform private.refuse_role('Only an owner can change tax settings.');
  end if;
  return private.admin_save_compliance_rule_checked(p_rule);
end;
$$;

revoke execute on function public.admin_save_compliance_rule(jsonb) from public, anon;
grant execute on function public.admin_save_compliance_rule(jsonb) to authenticated, service_role;

alter function public.admin_delete_compliance_rule(uuid) rename to admin_delete_compliance_rule_checked;
alter function public.admin_delete_compliance_rule_checked(uuid) set schema private;
revoke all on function private.admin_delete_compliance_rule_checked(uuid) from public, anon, authenticated;

create or replace function public.admin_delete_compliance_rule(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
begin
  if not (public.is_owner() or coalesce(auth.role(), '') = 'service_role') then
    perform private.refuse_role('Only an owner can change tax settings.');
  end if;
  return private.admin_delete_compliance_rule_checked(p_id);
end;
$$;

revoke execute on function public.admin_delete_compliance_rule(uuid) from public, anon;
grant execute on function public.admin_delete_compliance_rule(uuid) to authenticated, service_role;

-- pull_products_admin_page: budtenders too. Otherwise 20261128100500's body.
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
  -- Budtenders read the catalogue (they answer questions at the counter) but never write it.
  -- (coalesce: a shopper's null role must refuse, not slip through as an unknown.)
  if not coalesce(public.is_admin() or public.staff_role() = 'budtender'
                  or auth.role() = 'service_role', false) then
    raise exception 'Staff privileges required' using errcode = '42501';
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
