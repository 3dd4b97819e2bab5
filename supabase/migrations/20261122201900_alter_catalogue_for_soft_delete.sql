-- Soft deletes and the catalogue's uniqueness rules. A deleted row is kept as a tombstone for
-- devices, but it must not hold on to its SKU, slug or name: staff reuse SKUs, and a new product
-- or category may take a retired one's name. So they are unique among live (not deleted) rows.
--
-- Deleting a category, brand or product type is refused while a live product references it (the
-- guard triggers in the next migration). Products already deleted must not block that, so the
-- references of those tombstones are cleared instead of restricting the delete.

alter table public.products drop constraint products_sku_key;
alter table public.products drop constraint products_slug_key;
create unique index products_sku_live_key on public.products (sku) where not _deleted;
create unique index products_slug_live_key on public.products (slug) where not _deleted;

alter table public.categories drop constraint categories_slug_key;
create unique index categories_slug_live_key on public.categories (slug) where not _deleted;
alter table public.brands drop constraint brands_slug_key;
create unique index brands_slug_live_key on public.brands (slug) where not _deleted;
alter table public.product_types drop constraint product_types_name_key;
create unique index product_types_name_live_key on public.product_types (name) where not _deleted;

alter table public.products drop constraint products_brand_id_fkey;
alter table public.products drop constraint products_category_id_fkey;
alter table public.products drop constraint products_product_type_id_fkey;
alter table public.products
  add constraint products_brand_id_fkey foreign key (brand_id)
    references public.brands (id) on delete set null,
  add constraint products_category_id_fkey foreign key (category_id)
    references public.categories (id) on delete set null,
  add constraint products_product_type_id_fkey foreign key (product_type_id)
    references public.product_types (id) on delete set null;
