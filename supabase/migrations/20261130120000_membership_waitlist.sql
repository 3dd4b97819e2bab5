-- The membership waitlist (issue 33, docs/decisions/059). The home page's membership promo
-- accepted an email and did nothing; the membership does not exist yet, so the promo now says so
-- and offers a waitlist. A shopper (anon) joins with join_membership_waitlist(): the email is
-- checked, explicit consent is required, and the consent's exact words and time are kept with the
-- email, so the shop can show what each person agreed to. Joining twice is a friendly "already on
-- it", never an error (and tells a stranger nothing beyond that). Staff with the office roles list
-- it with admin_membership_waitlist() (and export it as CSV in the admin).
--
-- The list lives in `private`, which the API does not expose: emails of people who are not yet
-- customers, read only through the admin function. A confirmation email is queued the way order
-- emails are (20261125100100_create_order_emails.sql): in the same transaction, only when the
-- shop sends email (shop_settings.order_emails, set at start when SMTP is configured), and sent by
-- supabase/local/mail/waitlist-mailer.ts with retries.

create schema if not exists private;

create table private.membership_waitlist (
  id bigserial primary key,
  email text not null unique check (length(email) between 3 and 254),
  -- The words of the checkbox the person ticked, as shown to them, and when.
  consent_text text not null check (length(consent_text) between 1 and 1000),
  consented_at timestamptz not null default now()
);

create table private.waitlist_emails (
  id bigserial primary key,
  waitlist_id bigint not null unique references private.membership_waitlist (id) on delete cascade,
  -- As private.order_emails: queued, sent, failed (given up).
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);

create index waitlist_emails_due_idx on private.waitlist_emails (next_attempt_at, id) where status = 'queued';

revoke all on table private.membership_waitlist, private.waitlist_emails from public, anon, authenticated;
revoke all on sequence private.membership_waitlist_id_seq, private.waitlist_emails_id_seq
  from public, anon, authenticated;

-- The consent the home page shows (src/features/content/membership-waitlist.ts says the same
-- words; the integration test holds them together). Only this text is accepted, so what is stored
-- is what the person saw, not whatever a client sends.
create or replace function private.waitlist_consent_text()
returns text
language sql
immutable
as $$
  select 'I agree that the shop may keep my email address to tell me when the membership starts, '
      || 'and to send me one confirmation now. I can ask to be removed at any time.'
$$;

-- p: {email, consent: true, consentText}. Returns {joined: true} for a new email and
-- {joined: false} for one already on the list, with {confirmationEmail} saying whether a
-- confirmation is on its way.
create or replace function public.join_membership_waitlist(p jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public, private
as $$
declare
  v_email text;
  v_id bigint;
  v_mail boolean;
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    raise exception 'The request must be a JSON object' using errcode = '22023';
  end if;
  v_email := lower(public.order_input_text(p -> 'email', 'Email', 254));
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'Email must be a valid email address' using errcode = '22023';
  end if;
  if (p -> 'consent') is distinct from 'true'::jsonb then
    raise exception 'Tick the box to agree before joining the waitlist' using errcode = '22023';
  end if;
  if (p ->> 'consentText') is distinct from private.waitlist_consent_text() then
    raise exception 'The consent text has changed: reload the page and read it again'
      using errcode = '22023';
  end if;
  v_mail := coalesce((select s.order_emails from public.shop_settings s where s.id = 'shop'), false);

  insert into private.membership_waitlist (email, consent_text)
  values (v_email, private.waitlist_consent_text())
  on conflict (email) do nothing
  returning id into v_id;
  if v_id is null then
    return jsonb_build_object('joined', false, 'confirmationEmail', false);
  end if;
  if v_mail then
    insert into private.waitlist_emails (waitlist_id) values (v_id);
    perform pg_notify('humo_waitlist_emails', v_id::text);
  end if;
  return jsonb_build_object('joined', true, 'confirmationEmail', v_mail);
end;
$$;

revoke execute on function public.join_membership_waitlist(jsonb) from public;
grant execute on function public.join_membership_waitlist(jsonb) to anon, authenticated, service_role;

-- The list for owners and managers (the office roles, as the other customer-data exports),
-- oldest first, with each confirmation email's state.
create or replace function public.admin_membership_waitlist()
returns jsonb
language plpgsql
stable
security definer
set search_path = public, private
as $$
begin
  if not public.is_admin() then
    perform private.refuse_role('Only an owner or a manager can see the membership waitlist.');
  end if;
  return coalesce(
    (select jsonb_agg(jsonb_build_object(
              'email', w.email,
              'consentText', w.consent_text,
              'consentedAt', w.consented_at,
              'confirmationEmail', coalesce(e.status, 'not sent')
            ) order by w.consented_at, w.id)
       from private.membership_waitlist w
       left join private.waitlist_emails e on e.waitlist_id = w.id),
    '[]'::jsonb
  );
end;
$$;

revoke execute on function public.admin_membership_waitlist() from public;
grant execute on function public.admin_membership_waitlist() to authenticated, service_role;
