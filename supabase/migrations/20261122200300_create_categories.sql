-- Top-level menu categories (SPEC.md §3); slug is what /menu/{category} uses.

create table public.categories (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(trim(name)) > 0),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  description text,
  display_order integer,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index categories_modified_idx on public.categories (_modified, id);

create trigger categories_set_modified
  before insert or update on public.categories
  for each row execute function public.set_modified();

create trigger categories_set_updated_at
  before update on public.categories
  for each row execute function public.set_updated_at();

alter table public.categories enable row level security;

create policy "categories: read active"
  on public.categories for select
  to anon, authenticated
  using (is_active and not _deleted);

create policy "categories: admins read and write all"
  on public.categories for all
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

alter publication supabase_realtime add table public.categories;
