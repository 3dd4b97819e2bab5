-- Reading orders back as a shopper: anon has no select on orders, so a device that placed an
-- order proves it by the order's secret. get_orders refreshes every order a device holds in one
-- round trip. A wrong id or secret looks exactly like a missing order (null / left out), so the
-- answer tells a guesser nothing.

create or replace function public.get_order(p_id uuid, p_secret text)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.order_document(o)
  from public.orders o
  where o.id = p_id
    and p_secret is not null
    and o.secret_hash = public.order_secret_hash(p_secret)
    and not o._deleted
$$;

revoke execute on function public.get_order(uuid, text) from public;
grant execute on function public.get_order(uuid, text) to anon, authenticated, service_role;

-- p_refs: [{id, secret}, ...] (at most 200); returns the matching orders, newest first. Refs that
-- are malformed or do not match are left out rather than failing the whole refresh.
create or replace function public.get_orders(p_refs jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_ids uuid[] := '{}';
  v_hashes text[] := '{}';
  v_ref jsonb;
begin
  if p_refs is null or jsonb_typeof(p_refs) <> 'array' then
    raise exception 'p_refs must be an array of {id, secret}' using errcode = '22023';
  end if;
  if jsonb_array_length(p_refs) > 200 then
    raise exception 'At most 200 orders can be read at once' using errcode = '22023';
  end if;
  for v_ref in select value from jsonb_array_elements(p_refs) loop
    if jsonb_typeof(v_ref) = 'object'
       and jsonb_typeof(v_ref -> 'id') = 'string'
       and jsonb_typeof(v_ref -> 'secret') = 'string'
       and (v_ref ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      v_ids := v_ids || (v_ref ->> 'id')::uuid;
      v_hashes := v_hashes || public.order_secret_hash(v_ref ->> 'secret');
    end if;
  end loop;
  return coalesce((
    select jsonb_agg(public.order_document(o) order by o.created_at desc, o.id)
    from public.orders o
    join unnest(v_ids, v_hashes) as r (id, secret_hash)
      on r.id = o.id and r.secret_hash = o.secret_hash
    where not o._deleted
  ), '[]'::jsonb);
end;
$$;

revoke execute on function public.get_orders(jsonb) from public;
grant execute on function public.get_orders(jsonb) to anon, authenticated, service_role;
