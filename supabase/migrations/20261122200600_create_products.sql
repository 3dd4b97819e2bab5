-- Products (SPEC.md §3). Shoppers read active, non-deleted rows; admins read and write all.
-- Deactivated or soft-deleted products reach devices as tombstones through pull_products(),
-- because row level security cannot hand anon a reduced projection of a row it may not read.

create table public.products (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(trim(name)) > 0),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  sku text not null unique check (length(trim(sku)) > 0),
  description text,
  price numeric(10, 2) check (price >= 0),
  original_price numeric(10, 2) check (original_price >= 0),
  quantity_available integer check (quantity_available >= 0),
  is_unlimited_quantity boolean not null default false,
  is_active boolean not null default true,
  is_on_sale boolean not null default false,
  is_featured boolean not null default false,
  rating numeric(3, 2) check (rating between 0 and 5),
  review_count integer not null default 0 check (review_count >= 0),
  thc_percentage numeric(5, 2) check (thc_percentage between 0 and 100),
  cbd_percentage numeric(5, 2) check (cbd_percentage between 0 and 100),
  total_cannabinoids_percentage numeric(5, 2) check (total_cannabinoids_percentage between 0 and 100),
  smokeback_percentage numeric(5, 2) check (smokeback_percentage between 0 and 100),
  weight_grams numeric(10, 2) check (weight_grams >= 0),
  brand_id uuid references public.brands (id) on delete restrict,
  category_id uuid references public.categories (id) on delete restrict,
  product_type_id uuid references public.product_types (id) on delete restrict,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index products_modified_idx on public.products (_modified, id);
create index products_brand_id_idx on public.products (brand_id);
create index products_category_id_idx on public.products (category_id);
create index products_product_type_id_idx on public.products (product_type_id);
create index products_created_at_idx on public.products (created_at desc);

create trigger products_set_modified
  before insert or update on public.products
  for each row execute function public.set_modified();

create trigger products_set_updated_at
  before update on public.products
  for each row execute function public.set_updated_at();

alter table public.products enable row level security;

create policy "products: read active"
  on public.products for select
  to anon, authenticated
  using (is_active and not _deleted);

create policy "products: admins read and write all"
  on public.products for all
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

alter publication supabase_realtime add table public.products;

-- A change to a product's media, effects or terpenes moves the product's _modified, so a
-- checkpointed product pull brings the whole product again. security definer: the writer may
-- not be allowed to update products directly (and must not need to be).
create or replace function public.touch_parent_product()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update public.products set _modified = clock_timestamp() where id = old.product_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.product_id is distinct from old.product_id) then
    update public.products set _modified = clock_timestamp() where id = new.product_id;
  end if;
  return null;
end;
$$;

revoke execute on function public.touch_parent_product() from public, anon, authenticated;
