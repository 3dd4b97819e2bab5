-- claim_first_admin(): the first sign-up of a fresh shop makes its user the admin (DESIGN.md §8:
-- admin sign-up works only while the shop has no admin; later staff are added by an admin).
-- Returns true when the caller is (now) an admin, false when another admin already exists.
--
-- The profile table is locked for the check-and-insert, so two first sign-ups racing each other
-- cannot both become admin: the second waits, then sees the first one's row.

create or replace function public.claim_first_admin()
returns boolean
language plpgsql
security definer
set search_path = public
as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception 'Sign in before claiming the admin account' using errcode = '42501';
  end if;
  lock table public.user_profiles in share row exclusive mode;
  if exists (
    select 1 from public.user_profiles
    where role = 'admin' and not _deleted and user_id <> v_uid
  ) then
    return false;
  end if;
  insert into public.user_profiles (user_id, role)
  values (v_uid, 'admin')
  on conflict (user_id) do update set role = 'admin', _deleted = false;
  return true;
end;
$$;

revoke execute on function public.claim_first_admin() from public, anon;
grant execute on function public.claim_first_admin() to authenticated, service_role;
