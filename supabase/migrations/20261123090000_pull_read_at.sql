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

do $$
declare
  pull record;
  args text;
begin
  for pull in
    select *
    from (values
      ('pull_products', 'uuid', 'anon, authenticated, service_role'),
      ('pull_categories', 'uuid', 'anon, authenticated, service_role'),
      ('pull_brands', 'uuid', 'anon, authenticated, service_role'),
      ('pull_product_types', 'uuid', 'anon, authenticated, service_role'),
      ('pull_shop_settings', 'text', 'anon, authenticated, service_role'),
      ('pull_orders_admin', 'uuid', 'authenticated, service_role'),
      ('pull_products_admin', 'uuid', 'authenticated, service_role')
    ) as pulls (name, id_type, callers)
  loop
    args := format('timestamptz, %s, integer, timestamptz', pull.id_type);

    execute format('alter function public.%I(%s) rename to %I', pull.name, args, pull.name || '_page');
    execute format(
      'revoke execute on function public.%I(%s) from public, anon, authenticated',
      pull.name || '_page', args
    );

    execute format(
      $create$
      create function public.%I(
        after_modified timestamptz default null,
        after_id %s default null,
        max_rows integer default 200,
        behind_from timestamptz default null
      )
      returns jsonb
      language sql
      stable
      security definer
      set search_path = public
      as $body$
        select public.%I(after_modified, after_id, max_rows, behind_from)
          || jsonb_build_object('read_at', now())
      $body$
      $create$,
      pull.name, pull.id_type, pull.name || '_page'
    );
    execute format(
      'revoke execute on function public.%I(%s) from public, anon, authenticated',
      pull.name, args
    );
    execute format('grant execute on function public.%I(%s) to %s', pull.name, args, pull.callers);
  end loop;
end
$$;
