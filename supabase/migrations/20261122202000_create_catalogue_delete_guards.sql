-- Deleting a category, brand or product type is refused while any live product references it,
-- with SPEC.md §8's message. A trigger rather than a client check, so a REST DELETE, a soft
-- delete (_deleted = true) and any function all get the same refusal, and no product is ever
-- left pointing at a deleted row. errcode 23503 (foreign_key_violation): PostgREST answers it
-- with 409 Conflict and the message as error.message.

create or replace function public.refuse_delete_while_referenced()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  -- TG_ARGV[0]: the products column that references this table; TG_ARGV[1]: the noun in the message.
  v_column text := tg_argv[0];
  v_kind text := tg_argv[1];
  v_referenced boolean;
begin
  if tg_op = 'UPDATE' and not (new._deleted and not old._deleted) then
    return new;
  end if;
  execute format(
    'select exists (select 1 from public.products where %I = $1 and not _deleted)',
    v_column
  ) into v_referenced using old.id;
  if v_referenced then
    raise exception 'Cannot delete % - it is still referenced by products. Please update or delete those products first.', v_kind
      using errcode = '23503';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

revoke execute on function public.refuse_delete_while_referenced() from public, anon, authenticated;

create trigger categories_refuse_delete_while_referenced
  before delete or update of _deleted on public.categories
  for each row execute function public.refuse_delete_while_referenced('category_id', 'category');

create trigger brands_refuse_delete_while_referenced
  before delete or update of _deleted on public.brands
  for each row execute function public.refuse_delete_while_referenced('brand_id', 'brand');

create trigger product_types_refuse_delete_while_referenced
  before delete or update of _deleted on public.product_types
  for each row execute function public.refuse_delete_while_referenced('product_type_id', 'product type');
