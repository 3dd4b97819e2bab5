-- Staff roles. A row with role 'admin' makes the user an admin; public.is_admin() is what every
-- admin-only policy asks.

create table public.user_profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  role text not null default 'customer' check (role in ('admin', 'customer')),
  created_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index user_profiles_modified_idx on public.user_profiles (_modified, user_id);

create trigger user_profiles_set_modified
  before insert or update on public.user_profiles
  for each row execute function public.set_modified();

-- security definer so that policies on user_profiles itself can call it without recursing into
-- their own row level security.
create or replace function public.is_admin()
returns boolean
language sql
stable
security definer
set search_path = public
as $$
  select exists (
    select 1
    from public.user_profiles p
    where p.user_id = auth.uid()
      and p.role = 'admin'
      and not p._deleted
  )
$$;

grant execute on function public.is_admin() to anon, authenticated, service_role;

alter table public.user_profiles enable row level security;

create policy "user_profiles: read own"
  on public.user_profiles for select
  to authenticated
  using (user_id = auth.uid());

create policy "user_profiles: admins read all"
  on public.user_profiles for select
  to authenticated
  using (public.is_admin());

-- Later staff are added by an admin (DESIGN.md §8); the very first admin comes from
-- claim_first_admin(), which is the only way to an admin role without being one.
create policy "user_profiles: admins write all"
  on public.user_profiles for all
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

alter publication supabase_realtime add table public.user_profiles;
