-- Every pull also says when it read (`read_at`, the server's now() for the call).
--
-- A pull cycle ends by re-reading a window behind its checkpoint for rows whose transaction
-- committed after the read that passed them (see 20261122201000_create_pull_products.sql). That
-- window was anchored to the newest row's _modified alone, so after a catalogue was written in
-- one go (the seed, a CSV import) every pull re-read the whole catalogue until some row changed
-- later. A late row can only be behind a checkpoint if its transaction committed after the
-- previous read, so the client now also bounds the window by the time of that read, which only
-- the server can tell (a device's clock may be off by minutes).
--
-- Each pull_<table> keeps its name, arguments and grants (clients call it by name) and becomes
-- pull_<table>_page; pull_<table> returns the page with read_at added.

alter function public.pull_products(timestamptz, uuid, integer, timestamptz) rename to pull_products_page;
revoke execute on function public.pull_products_page(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;

create function public.pull_products(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.pull_products_page(after_modified, after_id, max_rows, behind_from)
    || jsonb_build_object('read_at', now())
$$;

revoke execute on function public.pull_products(timestamptz, uuid, integer, timestamptz) from public;
grant execute on function public.pull_products(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;

alter function public.pull_categories(timestamptz, uuid, integer, timestamptz) rename to pull_categories_page;
revoke execute on function public.pull_categories_page(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;

create function public.pull_categories(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.pull_categories_page(after_modified, after_id, max_rows, behind_from)
    || jsonb_build_object('read_at', now())
$$;

revoke execute on function public.pull_categories(timestamptz, uuid, integer, timestamptz) from public;
grant execute on function public.pull_categories(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;

alter function public.pull_brands(timestamptz, uuid, integer, timestamptz) rename to pull_brands_page;
revoke execute on function public.pull_brands_page(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;

create function public.pull_brands(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.pull_brands_page(after_modified, after_id, max_rows, behind_from)
    || jsonb_build_object('read_at', now())
$$;

revoke execute on function public.pull_brands(timestamptz, uuid, integer, timestamptz) from public;
grant execute on function public.pull_brands(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;

alter function public.pull_product_types(timestamptz, uuid, integer, timestamptz) rename to pull_product_types_page;
revoke execute on function public.pull_product_types_page(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;

create function public.pull_product_types(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.pull_product_types_page(after_modified, after_id, max_rows, behind_from)
    || jsonb_build_object('read_at', now())
$$;

revoke execute on function public.pull_product_types(timestamptz, uuid, integer, timestamptz) from public;
grant execute on function public.pull_product_types(timestamptz, uuid, integer, timestamptz) to anon, authenticated, service_role;

alter function public.pull_shop_settings(timestamptz, text, integer, timestamptz) rename to pull_shop_settings_page;
revoke execute on function public.pull_shop_settings_page(timestamptz, text, integer, timestamptz) from public, anon, authenticated;

create function public.pull_shop_settings(
  after_modified timestamptz default null,
  after_id text default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.pull_shop_settings_page(after_modified, after_id, max_rows, behind_from)
    || jsonb_build_object('read_at', now())
$$;

revoke execute on function public.pull_shop_settings(timestamptz, text, integer, timestamptz) from public;
grant execute on function public.pull_shop_settings(timestamptz, text, integer, timestamptz) to anon, authenticated, service_role;

alter function public.pull_orders_admin(timestamptz, uuid, integer, timestamptz) rename to pull_orders_admin_page;
revoke execute on function public.pull_orders_admin_page(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;

create function public.pull_orders_admin(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.pull_orders_admin_page(after_modified, after_id, max_rows, behind_from)
    || jsonb_build_object('read_at', now())
$$;

revoke execute on function public.pull_orders_admin(timestamptz, uuid, integer, timestamptz) from public, anon;
grant execute on function public.pull_orders_admin(timestamptz, uuid, integer, timestamptz) to authenticated, service_role;

alter function public.pull_products_admin(timestamptz, uuid, integer, timestamptz) rename to pull_products_admin_page;
revoke execute on function public.pull_products_admin_page(timestamptz, uuid, integer, timestamptz) from public, anon, authenticated;

create function public.pull_products_admin(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.pull_products_admin_page(after_modified, after_id, max_rows, behind_from)
    || jsonb_build_object('read_at', now())
$$;

revoke execute on function public.pull_products_admin(timestamptz, uuid, integer, timestamptz) from public, anon;
grant execute on function public.pull_products_admin(timestamptz, uuid, integer, timestamptz) to authenticated, service_role;
