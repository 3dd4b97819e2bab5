-- Admin only for proven owners (issue 23, docs/decisions/025):
--   * the first admin claims the shop with a one-time setup code that whoever runs the server
--     holds (`npm start` prints it; on hosted Supabase `select private.new_setup_code();` in the
--     SQL editor), instead of whoever reaches /admin first;
--   * later staff join through an invitation an admin creates and hands over (a one-time code,
--     valid 7 days), or by email only when that account has confirmed its address;
--   * nothing else turns an unconfirmed account into an admin (a trigger on user_profiles).
-- Only hashes of codes are kept, in the private schema the API cannot reach. Failed attempts are
-- recorded for a rate limit as track_order does, so a wrong code is answered (not raised, which
-- would roll the record back) and a guesser is refused with PT429 (HTTP 429).

create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

-- Codes ------------------------------------------------------------------------------------------
-- 16 characters of Crockford's base32 (no I, L, O or U, so nothing to misread) in 4 groups of 4:
-- 80 random bits. A typed code is read as Crockford's decoding reads it: any case, dashes and
-- spaces ignored, O as 0, I and L as 1.
create or replace function private.normalize_code(p_code text)
returns text
language sql
immutable
set search_path = pg_catalog
as $$
  select translate(upper(regexp_replace(coalesce(p_code, ''), '[[:space:]-]+', '', 'g')), 'OIL', '011')
$$;

create or replace function private.hash_code(p_code text)
returns text
language sql
immutable
set search_path = pg_catalog
as $$
  select encode(sha256(convert_to(private.normalize_code(p_code), 'UTF8')), 'hex')
$$;

create or replace function private.random_code()
returns text
language plpgsql
volatile
set search_path = pg_catalog
as $$
declare
  v_alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  v_hex text := replace(gen_random_uuid()::text, '-', '');
  v_bits bit(80);
  v_code text := '';
begin
  -- gen_random_uuid() draws from the strong random source; of a version-4 UUID's 32 hex digits
  -- the 13th is the version and the 17th carries the variant, so take 1–12 and 18–25.
  v_bits := ('x' || substr(v_hex, 1, 12) || substr(v_hex, 18, 8))::bit(80);
  for i in 0..15 loop
    v_code := v_code || substr(v_alphabet, substring(v_bits from i * 5 + 1 for 5)::integer + 1, 1);
    if i % 4 = 3 and i < 15 then
      v_code := v_code || '-';
    end if;
  end loop;
  return v_code;
end;
$$;

-- Who is asking, for the rate limits: the stand-in puts the socket's address in
-- x-humo-client-ip; behind hosted Supabase's gateway it is the first entry of x-forwarded-for.
create or replace function private.request_address()
returns text
language plpgsql
stable
set search_path = pg_catalog
as $$
declare
  v_headers jsonb;
begin
  begin
    v_headers := nullif(current_setting('request.headers', true), '')::jsonb;
  exception when others then
    v_headers := null;
  end;
  return left(coalesce(
    nullif(btrim(v_headers ->> 'x-humo-client-ip'), ''),
    nullif(btrim(split_part(v_headers ->> 'x-forwarded-for', ',', 1)), ''),
    'unknown'
  ), 100);
end;
$$;

-- Failed setup and invitation codes, per kind: 10 from one address or 5 by one account in
-- 15 minutes, then every attempt of that kind is refused until they age out.
create table private.code_failures (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('setup', 'invitation')),
  address text not null,
  user_id uuid not null,
  at timestamptz not null default now()
);

create index code_failures_address_idx on private.code_failures (kind, address, at);
create index code_failures_user_idx on private.code_failures (kind, user_id, at);
create index code_failures_at_idx on private.code_failures (at);

revoke all on table private.code_failures from public, anon, authenticated;

create or replace function private.check_code_attempts(p_kind text, p_address text, p_user uuid)
returns void
language plpgsql
stable
set search_path = pg_catalog
as $$
begin
  if (select count(*) from private.code_failures f
       where f.kind = p_kind and f.address = p_address and f.at > now() - interval '15 minutes') >= 10
     or (select count(*) from private.code_failures f
          where f.kind = p_kind and f.user_id = p_user and f.at > now() - interval '15 minutes') >= 5 then
    raise exception 'Too many wrong codes. Please wait 15 minutes and try again.' using errcode = 'PT429';
  end if;
end;
$$;

create or replace function private.record_code_failure(p_kind text, p_address text, p_user uuid)
returns void
language sql
volatile
set search_path = pg_catalog
as $$
  delete from private.code_failures where at < now() - interval '1 hour';
  insert into private.code_failures (kind, address, user_id) values (p_kind, p_address, p_user);
$$;

-- The setup code ---------------------------------------------------------------------------------
-- At most one unspent code; spent ones stay so that a printed code is never valid again.
create table private.setup_codes (
  code_hash text primary key,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  used_by uuid
);

revoke all on table private.setup_codes from public, anon, authenticated;

-- Sets the code the first admin claims the shop with, replacing an unspent one. `npm start` calls
-- it at every start while the shop has no admin; on hosted Supabase run it (or new_setup_code())
-- in the SQL editor. Returns false, storing nothing, for a code that was already spent.
create or replace function private.set_setup_code(p_code text)
returns boolean
language plpgsql
volatile
set search_path = pg_catalog
as $$
declare
  v_code text := private.normalize_code(p_code);
  v_hash text := private.hash_code(p_code);
begin
  if v_code !~ '^[0-9A-Z]{12,64}$' then
    raise exception 'A setup code is 12 to 64 letters or digits (dashes and spaces are ignored)'
      using errcode = '22023';
  end if;
  if exists (select 1 from private.setup_codes where code_hash = v_hash and used_at is not null) then
    return false;
  end if;
  delete from private.setup_codes where used_at is null and code_hash <> v_hash;
  insert into private.setup_codes (code_hash) values (v_hash) on conflict (code_hash) do nothing;
  return true;
end;
$$;

-- A new random setup code, stored and shown once (for hosted Supabase's SQL editor).
create or replace function private.new_setup_code()
returns text
language plpgsql
volatile
set search_path = pg_catalog
as $$
declare
  v_code text := private.random_code();
begin
  perform private.set_setup_code(v_code);
  return v_code;
end;
$$;

revoke all on function private.normalize_code(text), private.hash_code(text), private.random_code(),
  private.request_address(), private.check_code_attempts(text, text, uuid),
  private.record_code_failure(text, text, uuid), private.set_setup_code(text),
  private.new_setup_code()
  from public, anon, authenticated;

-- Only proven grants make an admin ---------------------------------------------------------------
-- An admin role for an account needs one of: the setup code or an invitation (the functions below
-- say so for their own insert), or a confirmed email address. Held to it are users signed in
-- through the API; the service role and the database owner (migrations, the SQL editor, tests
-- below the API) are trusted.
create or replace function private.admin_role_needs_proof()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if new.role <> 'admin' or new._deleted then
    return new;
  end if;
  if tg_op = 'UPDATE' and old.role = 'admin' and not old._deleted then
    return new;
  end if;
  -- An upsert of someone who already is an admin (it fires as an insert first).
  if tg_op = 'INSERT' and exists (
    select 1 from public.user_profiles p
    where p.user_id = new.user_id and p.role = 'admin' and not p._deleted
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
  if not public.is_admin() then
    return new;
  end if;
  if exists (select 1 from auth.users u where u.id = new.user_id and u.email_confirmed_at is not null) then
    return new;
  end if;
  raise exception 'That account has not confirmed its email address, so it cannot be made an admin. Invite them instead (Admin Settings, Staff: Create invitation).'
    using errcode = '42501';
end;
$$;

revoke all on function private.admin_role_needs_proof() from public, anon, authenticated;

create trigger user_profiles_admin_needs_proof
  before insert or update on public.user_profiles
  for each row execute function private.admin_role_needs_proof();

-- claim_first_admin(p_setup_code) ----------------------------------------------------------------
-- Replaces claim_first_admin(), which made the first signed-in user the admin. Answers
--   {"claimed": true}                                    the caller is (now) the admin
--   {"claimed": false, "reason": "admin_exists", ...}    another admin already has the shop
--   {"claimed": false, "reason": "wrong_code", ...}      recorded towards the rate limit
-- and raises 42501 without a user, 22023 without a code, PT429 for a guesser, P0001 when no
-- setup code was ever set. The profile table is locked for the check-and-insert, so two claims
-- racing each other cannot both win.
drop function if exists public.claim_first_admin();

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
    where user_id = v_uid and role = 'admin' and not _deleted
  ) then
    return jsonb_build_object('claimed', true);
  end if;
  if exists (select 1 from public.user_profiles where role = 'admin' and not _deleted) then
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
  values (v_uid, 'admin')
  on conflict (user_id) do update set role = 'admin', _deleted = false;
  perform set_config('humo.admin_grant', '', true);
  return jsonb_build_object('claimed', true);
end;
$$;

revoke execute on function public.claim_first_admin(text) from public, anon;
grant execute on function public.claim_first_admin(text) to authenticated, service_role;

-- admin_grant_by_email(p_email): as before, but only for an account that proved its address --------
create or replace function public.admin_grant_by_email(p_email text)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_user uuid;
  v_confirmed timestamptz;
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
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
  if exists (
    select 1 from public.user_profiles
    where user_id = v_user and role = 'admin' and not _deleted
  ) then
    return jsonb_build_object('userId', v_user, 'email', v_email);
  end if;
  if v_confirmed is null then
    raise exception 'The account % has not confirmed its email address, so it cannot be made an admin by email. Invite them instead: create a staff invitation and hand them its code or link.', v_email
      using errcode = 'P0001';
  end if;
  insert into public.user_profiles (user_id, role) values (v_user, 'admin')
  on conflict (user_id) do update set role = 'admin', _deleted = false;
  return jsonb_build_object('userId', v_user, 'email', v_email);
end;
$$;

revoke execute on function public.admin_grant_by_email(text) from public, anon;
grant execute on function public.admin_grant_by_email(text) to authenticated, service_role;

-- Staff invitations -------------------------------------------------------------------------------
create table private.staff_invitations (
  id uuid primary key default gen_random_uuid(),
  code_hash text not null unique,
  note text not null default '',
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  used_by uuid references auth.users (id) on delete set null,
  revoked_at timestamptz
);

create index staff_invitations_pending_idx on private.staff_invitations (created_at)
  where used_at is null and revoked_at is null;

revoke all on table private.staff_invitations from public, anon, authenticated;

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
    'createdAt', p_invitation.created_at,
    'expiresAt', p_invitation.expires_at,
    'createdBy', (select u.email from auth.users u where u.id = p_invitation.created_by)
  )
$$;

revoke all on function private.invitation_document(private.staff_invitations) from public, anon, authenticated;

-- admin_create_staff_invitation(p_note): a new invitation valid 7 days. Its code is in this answer
-- only (the database keeps its hash): the admin hands over the code or the link /admin?invite=CODE.
create or replace function public.admin_create_staff_invitation(p_note text default '')
returns jsonb
language plpgsql
volatile
security definer
set search_path = public
as $$
declare
  v_note text := btrim(coalesce(p_note, ''));
  v_code text := private.random_code();
  v_invitation private.staff_invitations;
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if length(v_note) > 200 then
    raise exception 'Keep the note under 200 characters' using errcode = '22023';
  end if;
  if (select count(*) from private.staff_invitations
       where used_at is null and revoked_at is null and expires_at > now()) >= 50 then
    raise exception 'There are already 50 pending invitations. Revoke some before creating more.'
      using errcode = 'P0001';
  end if;
  insert into private.staff_invitations (code_hash, note, created_by, expires_at)
  values (private.hash_code(v_code), v_note, auth.uid(), now() + interval '7 days')
  returning * into v_invitation;
  return private.invitation_document(v_invitation) || jsonb_build_object('code', v_code);
end;
$$;

revoke execute on function public.admin_create_staff_invitation(text) from public, anon;
grant execute on function public.admin_create_staff_invitation(text) to authenticated;

-- admin_staff_invitations(): the pending ones (not used, revoked or expired), newest first.
create or replace function public.admin_staff_invitations()
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  return coalesce(
    (select jsonb_agg(private.invitation_document(i) order by i.created_at desc)
       from private.staff_invitations i
      where i.used_at is null and i.revoked_at is null and i.expires_at > now()),
    '[]'::jsonb
  );
end;
$$;

revoke execute on function public.admin_staff_invitations() from public, anon;
grant execute on function public.admin_staff_invitations() to authenticated;

-- admin_revoke_staff_invitation(p_id): a pending invitation can no longer be used.
create or replace function public.admin_revoke_staff_invitation(p_id uuid)
returns boolean
language plpgsql
volatile
security definer
set search_path = public
as $$
begin
  if not public.is_admin() then
    raise exception 'Admin privileges required' using errcode = '42501';
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

revoke execute on function public.admin_revoke_staff_invitation(uuid) from public, anon;
grant execute on function public.admin_revoke_staff_invitation(uuid) to authenticated;

-- accept_staff_invitation(p_code): the signed-in caller joins the staff (as an admin: the only
-- staff role there is). Answers {"joined": true} or {"joined": false, "reason", "message"} for an
-- unknown, expired, used or revoked code (each recorded towards the rate limit); raises 42501
-- without a user, 22023 without a code, PT429 for a guesser. An admin following an invitation
-- link is told they are in without spending it.
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
  if public.is_admin() then
    return jsonb_build_object('joined', true);
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
  values (v_uid, 'admin')
  on conflict (user_id) do update set role = 'admin', _deleted = false;
  perform set_config('humo.admin_grant', '', true);
  return jsonb_build_object('joined', true);
end;
$$;

revoke execute on function public.accept_staff_invitation(text) from public, anon;
grant execute on function public.accept_staff_invitation(text) to authenticated;
