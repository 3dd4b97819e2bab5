-- Brands (SPEC.md §3), with a slug for brand filters and URLs.

create table public.brands (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(trim(name)) > 0),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  description text,
  founded_year integer check (founded_year between 1800 and 2200),
  logo_url text,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index brands_modified_idx on public.brands (_modified, id);

create trigger brands_set_modified
  before insert or update on public.brands
  for each row execute function public.set_modified();

create trigger brands_set_updated_at
  before update on public.brands
  for each row execute function public.set_updated_at();

alter table public.brands enable row level security;

create policy "brands: read active"
  on public.brands for select
  to anon, authenticated
  using (is_active and not _deleted);

create policy "brands: admins read and write all"
  on public.brands for all
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

alter publication supabase_realtime add table public.brands;
