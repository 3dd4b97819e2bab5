-- Product types: the sub-category of a product (Indica, Sativa, Gummies, Live Resin, ...).

create table public.product_types (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (length(trim(name)) > 0),
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index product_types_modified_idx on public.product_types (_modified, id);

create trigger product_types_set_modified
  before insert or update on public.product_types
  for each row execute function public.set_modified();

create trigger product_types_set_updated_at
  before update on public.product_types
  for each row execute function public.set_updated_at();

alter table public.product_types enable row level security;

create policy "product_types: read not deleted"
  on public.product_types for select
  to anon, authenticated
  using (not _deleted);

create policy "product_types: admins read and write all"
  on public.product_types for all
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

alter publication supabase_realtime add table public.product_types;
