-- A new product that does not say which daily limit it counts toward counts by its category
-- (docs/decisions/051-california-taxes-and-daily-limits.md): flower and bulk flower toward the
-- flower limit, concentrates and bulk concentrates toward the concentrate limit, as the backfill
-- of 20261128100100_cannabis_product_facts did for the products of that day. Without it, a flower
-- product created by a form or a CSV that predates the facts would count toward no limit at all:
-- the lax reading. A product saved later with "None" keeps None; only the insert is completed,
-- and only when it has grams to count (its weight or limit_grams).

create or replace function public.default_product_limit_class()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  -- Only with grams to count: a product without a weight is told to say it at its next save.
  if new.is_cannabis and new.limit_class is null and coalesce(new.limit_grams, new.weight_grams, 0) > 0 then
    select case
             when c.slug = 'flower' or t.name = 'Bulk Flower' then 'flower'
             when c.slug = 'concentrates' or t.name = 'Bulk Concentrates' then 'concentrate'
           end
      into new.limit_class
      from (select 1) one
      left join public.categories c on c.id = new.category_id
      left join public.product_types t on t.id = new.product_type_id;
  end if;
  return new;
end;
$$;

revoke execute on function public.default_product_limit_class() from public, anon, authenticated;

create trigger products_default_limit_class
  before insert on public.products
  for each row execute function public.default_product_limit_class();
