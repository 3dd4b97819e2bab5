-- Orders (DESIGN.md §3). Shoppers create them offline with a client-made id and a random secret,
-- and only place_order() writes them; a shopper reads an order back only with its id and secret
-- (get_order / get_orders). Admins read all orders and change their status.
--
-- The secret is stored as a SHA-256 hash: admins (and their devices) read every order row, and
-- a leaked admin export must not let anyone read an order through the shopper API.

create table public.orders (
  id uuid primary key,
  secret_hash text not null check (secret_hash ~ '^[0-9a-f]{64}$'),
  status text not null default 'pending'
    check (status in ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
  customer_email text not null check (length(trim(customer_email)) > 0),
  customer_first_name text not null check (length(trim(customer_first_name)) > 0),
  customer_last_name text not null check (length(trim(customer_last_name)) > 0),
  customer_phone text not null check (length(trim(customer_phone)) > 0),
  fulfilment text not null check (fulfilment in ('delivery', 'pickup')),
  delivery_method text not null default 'standard' check (delivery_method in ('standard', 'express')),
  shipping_address jsonb,
  billing_address jsonb,
  payment_method text not null check (payment_method in ('card', 'cash')),
  -- Never a full card number (DESIGN.md §8).
  card_last4 text check (card_last4 ~ '^[0-9]{4}$'),
  subtotal numeric(10, 2) not null check (subtotal >= 0),
  tax numeric(10, 2) not null check (tax >= 0),
  shipping numeric(10, 2) not null check (shipping >= 0),
  discount numeric(10, 2) not null default 0 check (discount >= 0),
  total numeric(10, 2) not null check (total >= 0),
  tracking_number text,
  estimated_delivery date,
  -- [{status, at, by}], oldest first; appended by the status trigger below, never rewritten.
  status_history jsonb not null default '[]'::jsonb check (jsonb_typeof(status_history) = 'array'),
  -- Set when a cancellation gave the stock back, so a second cancellation (after the order was
  -- moved back out of cancelled) cannot give it back twice.
  stock_restored boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false,
  check ((fulfilment = 'pickup') = (shipping_address is null))
);

create index orders_modified_idx on public.orders (_modified, id);
create index orders_status_idx on public.orders (status, created_at desc);

create trigger orders_set_modified
  before insert or update on public.orders
  for each row execute function public.set_modified();

create trigger orders_set_updated_at
  before update on public.orders
  for each row execute function public.set_updated_at();

alter table public.orders enable row level security;

create policy "orders: admins read all"
  on public.orders for select
  to authenticated
  using (public.is_admin());

create policy "orders: admins update"
  on public.orders for update
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

-- Row level security decides which rows; these grants decide which columns. Nobody inserts or
-- deletes through the API (place_order does, as its owner), and an admin may change only the
-- fields staff actually manage, so totals and customer details stay what the server computed.
revoke insert, update, delete, truncate on public.orders from anon, authenticated;
grant update (status, tracking_number, estimated_delivery) on public.orders to authenticated;

alter publication supabase_realtime add table public.orders;

-- Every status change, whichever way it arrives (set_order_status or an admin PATCH through the
-- REST API), is stamped into status_history, and a cancellation gives the reserved stock back
-- once. security definer: the admin may not update products directly through this path.
create or replace function public.on_order_status_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  if new.status is distinct from old.status then
    new.status_history := coalesce(old.status_history, '[]'::jsonb) || jsonb_build_array(
      jsonb_build_object('status', new.status, 'at', clock_timestamp(), 'by', auth.email())
    );
    if new.status = 'cancelled' and not old.stock_restored then
      -- Only lines whose stock place_order actually took (unlimited items took none).
      update public.products p
         set quantity_available = coalesce(p.quantity_available, 0) + i.quantity
        from public.order_items i
       where i.order_id = new.id
         and i.stock_decremented
         and p.id = i.product_id;
      new.stock_restored := true;
    end if;
  end if;
  return new;
end;
$$;

revoke execute on function public.on_order_status_change() from public, anon, authenticated;

create trigger orders_on_status_change
  before update of status on public.orders
  for each row execute function public.on_order_status_change();
