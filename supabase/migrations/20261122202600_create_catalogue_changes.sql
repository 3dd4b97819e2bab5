-- catalogue_changes: a live "something changed" signal for shoppers' devices. Realtime delivers a
-- row change only to subscribers who may read the new row, so an anonymous shopper never hears
-- that a product was deactivated or deleted (RLS hides it). Every write to a catalogue table
-- bumps this table's row for that table (statement-level, so a bulk import is one event);
-- anyone may read it, and devices answer an event by pulling (pull_* brings the tombstones).

create table public.catalogue_changes (
  table_name text primary key,
  changed_at timestamptz not null default now()
);

alter table public.catalogue_changes enable row level security;

create policy "anyone reads catalogue change signals"
  on public.catalogue_changes for select
  to anon, authenticated
  using (true);

grant select on public.catalogue_changes to anon, authenticated;

create or replace function public.signal_catalogue_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  insert into public.catalogue_changes (table_name, changed_at)
  values (tg_table_name, clock_timestamp())
  on conflict (table_name) do update set changed_at = excluded.changed_at;
  return null;
end;
$$;

do $$
declare
  t text;
begin
  foreach t in array array['products', 'product_media', 'product_effects', 'terpene_profiles',
                           'categories', 'brands', 'product_types'] loop
    execute format(
      'create trigger %I after insert or update or delete on public.%I
         for each statement execute function public.signal_catalogue_change()',
      t || '_signal_change', t);
  end loop;
end;
$$;

alter publication supabase_realtime add table public.catalogue_changes;
