-- Shared trigger functions for replicated tables (DESIGN.md §3).
-- _modified is the replication checkpoint, so it is always the server's clock: a client-supplied
-- value is overwritten. clock_timestamp() rather than now() so that rows written later in the same
-- transaction still sort after earlier ones.

create or replace function public.set_modified()
returns trigger
language plpgsql
as $$
begin
  new._modified := clock_timestamp();
  return new;
end;
$$;

create or replace function public.set_updated_at()
returns trigger
language plpgsql
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- Trigger functions are not meant to be called through the API.
revoke execute on function public.set_modified() from public, anon, authenticated;
revoke execute on function public.set_updated_at() from public, anon, authenticated;
