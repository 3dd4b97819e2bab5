-- An order's stock notification carries the products' new values, so the embedded server's
-- catalogue cache writes them into the answers it keeps instead of dropping those answers and
-- reading them again (supabase/local/cache/catalogue-cache.ts, docs/decisions/049). Under a stream of
-- orders the re-reads cost more of the database than the orders themselves.
--
-- Same rule as 20261126150100 for what counts as a stock change (an UPDATE of at most 100
-- products that moved only quantity_available, _modified and updated_at); its notification is now
-- 'stockrows:{"<id>": {"quantity_available": …, "_modified": …, "updated_at": …}, …}', printed by
-- json_build_object as json_agg prints those columns in an answer. When that would not fit in a
-- notification (Postgres refuses 8,000 bytes and more), it is 'stock:<ids>' as before, and the
-- cache drops what shows those products. Any other change of products still notifies ''.

create or replace function public.notify_product_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  v_count integer;
  v_stock_only boolean;
  v_ids text;
  v_rows text;
begin
  select count(*),
         bool_and(o.id is not null and n.id is not null
                  and (to_jsonb(o) - array['quantity_available', '_modified', 'updated_at'])
                    = (to_jsonb(n) - array['quantity_available', '_modified', 'updated_at'])),
         string_agg(n.id::text, ',' order by n.id),
         json_object_agg(coalesce(n.id, o.id), json_build_object(
           'quantity_available', n.quantity_available,
           '_modified', n._modified,
           'updated_at', n.updated_at))::text
    into v_count, v_stock_only, v_ids, v_rows
    from old_rows o
    full join new_rows n on n.id = o.id;
  if v_count = 0 then
    return null;
  end if;
  if v_stock_only and v_count <= 100 then
    if octet_length(v_rows) < 7900 then
      perform pg_notify('humo_catalogue', 'stockrows:' || v_rows);
    else
      perform pg_notify('humo_catalogue', 'stock:' || v_ids);
    end if;
    perform set_config('humo.catalogue_stock_only', 'on', true);
  else
    perform pg_notify('humo_catalogue', ''), set_config('humo.catalogue_stock_only', 'off', true);
  end if;
  return null;
end;
$$;

revoke execute on function public.notify_product_change() from public, anon, authenticated;
