-- Terpenes of a product with an optional percentage.

create table public.terpene_profiles (
  id uuid primary key default gen_random_uuid(),
  product_id uuid not null references public.products (id) on delete cascade,
  terpene_name text not null check (length(trim(terpene_name)) > 0),
  percentage numeric(5, 2) check (percentage between 0 and 100),
  created_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index terpene_profiles_modified_idx on public.terpene_profiles (_modified, id);
create index terpene_profiles_product_id_idx on public.terpene_profiles (product_id);

create trigger terpene_profiles_set_modified
  before insert or update on public.terpene_profiles
  for each row execute function public.set_modified();

create trigger terpene_profiles_touch_product
  after insert or update or delete on public.terpene_profiles
  for each row execute function public.touch_parent_product();

alter table public.terpene_profiles enable row level security;

create policy "terpene_profiles: read terpenes of readable products"
  on public.terpene_profiles for select
  to anon, authenticated
  using (
    not _deleted
    and exists (
      select 1 from public.products p
      where p.id = product_id and p.is_active and not p._deleted
    )
  );

create policy "terpene_profiles: admins read and write all"
  on public.terpene_profiles for all
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

alter publication supabase_realtime add table public.terpene_profiles;
