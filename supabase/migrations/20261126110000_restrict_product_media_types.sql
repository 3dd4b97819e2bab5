-- Product media are the images and videos the shop shows: JPEG, PNG, WebP, MP4 and WebM, no SVG
-- (issue 23, finding 2; docs/decisions/022). The embedded server reads each upload's type from its
-- bytes whatever this list says; hosted Supabase Storage checks the declared Content-Type against
-- it, so there an SVG (or QuickTime, which the admin never offered) is refused too.
update storage.buckets
set allowed_mime_types = array['image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'video/webm']
where id = 'product_media';
