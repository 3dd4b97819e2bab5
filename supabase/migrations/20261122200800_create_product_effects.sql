-- Effects of a product ("Relaxed", "Euphoric", ...), one row each.

create table public.product_effects (
  id uuid primary key default gen_random_uuid(),
  product_id uuid not null references public.products (id) on delete cascade,
  effect_name text not null check (length(trim(effect_name)) > 0),
  created_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index product_effects_modified_idx on public.product_effects (_modified, id);
create index product_effects_product_id_idx on public.product_effects (product_id);

create trigger product_effects_set_modified
  before insert or update on public.product_effects
  for each row execute function public.set_modified();

create trigger product_effects_touch_product
  after insert or update or delete on public.product_effects
  for each row execute function public.touch_parent_product();

alter table public.product_effects enable row level security;

create policy "product_effects: read effects of readable products"
  on public.product_effects for select
  to anon, authenticated
  using (
    not _deleted
    and exists (
      select 1 from public.products p
      where p.id = product_id and p.is_active and not p._deleted
    )
  );

create policy "product_effects: admins read and write all"
  on public.product_effects for all
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

alter publication supabase_realtime add table public.product_effects;
