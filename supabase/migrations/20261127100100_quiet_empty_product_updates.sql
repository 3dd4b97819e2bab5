-- An UPDATE of products that changed no row no longer moves the catalogue's change feed.
-- place_order lowers the stock with one UPDATE of the limited products it sold; for an order of
-- unlimited products only, that UPDATE matches nothing, yet the feed's statement trigger still
-- bumped catalogue_changes: every connected device was told the catalogue had changed (and pulled
-- nothing new), and the embedded server's catalogue cache was emptied (its notification of the
-- bump is quiet only after a stock change, docs/decisions/049). Under a stream of such orders the
-- cache kept almost nothing. Inserts and deletes keep the plain statement trigger.

create or replace function public.signal_catalogue_update()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  -- As signal_catalogue_change (20261126120000), for a statement that changed a row.
  if public.in_bulk_import() or not exists (select 1 from new_rows) then
    return null;
  end if;
  insert into public.catalogue_changes (table_name, changed_at)
  values (tg_table_name, clock_timestamp())
  on conflict (table_name) do update set changed_at = excluded.changed_at;
  return null;
end;
$$;

revoke execute on function public.signal_catalogue_update() from public, anon, authenticated;

drop trigger products_signal_change on public.products;
create trigger products_signal_change
  after insert or delete on public.products
  for each statement execute function public.signal_catalogue_change();
-- After products_notify_cache_update (name order), which tells the bump whether to be quiet.
create trigger products_signal_change_update
  after update on public.products
  referencing new table as new_rows
  for each statement execute function public.signal_catalogue_update();
