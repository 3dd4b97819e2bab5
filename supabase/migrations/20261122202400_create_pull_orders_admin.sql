-- Checkpointed pull of every order for admin devices (the order board works offline), with the
-- same parameters and {rows, behind} result as pull_products. Each row is the order document of
-- order_document() plus the checkpoint fields _modified (fixed-width UTC text) and _deleted;
-- a deleted order is a tombstone {id, _modified, _deleted: true}. Admins only (42501 otherwise).

create or replace function public.pull_orders_admin(
  after_modified timestamptz default null,
  after_id uuid default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_limit integer := least(greatest(coalesce(max_rows, 200), 1), 2000);
  v_after_id uuid := coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid);
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  return (
    with ahead as (
      select o.id from orders o
      where after_modified is null or (o._modified, o.id) > (after_modified, v_after_id)
      order by o._modified, o.id
      limit v_limit
    ),
    behind as (
      select o.id from orders o
      where behind_from is not null and after_modified is not null
        and o._modified >= behind_from
        and (o._modified, o.id) <= (after_modified, v_after_id)
      order by o._modified, o.id
      limit v_limit
    ),
    docs as (
      select k.part, o.id, o._modified,
        case when not o._deleted then
          public.order_document(o) || jsonb_build_object(
            '_modified', to_char(o._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            '_deleted', false)
        else
          jsonb_build_object(
            'id', o.id,
            '_modified', to_char(o._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            '_deleted', true)
        end as doc
      from (select 'rows' as part, id from ahead union all select 'behind' as part, id from behind) k
      join orders o on o.id = k.id
    )
    select jsonb_build_object(
      'rows', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'rows'), '[]'::jsonb),
      'behind', coalesce((select jsonb_agg(d.doc order by d._modified, d.id) from docs d where d.part = 'behind'), '[]'::jsonb)
    )
  );
end;
$$;

revoke execute on function public.pull_orders_admin(timestamptz, uuid, integer, timestamptz) from public, anon;
grant execute on function public.pull_orders_admin(timestamptz, uuid, integer, timestamptz) to authenticated, service_role;
