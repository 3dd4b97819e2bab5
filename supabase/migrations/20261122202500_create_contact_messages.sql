-- Messages from the Contact Us form (SPEC.md §2 only logged them; a real shop reads them).
-- Shoppers cannot read or write the table: they send through submit_contact_message(), which is
-- idempotent on the client-made id so an offline outbox may retry it. Admins read all messages
-- and mark them read (read_at) or delete them (_deleted).

create table public.contact_messages (
  id uuid primary key,
  first_name text not null check (length(trim(first_name)) > 0),
  last_name text not null check (length(trim(last_name)) > 0),
  email text not null check (length(trim(email)) > 0),
  phone text,
  subject text not null check (length(trim(subject)) > 0),
  message text not null check (length(trim(message)) > 0),
  newsletter boolean not null default false,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index contact_messages_modified_idx on public.contact_messages (_modified, id);
create index contact_messages_created_at_idx on public.contact_messages (created_at desc);

create trigger contact_messages_set_modified
  before insert or update on public.contact_messages
  for each row execute function public.set_modified();

alter table public.contact_messages enable row level security;

create policy "contact_messages: admins read all"
  on public.contact_messages for select
  to authenticated
  using (public.is_admin());

create policy "contact_messages: admins update"
  on public.contact_messages for update
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

-- What a message says is the sender's; staff only mark it read or delete it.
revoke insert, update, delete, truncate on public.contact_messages from anon, authenticated;
grant update (read_at, _deleted) on public.contact_messages to authenticated;

alter publication supabase_realtime add table public.contact_messages;

-- p: {id, firstName, lastName, email, phone?, subject, message, newsletter?}. Returns
-- {id, createdAt}; a repeat of the same id returns the first one's answer unchanged.
create or replace function public.submit_contact_message(p jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_id uuid;
  v_email text;
  v_row public.contact_messages;
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    raise exception 'The message must be a JSON object' using errcode = '22023';
  end if;
  begin
    v_id := public.order_input_text(p -> 'id', 'Message id', 36)::uuid;
  exception when invalid_text_representation then
    raise exception 'Message id must be a UUID' using errcode = '22023';
  end;

  select * into v_row from public.contact_messages where id = v_id;
  if not found then
    v_email := lower(public.order_input_text(p -> 'email', 'Email', 254));
    if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
      raise exception 'Email must be a valid email address' using errcode = '22023';
    end if;
    if jsonb_typeof(p -> 'newsletter') not in ('boolean', 'null') then
      raise exception 'newsletter must be true or false' using errcode = '22023';
    end if;
    insert into public.contact_messages (id, first_name, last_name, email, phone, subject, message, newsletter)
    values (
      v_id,
      public.order_input_text(p -> 'firstName', 'First name', 100),
      public.order_input_text(p -> 'lastName', 'Last name', 100),
      v_email,
      public.order_input_text(p -> 'phone', 'Phone number', 40, false),
      public.order_input_text(p -> 'subject', 'Subject', 200),
      public.order_input_text(p -> 'message', 'Message', 5000),
      coalesce((p ->> 'newsletter')::boolean, false)
    )
    on conflict (id) do nothing;
    select * into v_row from public.contact_messages where id = v_id;
  end if;
  return jsonb_build_object('id', v_row.id, 'createdAt', v_row.created_at);
end;
$$;

revoke execute on function public.submit_contact_message(jsonb) from public;
grant execute on function public.submit_contact_message(jsonb) to anon, authenticated, service_role;
