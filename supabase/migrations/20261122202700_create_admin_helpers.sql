-- Two small admin functions for the back office:
--   admin_exists(): whether the shop has an admin yet, so the login page shows the "create the
--     first admin account" link only while it can work (anyone may ask; it reveals one bit).
--   admin_grant_by_email(p_email): an admin makes another existing account an admin. A client
--     cannot look users up by email (auth.users is not exposed), so this runs as definer.

create or replace function public.admin_exists()
returns boolean
language sql
stable
security definer
set search_path = public
as $$
  select exists (select 1 from public.user_profiles where role = 'admin')
$$;

revoke execute on function public.admin_exists() from public;
grant execute on function public.admin_exists() to anon, authenticated, service_role;

create or replace function public.admin_grant_by_email(p_email text)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_user uuid;
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  select id into v_user from auth.users where lower(email) = lower(trim(coalesce(p_email, '')));
  if v_user is null then
    raise exception 'No account with the email %; ask them to create one first', trim(coalesce(p_email, ''))
      using errcode = 'P0001';
  end if;
  insert into public.user_profiles (user_id, role) values (v_user, 'admin')
  on conflict (user_id) do update set role = 'admin';
  return jsonb_build_object('userId', v_user, 'email', lower(trim(p_email)));
end;
$$;

revoke execute on function public.admin_grant_by_email(text) from public;
grant execute on function public.admin_grant_by_email(text) to authenticated, service_role;
