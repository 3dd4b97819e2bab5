-- An order's stock change tells the embedded server's catalogue cache which products it moved,
-- so the cache drops only the answers that hold them (supabase/local/cache/catalogue-cache.ts,
-- docs/decisions/045), not every anonymous read of the catalogue. Before this, every order
-- emptied the cache and the next reads of every page went to the database.
--
-- An UPDATE of products that changed nothing but the stock (quantity_available, and the
-- _modified and updated_at that its triggers move) of at most 100 rows notifies
-- 'stock:<id>,<id>…' on 'humo_catalogue'; any other change of products notifies '' as before
-- (everything is dropped). The bump of catalogue_changes that follows such a change (its
-- signal_catalogue_change trigger) stays quiet: no cached answer reads catalogue_changes, and the
-- products' own notification already said what moved. Postgres delivers notifications only when
-- the transaction commits; on hosted Supabase nobody listens.

create or replace function public.notify_product_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  v_count integer;
  v_ids text;
begin
  select count(*) into v_count from new_rows;
  if v_count = 0 then
    return null;
  end if;
  if v_count <= 100 and not exists (
    select 1
      from old_rows o
      full join new_rows n on n.id = o.id
     where o.id is null or n.id is null
        or (to_jsonb(o) - array['quantity_available', '_modified', 'updated_at'])
           is distinct from (to_jsonb(n) - array['quantity_available', '_modified', 'updated_at'])
  ) then
    select string_agg(id::text, ',' order by id) into v_ids from new_rows;
    perform pg_notify('humo_catalogue', 'stock:' || v_ids);
    -- Read by the catalogue_changes trigger of this transaction's feed bump (below).
    perform set_config('humo.catalogue_stock_only', 'on', true);
  else
    perform pg_notify('humo_catalogue', '');
    perform set_config('humo.catalogue_stock_only', 'off', true);
  end if;
  return null;
end;
$$;

revoke execute on function public.notify_product_change() from public, anon, authenticated;

-- The feed's own notification, but not for a bump that only follows a stock change of products,
-- nor for an insert that inserted nothing (signal_catalogue_change's upsert fires the INSERT
-- triggers too when it updates).
create or replace function public.notify_catalogue_feed_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  if not exists (select 1 from new_rows) then
    return null;
  end if;
  if tg_op = 'UPDATE' and current_setting('humo.catalogue_stock_only', true) = 'on'
     and not exists (select 1 from new_rows where table_name <> 'products') then
    return null;
  end if;
  perform pg_notify('humo_catalogue', '');
  return null;
end;
$$;

revoke execute on function public.notify_catalogue_feed_change() from public, anon, authenticated;

drop trigger products_notify_cache on public.products;
create trigger products_notify_cache
  after insert or delete or truncate on public.products
  for each statement execute function public.notify_catalogue_change();
-- Named to fire before products_signal_change (triggers of one kind fire in name order).
create trigger products_notify_cache_update
  after update on public.products
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.notify_product_change();

drop trigger catalogue_changes_notify_cache on public.catalogue_changes;
create trigger catalogue_changes_notify_cache
  after delete or truncate on public.catalogue_changes
  for each statement execute function public.notify_catalogue_change();
create trigger catalogue_changes_notify_cache_insert
  after insert on public.catalogue_changes
  referencing new table as new_rows
  for each statement execute function public.notify_catalogue_feed_change();
create trigger catalogue_changes_notify_cache_update
  after update on public.catalogue_changes
  referencing new table as new_rows
  for each statement execute function public.notify_catalogue_feed_change();
