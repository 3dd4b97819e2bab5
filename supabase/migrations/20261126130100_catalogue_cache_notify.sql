-- Every committed change to the catalogue tells the embedded server's catalogue cache
-- (supabase/local/cache/catalogue-cache.ts, docs/decisions/032), so a cached anonymous read costs no
-- query: a statement-level trigger on each catalogue table and on catalogue_changes NOTIFYs
-- 'humo_catalogue'. Postgres sends a notification only when its transaction commits and folds
-- repeats within one transaction into one. Unlike signal_catalogue_change it does not stand aside
-- during a bulk import, and it also hears TRUNCATE; on hosted Supabase nobody listens, which
-- costs nothing.

create or replace function public.notify_catalogue_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  perform pg_notify('humo_catalogue', '');
  return null;
end;
$$;

revoke execute on function public.notify_catalogue_change() from public, anon, authenticated;

do $$
declare
  t text;
begin
  foreach t in array array['products', 'product_media', 'product_effects', 'terpene_profiles',
                           'categories', 'brands', 'product_types', 'catalogue_changes'] loop
    execute format(
      'create trigger %I after insert or update or delete or truncate on public.%I
         for each statement execute function public.notify_catalogue_change()',
      t || '_notify_cache', t);
  end loop;
end;
$$;
