-- Part of the stand-in's bootstrap (bootstrap.sql), kept apart because it came later: it runs on
-- a fresh database after bootstrap.sql, and at every start of an existing one, so a shop's data
-- folder made before it gets it before the migrations that use it. Never on hosted Supabase.
--
-- Realtime's broadcast-from-the-database API (realtime.messages, realtime.topic(),
-- realtime.send()), shaped like hosted Supabase's. Migrations call realtime.send() and put RLS
-- policies on realtime.messages; the stand-in's realtime server drains new rows by seq when
-- notified on 'humo_realtime_broadcast' and authorizes a private channel join by reading
-- realtime.messages as the joining role with realtime.topic set. Written to run again safely.
create schema if not exists realtime;
grant usage on schema realtime to anon, authenticated, service_role;

create table if not exists realtime.messages (
  id uuid primary key default gen_random_uuid(),
  seq bigserial,
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default true,
  inserted_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists messages_seq_idx on realtime.messages (seq);
alter table realtime.messages enable row level security;
grant select on realtime.messages to anon, authenticated;
grant all on realtime.messages to service_role;
grant usage, select on all sequences in schema realtime to service_role;

-- The topic of the channel being authorized (Realtime sets it for the policy check).
create or replace function realtime.topic() returns text
language sql stable
as $$ select nullif(current_setting('realtime.topic', true), '') $$;

-- security definer: a trigger running as anon (place_order's caller) may broadcast without
-- insert rights on realtime.messages.
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql
security definer
set search_path = realtime, pg_catalog
as $$
begin
  insert into realtime.messages (payload, event, topic, private, extension)
  values (payload, event, topic, private, 'broadcast');
  perform pg_notify('humo_realtime_broadcast', '');
end;
$$;

grant execute on function realtime.topic() to anon, authenticated, service_role;
revoke execute on function realtime.send(jsonb, text, text, boolean) from public;
grant execute on function realtime.send(jsonb, text, text, boolean) to service_role;
