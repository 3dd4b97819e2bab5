-- The public bucket that holds product images and videos. Anyone reads through public URLs;
-- only admins write (the storage API checks these policies on upload and remove).

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
  'product_media',
  'product_media',
  true,
  52428800,
  array['image/jpeg', 'image/png', 'image/webp', 'image/svg+xml', 'video/mp4', 'video/webm', 'video/quicktime']
)
on conflict (id) do nothing;

create policy "product_media bucket: public read"
  on storage.objects for select
  to anon, authenticated
  using (bucket_id = 'product_media');

create policy "product_media bucket: admins insert"
  on storage.objects for insert
  to authenticated
  with check (bucket_id = 'product_media' and public.is_admin());

create policy "product_media bucket: admins update"
  on storage.objects for update
  to authenticated
  using (bucket_id = 'product_media' and public.is_admin())
  with check (bucket_id = 'product_media' and public.is_admin());

create policy "product_media bucket: admins delete"
  on storage.objects for delete
  to authenticated
  using (bucket_id = 'product_media' and public.is_admin());
