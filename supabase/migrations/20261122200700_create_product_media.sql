-- Images and videos of a product. media_url is a path in the public product_media storage
-- bucket ({productId}/{file}), not a full URL, so the same rows work on any host.

create table public.product_media (
  id uuid primary key default gen_random_uuid(),
  product_id uuid not null references public.products (id) on delete cascade,
  media_url text not null check (length(trim(media_url)) > 0),
  media_type text not null default 'image' check (media_type in ('image', 'video')),
  is_primary boolean not null default false,
  display_order integer not null default 0,
  created_at timestamptz not null default now(),
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create index product_media_modified_idx on public.product_media (_modified, id);
create index product_media_product_id_idx on public.product_media (product_id, display_order);

create trigger product_media_set_modified
  before insert or update on public.product_media
  for each row execute function public.set_modified();

create trigger product_media_touch_product
  after insert or update or delete on public.product_media
  for each row execute function public.touch_parent_product();

alter table public.product_media enable row level security;

create policy "product_media: read media of readable products"
  on public.product_media for select
  to anon, authenticated
  using (
    not _deleted
    and exists (
      select 1 from public.products p
      where p.id = product_id and p.is_active and not p._deleted
    )
  );

create policy "product_media: admins read and write all"
  on public.product_media for all
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

alter publication supabase_realtime add table public.product_media;
