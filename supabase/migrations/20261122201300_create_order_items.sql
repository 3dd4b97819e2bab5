-- The lines of an order, written once by place_order() with the product's name, SKU, price,
-- weight and category as they were when the order was accepted: later catalogue edits (or a
-- deleted product) never change what a customer bought.

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  -- set null rather than cascade: an order outlives a product that is later removed for good.
  product_id uuid references public.products (id) on delete set null,
  -- The line's place in the order as submitted, so items read back in the shopper's order.
  line_number integer not null default 0,
  product_name text not null,
  sku text,
  unit_price numeric(10, 2) not null check (unit_price >= 0),
  quantity integer not null check (quantity between 1 and 999),
  line_total numeric(10, 2) not null check (line_total >= 0),
  weight_grams numeric(10, 2),
  category_slug text,
  -- True when place_order took this line's quantity from stock (false for unlimited items), so a
  -- cancellation gives back exactly what was taken.
  stock_decremented boolean not null default false,
  created_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index order_items_modified_idx on public.order_items (_modified, id);
create index order_items_order_id_idx on public.order_items (order_id);
create index order_items_product_id_idx on public.order_items (product_id);

create trigger order_items_set_modified
  before insert or update on public.order_items
  for each row execute function public.set_modified();

alter table public.order_items enable row level security;

create policy "order_items: admins read all"
  on public.order_items for select
  to authenticated
  using (public.is_admin());

-- Lines are immutable through the API; place_order writes them as its owner.
revoke insert, update, delete, truncate on public.order_items from anon, authenticated;

alter publication supabase_realtime add table public.order_items;
