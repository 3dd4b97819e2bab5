-- Staff roles (issue 32, docs/decisions/053): the one 'admin' role becomes four.
--   owner      everything;
--   manager    everything but staff (invitations, roles) and tax settings;
--   budtender  the order board, handoffs and ID checks; no prices, products, settings, staff or
--              exports of customers' personal data;
--   driver     only the deliveries assigned to them (orders.driver_id, 20261129110100).
-- public.is_admin(), which ~28 earlier migrations ask in their RPCs and policies, now means owner
-- or manager, so every catalogue, price, settings and export path refuses budtenders and drivers
-- without being rewritten. What only an owner may do asks public.is_owner(); what any staff
-- member may see asks public.is_staff() or public.staff_role().
--
-- Every 'admin' becomes an 'owner' (the first admin and anyone made one later were the shop's
-- owners in all but name). The shop always keeps at least one owner.

-- The roles ---------------------------------------------------------------------------------------
alter table public.user_profiles drop constraint if exists user_profiles_role_check;
-- Upgrade first: the new check refuses 'admin'.
alter table public.user_profiles disable trigger user_profiles_admin_needs_proof;
update public.user_profiles set role = 'owner' where role = 'admin';
alter table public.user_profiles enable trigger user_profiles_admin_needs_proof;
alter table public.user_profiles
  add constraint user_profiles_role_check
  check (role in ('owner', 'manager', 'budtender', 'driver', 'customer'));

create index if not exists user_profiles_staff_idx on public.user_profiles (role)
  where role <> 'customer' and not _deleted;

-- The caller's staff role, or null (a shopper, anon, the service role).
create or replace function public.staff_role()
returns text
language sql
stable
security definer
set search_path = public
as $$
  select p.role
    from public.user_profiles p
   where p.user_id = auth.uid()
     and p.role in ('owner', 'manager', 'budtender', 'driver')
     and not p._deleted
$$;

create or replace function public.is_owner()
returns boolean
language sql
stable
security definer
set search_path = public
as $$
  select coalesce(public.staff_role() = 'owner', false)
$$;

create or replace function public.is_staff()
returns boolean
language sql
stable
security definer
set search_path = public
as $$
  select public.staff_role() is not null
$$;

-- Owner or manager: the back office as it was before roles, less staff and tax settings.
create or replace function public.is_admin()
returns boolean
language sql
stable
security definer
set search_path = public
as $$
  select coalesce(public.staff_role() in ('owner', 'manager'), false)
$$;

revoke execute on function public.staff_role(), public.is_owner(), public.is_staff() from public;
grant execute on function public.staff_role(), public.is_owner(), public.is_staff()
  to anon, authenticated, service_role;

-- The one message every role refusal of this issue ends in, so the screens can say it plainly.
create or replace function private.refuse_role(p_message text)
returns void
language plpgsql
set search_path = pg_catalog
as $$
begin
  raise exception '%', p_message using errcode = '42501';
end;
$$;

revoke all on function private.refuse_role(text) from public, anon, authenticated;

-- Profiles: a staff member reads their own row; only owners read and write everyone's ------------
drop policy "user_profiles: admins read all" on public.user_profiles;
drop policy "user_profiles: admins write all" on public.user_profiles;

create policy "user_profiles: owners read all"
  on public.user_profiles for select
  to authenticated
  using (public.is_owner());

create policy "user_profiles: owners write all"
  on public.user_profiles for all
  to authenticated
  using (public.is_owner())
  with check (public.is_owner());

-- admin_exists(): whether the shop has been claimed (its first owner), for the login page.
create or replace function public.admin_exists()
returns boolean
language sql
stable
security definer
set search_path = public
as $$
  select exists (select 1 from public.user_profiles where role = 'owner' and not _deleted)
$$;

-- Only proven grants make staff (20261126100000's rule, for every staff role) ---------------------
create or replace function private.admin_role_needs_proof()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if new.role = 'customer' or new._deleted then
    return new;
  end if;
  -- Already staff: a change between staff roles needs no new proof (only an owner may make it).
  if tg_op = 'UPDATE' and old.role <> 'customer' and not old._deleted then
    return new;
  end if;
  if tg_op = 'INSERT' and exists (
    select 1 from public.user_profiles p
    where p.user_id = new.user_id and p.role <> 'customer' and not p._deleted
  ) then
    return new;
  end if;
  if coalesce(auth.role(), '') <> 'authenticated' then
    return new;
  end if;
  if current_setting('humo.admin_grant', true) = 'proven' then
    return new;
  end if;
  -- Row level security refuses everyone else; answering first would tell them more.
  if not public.is_owner() then
    return new;
  end if;
  if exists (select 1 from auth.users u where u.id = new.user_id and u.email_confirmed_at is not null) then
    return new;
  end if;
  raise exception 'That account has not confirmed its email address, so it cannot be made staff. Invite them instead (Admin Settings, Staff: Create invitation).'
    using errcode = '42501';
end;
$$;

-- The shop keeps at least one owner ---------------------------------------------------------------
-- Whoever asks through the API (an owner's PATCH, admin_set_staff_role, the service role): the
-- last owner cannot be demoted, soft-deleted or removed. Deleting the account itself (auth.users,
-- cascading here) is left to the database owner; so is the SQL editor, the documented way out of
-- a shop whose only owner left (docs/decisions/053).
create or replace function private.keep_an_owner()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if old.role <> 'owner' or old._deleted then
    return coalesce(new, old);
  end if;
  if tg_op = 'UPDATE' and new.role = 'owner' and not new._deleted then
    return new;
  end if;
  if coalesce(auth.role(), '') not in ('authenticated', 'anon', 'service_role') then
    return coalesce(new, old);
  end if;
  -- Two owners demoting each other at once: one waits for the other, then counts.
  perform pg_advisory_xact_lock(hashtextextended('humo.owners', 0));
  if not exists (
    select 1 from public.user_profiles p
     where p.role = 'owner' and not p._deleted and p.user_id <> old.user_id
  ) then
    raise exception 'The shop must keep at least one owner.' using errcode = '42501';
  end if;
  return coalesce(new, old);
end;
$$;

revoke all on function private.keep_an_owner() from public, anon, authenticated;

create trigger user_profiles_keep_an_owner
  before update or delete on public.user_profiles
  for each row execute function private.keep_an_owner();

-- claim_first_admin(p_setup_code): as 20261126100000, the first claim makes an owner ---------------
create or replace function public.claim_first_admin(p_setup_code text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = public
as $$
declare
  v_uid uuid := auth.uid();
  v_address text;
  v_hash text;
begin
  if v_uid is null then
    raise exception 'Sign in before claiming the admin account' using errcode = '42501';
  end if;
  if length(coalesce(p_setup_code, '')) > 200 or private.normalize_code(p_setup_code) = '' then
    raise exception 'Enter the setup code that npm start printed' using errcode = '22023';
  end if;
  lock table public.user_profiles in share row exclusive mode;
  if exists (
    select 1 from public.user_profiles
    where user_id = v_uid and role = 'owner' and not _deleted
  ) then
    return jsonb_build_object('claimed', true);
  end if;
  if exists (select 1 from public.user_profiles where role = 'owner' and not _deleted) then
    return jsonb_build_object(
      'claimed', false,
      'reason', 'admin_exists',
      'message', 'This shop already has an admin. Ask an admin for a staff invitation.'
    );
  end if;
  v_address := private.request_address();
  perform private.check_code_attempts('setup', v_address, v_uid);
  if not exists (select 1 from private.setup_codes where used_at is null) then
    raise exception 'This shop has no setup code yet. Restart the server (npm start prints one), or on hosted Supabase run select private.new_setup_code(); in the SQL editor'
      using errcode = 'P0001';
  end if;
  select code_hash into v_hash
    from private.setup_codes
   where used_at is null and code_hash = private.hash_code(p_setup_code)
     for update;
  if v_hash is null then
    perform private.record_code_failure('setup', v_address, v_uid);
    return jsonb_build_object(
      'claimed', false,
      'reason', 'wrong_code',
      'message', 'That setup code is not right. Use the one npm start printed when the server started (also in the setup-code file in its data folder, .humo-data/setup-code).'
    );
  end if;
  update private.setup_codes set used_at = now(), used_by = v_uid where code_hash = v_hash;
  perform set_config('humo.admin_grant', 'proven', true);
  insert into public.user_profiles (user_id, role)
  values (v_uid, 'owner')
  on conflict (user_id) do update set role = 'owner', _deleted = false;
  perform set_config('humo.admin_grant', '', true);
  return jsonb_build_object('claimed', true);
end;
$$;

-- A staff role from an API argument, or a clear refusal.
create or replace function private.staff_role_input(p_role text)
returns text
language plpgsql
immutable
set search_path = pg_catalog
as $$
declare
  v_role text := lower(btrim(coalesce(p_role, '')));
begin
  if v_role not in ('owner', 'manager', 'budtender', 'driver') then
    raise exception 'Choose a role: Owner, Manager, Budtender or Driver' using errcode = '22023';
  end if;
  return v_role;
end;
$$;

revoke all on function private.staff_role_input(text) from public, anon, authenticated;

-- admin_grant_by_email(p_email, p_role): an owner makes an existing, confirmed account staff ------
drop function public.admin_grant_by_email(text);

-- Without a role: someone already on the staff keeps theirs, anyone else becomes a budtender.
create or replace function public.admin_grant_by_email(p_email text, p_role text default null)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_role text;
  v_user uuid;
  v_confirmed timestamptz;
begin
  if not (public.is_owner() or coalesce(auth.role(), '') = 'service_role') then
    perform private.refuse_role('Only an owner can add staff or change their roles.');
  end if;
  if p_role is not null then
    v_role := private.staff_role_input(p_role);
  end if;
  if v_email = '' or length(v_email) > 254 then
    raise exception 'Enter the email of an existing account' using errcode = '22023';
  end if;
  select id, email_confirmed_at into v_user, v_confirmed
    from auth.users where lower(email) = v_email;
  if v_user is null then
    raise exception 'No account with the email %; ask them to create one first', v_email
      using errcode = 'P0001';
  end if;
  if not exists (
    select 1 from public.user_profiles
    where user_id = v_user and role <> 'customer' and not _deleted
  ) and v_confirmed is null then
    raise exception 'The account % has not confirmed its email address, so it cannot be made staff by email. Invite them instead: create a staff invitation and hand them its code or link.', v_email
      using errcode = 'P0001';
  end if;
  v_role := coalesce(v_role, (select p.role from public.user_profiles p
                               where p.user_id = v_user and p.role <> 'customer' and not p._deleted),
                     'budtender');
  insert into public.user_profiles (user_id, role) values (v_user, v_role)
  on conflict (user_id) do update set role = v_role, _deleted = false;
  return jsonb_build_object('userId', v_user, 'email', v_email, 'role', v_role);
end;
$$;

revoke execute on function public.admin_grant_by_email(text, text) from public, anon;
grant execute on function public.admin_grant_by_email(text, text) to authenticated, service_role;

-- The staff list and role changes ---------------------------------------------------------------
-- admin_staff(): every staff member with their email and role, owners first. Owners only.
create or replace function public.admin_staff()
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
begin
  if not public.is_owner() then
    perform private.refuse_role('Only an owner can see and change the staff.');
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'userId', p.user_id,
             'email', u.email,
             'role', p.role,
             'createdAt', p.created_at
           ) order by array_position(array['owner', 'manager', 'budtender', 'driver'], p.role),
                      p.created_at)
      from public.user_profiles p
      left join auth.users u on u.id = p.user_id
     where p.role <> 'customer' and not p._deleted
  ), '[]'::jsonb);
end;
$$;

revoke execute on function public.admin_staff() from public, anon;
grant execute on function public.admin_staff() to authenticated;

-- admin_set_staff_role(p_user, p_role): an owner changes a staff member's role, or removes them
-- from the staff with 'customer'. The last owner stays an owner (user_profiles_keep_an_owner).
create or replace function public.admin_set_staff_role(p_user uuid, p_role text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = public
as $$
declare
  v_role text;
  v_row public.user_profiles;
begin
  if not public.is_owner() then
    perform private.refuse_role('Only an owner can add staff or change their roles.');
  end if;
  if lower(btrim(coalesce(p_role, ''))) = 'customer' then
    v_role := 'customer';
  else
    v_role := private.staff_role_input(p_role);
  end if;
  select * into v_row from public.user_profiles
   where user_id = p_user and role <> 'customer' and not _deleted
     for update;
  if not found then
    raise exception 'That person is not on the staff' using errcode = '22023';
  end if;
  if v_row.role <> v_role then
    update public.user_profiles set role = v_role where user_id = p_user;
  end if;
  return jsonb_build_object('userId', p_user, 'role', v_role);
end;
$$;

revoke execute on function public.admin_set_staff_role(uuid, text) from public, anon;
grant execute on function public.admin_set_staff_role(uuid, text) to authenticated;

-- Invitations carry a role ------------------------------------------------------------------------
alter table private.staff_invitations
  add column role text not null default 'budtender'
    constraint staff_invitations_role_check check (role in ('owner', 'manager', 'budtender', 'driver'));
-- Invitations made before roles were for the only role there was.
update private.staff_invitations set role = 'owner';

create or replace function private.invitation_document(p_invitation private.staff_invitations)
returns jsonb
language sql
stable
security definer
set search_path = pg_catalog
as $$
  select jsonb_build_object(
    'id', p_invitation.id,
    'note', p_invitation.note,
    'role', p_invitation.role,
    'createdAt', p_invitation.created_at,
    'expiresAt', p_invitation.expires_at,
    'createdBy', (select u.email from auth.users u where u.id = p_invitation.created_by)
  )
$$;

drop function public.admin_create_staff_invitation(text);

-- admin_create_staff_invitation(p_note, p_role): as 20261126100000, owners only, with the role the
-- invited person will have.
create or replace function public.admin_create_staff_invitation(
  p_note text default '',
  p_role text default 'budtender'
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = public
as $$
declare
  v_note text := btrim(coalesce(p_note, ''));
  v_role text;
  v_code text := private.random_code();
  v_invitation private.staff_invitations;
begin
  if not public.is_owner() then
    perform private.refuse_role('Only an owner can invite staff.');
  end if;
  v_role := private.staff_role_input(p_role);
  if length(v_note) > 200 then
    raise exception 'Keep the note under 200 characters' using errcode = '22023';
  end if;
  if (select count(*) from private.staff_invitations
       where used_at is null and revoked_at is null and expires_at > now()) >= 50 then
    raise exception 'There are already 50 pending invitations. Revoke some before creating more.'
      using errcode = 'P0001';
  end if;
  insert into private.staff_invitations (code_hash, note, role, created_by, expires_at)
  values (private.hash_code(v_code), v_note, v_role, auth.uid(), now() + interval '7 days')
  returning * into v_invitation;
  return private.invitation_document(v_invitation) || jsonb_build_object('code', v_code);
end;
$$;

revoke execute on function public.admin_create_staff_invitation(text, text) from public, anon;
grant execute on function public.admin_create_staff_invitation(text, text) to authenticated;

create or replace function public.admin_staff_invitations()
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
begin
  if not public.is_owner() then
    perform private.refuse_role('Only an owner can see the staff invitations.');
  end if;
  return coalesce(
    (select jsonb_agg(private.invitation_document(i) order by i.created_at desc)
       from private.staff_invitations i
      where i.used_at is null and i.revoked_at is null and i.expires_at > now()),
    '[]'::jsonb
  );
end;
$$;

create or replace function public.admin_revoke_staff_invitation(p_id uuid)
returns boolean
language plpgsql
volatile
security definer
set search_path = public
as $$
begin
  if not public.is_owner() then
    perform private.refuse_role('Only an owner can withdraw staff invitations.');
  end if;
  update private.staff_invitations
     set revoked_at = now()
   where id = p_id and used_at is null and revoked_at is null;
  if not found then
    raise exception 'That invitation is no longer pending (used, revoked or unknown)'
      using errcode = 'P0001';
  end if;
  return true;
end;
$$;

-- accept_staff_invitation(p_code): the caller joins the staff with the invitation's role. Someone
-- already on the staff following a link is told they are in, without spending it (an owner
-- changes roles in Staff, not by invitation). The answer carries the role.
create or replace function public.accept_staff_invitation(p_code text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = public
as $$
declare
  v_uid uuid := auth.uid();
  v_address text;
  v_invitation private.staff_invitations;
  v_reason text;
  v_message text;
begin
  if v_uid is null then
    raise exception 'Sign in before accepting the invitation' using errcode = '42501';
  end if;
  if length(coalesce(p_code, '')) > 200 or private.normalize_code(p_code) = '' then
    raise exception 'Enter the invitation code you were given' using errcode = '22023';
  end if;
  if public.is_staff() then
    return jsonb_build_object('joined', true, 'role', public.staff_role());
  end if;
  v_address := private.request_address();
  perform private.check_code_attempts('invitation', v_address, v_uid);
  select * into v_invitation
    from private.staff_invitations
   where code_hash = private.hash_code(p_code)
     for update;
  if v_invitation.id is null then
    v_reason := 'unknown';
    v_message := 'That invitation code is not right. Check it against the one you were given, or ask an admin for a new invitation.';
  elsif v_invitation.revoked_at is not null then
    v_reason := 'revoked';
    v_message := 'That invitation was withdrawn. Ask an admin for a new one.';
  elsif v_invitation.used_at is not null then
    v_reason := 'used';
    v_message := 'That invitation has already been used. Ask an admin for a new one.';
  elsif v_invitation.expires_at <= now() then
    v_reason := 'expired';
    v_message := 'That invitation has expired. Ask an admin for a new one.';
  end if;
  if v_reason is not null then
    perform private.record_code_failure('invitation', v_address, v_uid);
    return jsonb_build_object('joined', false, 'reason', v_reason, 'message', v_message);
  end if;
  update private.staff_invitations set used_at = now(), used_by = v_uid where id = v_invitation.id;
  perform set_config('humo.admin_grant', 'proven', true);
  insert into public.user_profiles (user_id, role)
  values (v_uid, v_invitation.role)
  on conflict (user_id) do update set role = v_invitation.role, _deleted = false;
  perform set_config('humo.admin_grant', '', true);
  return jsonb_build_object('joined', true, 'role', v_invitation.role);
end;
$$;
