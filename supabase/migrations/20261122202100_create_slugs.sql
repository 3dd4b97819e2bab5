-- Slugs made by the server. SPEC.md §7's admin creates categories and brands with just a name
-- (no slug), yet /menu/{category} and brand filters need one; and a product saved without a slug
-- gets one from its name. slugify() mirrors supabase/seed/build-catalogue.ts's slugify for the
-- common cases; unique_slug() appends -2, -3, ... until no live row of the table has it.

create or replace function public.slugify(p_text text)
returns text
language sql
immutable
set search_path = public
as $$
  select coalesce(nullif(
    trim(both '-' from regexp_replace(
      replace(
        translate(lower(coalesce(p_text, '')),
          'áàâäãåāçćčéèêëēęíìîïīñńóòôöõøōúùûüūýÿžźż',
          'aaaaaaaccceeeeeeiiiiinnoooooooouuuuuyyzzz'),
        '&', ' and '),
      '[^a-z0-9]+', '-', 'g')),
    ''), 'item')
$$;

grant execute on function public.slugify(text) to anon, authenticated, service_role;

-- p_table: 'products', 'categories' or 'brands'; p_id: the row being saved (its own slug is free
-- to keep).
create or replace function public.unique_slug(p_table text, p_base text, p_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_base text := left(public.slugify(p_base), 80);
  v_slug text := v_base;
  v_taken boolean;
  v_n integer := 1;
begin
  if p_table not in ('products', 'categories', 'brands') then
    raise exception 'unique_slug: unsupported table %', p_table using errcode = '22023';
  end if;
  loop
    execute format(
      'select exists (select 1 from public.%I where slug = $1 and not _deleted and id is distinct from $2)',
      p_table
    ) into v_taken using v_slug, p_id;
    exit when not v_taken;
    v_n := v_n + 1;
    v_slug := v_base || '-' || v_n;
  end loop;
  return v_slug;
end;
$$;

revoke execute on function public.unique_slug(text, text, uuid) from public, anon, authenticated;

-- Fills a missing slug on insert (and on an update that blanks it) from the row's name.
create or replace function public.fill_slug()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  if new.slug is null or length(trim(new.slug)) = 0 then
    new.slug := public.unique_slug(tg_table_name, new.name, new.id);
  end if;
  return new;
end;
$$;

revoke execute on function public.fill_slug() from public, anon, authenticated;

-- The column stays not null: before-triggers run ahead of that check, so an insert without a
-- slug still succeeds.
create trigger categories_fill_slug
  before insert or update of slug on public.categories
  for each row execute function public.fill_slug();

create trigger brands_fill_slug
  before insert or update of slug on public.brands
  for each row execute function public.fill_slug();

create trigger products_fill_slug
  before insert or update of slug on public.products
  for each row execute function public.fill_slug();
