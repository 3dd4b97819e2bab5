-- The stock notification of 20261126150000 made cheaper: it cost about 0.4 ms of an order's
-- 2.5 ms in the database (a plpgsql function of four statements over the transition tables, and
-- transition tables on catalogue_changes too). Same notifications (docs/decisions/045):
-- 'stock:<ids>' for an UPDATE of at most 100 products that moved only their stock, '' for any
-- other change of products; catalogue_changes stays quiet after a stock change in its
-- transaction, which its plain statement trigger now reads from the setting alone.

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
begin
  select count(*),
         bool_and(o.id is not null and n.id is not null
                  and (to_jsonb(o) - array['quantity_available', '_modified', 'updated_at'])
                    = (to_jsonb(n) - array['quantity_available', '_modified', 'updated_at'])),
         string_agg(n.id::text, ',' order by n.id)
    into v_count, v_stock_only, v_ids
    from old_rows o
    full join new_rows n on n.id = o.id;
  if v_count = 0 then
    return null;
  end if;
  if v_stock_only and v_count <= 100 then
    perform pg_notify('humo_catalogue', 'stock:' || v_ids),
            set_config('humo.catalogue_stock_only', 'on', true);
  else
    perform pg_notify('humo_catalogue', ''), set_config('humo.catalogue_stock_only', 'off', true);
  end if;
  return null;
end;
$$;

revoke execute on function public.notify_product_change() from public, anon, authenticated;

-- catalogue_changes: quiet after a stock change of products in this transaction (the bump of its
-- signal_catalogue_change trigger); no cached answer reads catalogue_changes, and every catalogue
-- table notifies its own changes.
create or replace function public.notify_catalogue_feed_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  if current_setting('humo.catalogue_stock_only', true) is distinct from 'on' then
    perform pg_notify('humo_catalogue', '');
  end if;
  return null;
end;
$$;

drop trigger catalogue_changes_notify_cache_insert on public.catalogue_changes;
drop trigger catalogue_changes_notify_cache_update on public.catalogue_changes;
drop trigger catalogue_changes_notify_cache on public.catalogue_changes;
create trigger catalogue_changes_notify_cache
  after insert or update or delete or truncate on public.catalogue_changes
  for each statement execute function public.notify_catalogue_feed_change();
