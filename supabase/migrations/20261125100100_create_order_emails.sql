-- Order emails (issue 22, DESIGN.md §10, docs/decisions/021): the order confirmation and the
-- "Ready for pickup" / "Out for delivery" notice are queued here by triggers on public.orders,
-- in the same transaction as the change they announce, and sent by a worker outside any request
-- (supabase/local/mail/order-mailer.ts), which retries with back-off. A mail server that is down
-- therefore loses nothing, and placing an order never waits for one.
--
-- The queue lives in the `private` schema, which the API does not expose: it holds customers'
-- addresses and delivery errors, and nobody but the server's own worker reads it.
--
-- Nothing is queued unless shop_settings.order_emails is true. The worker sets that flag when it
-- starts (true when an SMTP server is configured), so devices know whether they may promise an
-- email, and a shop without mail never fills a queue nobody drains.

create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

-- 20261125100000_create_order_lifecycle.sql adds it too; kept here so this file stands alone.
alter table public.shop_settings add column if not exists order_emails boolean not null default false;

create table private.order_emails (
  id bigserial primary key,
  order_id uuid not null references public.orders (id) on delete cascade,
  kind text not null check (kind in ('confirmation', 'ready_for_pickup', 'out_for_delivery')),
  -- queued: to send (again) at next_attempt_at; sent: done; failed: given up (the recipient was
  -- refused, or too many attempts); skipped: no longer true when its turn came (e.g. "ready for
  -- pickup" after the order was picked up or cancelled).
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed', 'skipped')),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  -- One email of a kind per order: a repeated status change (shipped → processing → shipped) or
  -- a retried place_order never sends it twice.
  unique (order_id, kind)
);

create index order_emails_due_idx on private.order_emails (next_attempt_at, id) where status = 'queued';

revoke all on table private.order_emails from public, anon, authenticated;
revoke all on sequence private.order_emails_id_seq from public, anon, authenticated;

-- Queues one email of a kind for an order (once) and wakes the worker. The NOTIFY is delivered
-- when the transaction commits, so the worker never reads an order that is not there yet.
create or replace function private.enqueue_order_email(p_order_id uuid, p_kind text)
returns void
language plpgsql
security definer
set search_path = public, private
as $$
begin
  if not coalesce((select s.order_emails from public.shop_settings s where s.id = 'shop'), false) then
    return;
  end if;
  insert into private.order_emails (order_id, kind)
  values (p_order_id, p_kind)
  on conflict (order_id, kind) do nothing;
  if found then
    perform pg_notify('humo_order_emails', p_order_id::text);
  end if;
end;
$$;

revoke execute on function private.enqueue_order_email(uuid, text) from public, anon, authenticated;

-- security definer: the order is written by place_order, set_order_status or an admin's PATCH
-- through the REST API, and none of those callers may touch the private schema.
create or replace function private.on_order_placed_email()
returns trigger
language plpgsql
security definer
set search_path = public, private
as $$
begin
  perform private.enqueue_order_email(new.id, 'confirmation');
  return null;
end;
$$;

create or replace function private.on_order_status_email()
returns trigger
language plpgsql
security definer
set search_path = public, private
as $$
begin
  if new.status = 'shipped' and old.status is distinct from 'shipped' then
    perform private.enqueue_order_email(
      new.id,
      case when new.fulfilment = 'pickup' then 'ready_for_pickup' else 'out_for_delivery' end
    );
  end if;
  return null;
end;
$$;

revoke execute on function private.on_order_placed_email() from public, anon, authenticated;
revoke execute on function private.on_order_status_email() from public, anon, authenticated;

create trigger orders_queue_confirmation_email
  after insert on public.orders
  for each row execute function private.on_order_placed_email();

create trigger orders_queue_status_email
  after update of status on public.orders
  for each row execute function private.on_order_status_email();
