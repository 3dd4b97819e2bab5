-- Real reviews (issue 33, docs/decisions/056): a shopper whose order was handed over ('delivered':
-- picked up or delivered) rates and reviews its products from the order's page, once per product
-- per order, with the order's secret as the proof of purchase (no account). Staff (owners and
-- managers) list the reviews and hide one with a reason, or show it again; both are in the audit
-- trail. products.rating / products.review_count, which the demo filled with made-up numbers, are
-- now the average and count of the product's VISIBLE reviews, kept by the server alone: the
-- catalogue pull carries them, so the menu shows them offline with no extra request. A product
-- with no visible review has rating null and review_count 0, and shows no rating at all.

create table public.product_reviews (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  product_id uuid not null references public.products (id) on delete cascade,
  rating smallint not null check (rating between 1 and 5),
  body text check (body is null or char_length(body) between 1 and 1000),
  -- What the shopper chose to be called (the form offers their first name); null: "Verified buyer".
  display_name text check (display_name is null or char_length(display_name) between 1 and 40),
  created_at timestamptz not null default now(),
  hidden_at timestamptz,
  hidden_reason text check (hidden_reason is null or char_length(hidden_reason) between 1 and 300),
  hidden_by uuid,
  check ((hidden_at is null) = (hidden_reason is null)),
  unique (order_id, product_id)
);

create index product_reviews_visible_idx on public.product_reviews (product_id, created_at desc, id)
  where hidden_at is null;
create index product_reviews_created_idx on public.product_reviews (created_at desc, id desc);

-- Read and written through the functions below only.
alter table public.product_reviews enable row level security;
revoke all on public.product_reviews from public, anon, authenticated;

-- The made-up numbers go: every product starts with no rating until it has a real review.
update public.products set rating = null, review_count = 0
 where rating is not null or review_count <> 0;

-- The product's average and count of visible reviews. Run from the reviews' trigger, so the
-- product's own triggers see a nested change (pg_trigger_depth() > 1): the audit trail does not
-- record it as staff's product change, and the guard below lets it through.
create or replace function private.refresh_review_totals(p_product uuid)
returns void
language sql
volatile
security definer
set search_path = pg_catalog
as $$
  update public.products p
     set rating = t.average, review_count = t.n
    from (select round(avg(r.rating)::numeric, 2) as average, count(*)::integer as n
            from public.product_reviews r
           where r.product_id = p_product and r.hidden_at is null) t
   where p.id = p_product
     and (p.rating is distinct from t.average or p.review_count <> t.n)
$$;

create or replace function private.product_reviews_changed()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.refresh_review_totals(old.product_id);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.product_id <> old.product_id) then
    perform private.refresh_review_totals(new.product_id);
  end if;
  return null;
end;
$$;

revoke all on function private.refresh_review_totals(uuid), private.product_reviews_changed()
  from public, anon, authenticated;

create trigger product_reviews_totals
  after insert or delete or update of rating, hidden_at, product_id on public.product_reviews
  for each row execute function private.product_reviews_changed();

-- Nobody writes a rating through the API: staff's direct writes to products keep the server's
-- figures (the database owner — migrations, the seed, benches — and the reviews' trigger may).
create or replace function private.keep_review_totals()
returns trigger
language plpgsql
set search_path = pg_catalog
as $$
begin
  if pg_trigger_depth() > 1 or coalesce(auth.role(), '') = '' then
    return new;
  end if;
  if tg_op = 'INSERT' then
    new.rating := null;
    new.review_count := 0;
  else
    new.rating := old.rating;
    new.review_count := old.review_count;
  end if;
  return new;
end;
$$;

revoke all on function private.keep_review_totals() from public, anon, authenticated;

create trigger products_keep_review_totals
  before insert or update on public.products
  for each row execute function private.keep_review_totals();

-- One review as the storefront shows it.
create or replace function private.review_json(r public.product_reviews)
returns jsonb
language sql
stable
set search_path = pg_catalog
as $$
  select jsonb_build_object(
    'id', r.id,
    'productId', r.product_id,
    'rating', r.rating,
    'body', r.body,
    'displayName', r.display_name,
    'createdAt', r.created_at)
$$;

revoke all on function private.review_json(public.product_reviews) from public, anon, authenticated;

-- A review from the order's page. The order's secret proves the purchase; refused with a clear
-- message: a bad rating or text (22023), no such order for that secret (42501), an order not
-- handed over yet (P0001), a product not in the order (22023), a second review (PT409).
create or replace function public.submit_product_review(
  p_order_id uuid,
  p_secret text,
  p_product_id uuid,
  p_rating numeric,
  p_body text default null,
  p_display_name text default null
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = public
as $$
declare
  v_status text;
  v_body text := nullif(btrim(coalesce(p_body, '')), '');
  v_name text := nullif(btrim(coalesce(p_display_name, '')), '');
  v_review public.product_reviews;
begin
  if p_order_id is null or p_product_id is null or p_secret is null or p_secret = '' then
    raise exception 'A review needs the order, its secret and the product' using errcode = '22023';
  end if;
  if p_rating is null or p_rating <> trunc(p_rating) or p_rating < 1 or p_rating > 5 then
    raise exception 'Rating must be a whole number of stars from 1 to 5' using errcode = '22023';
  end if;
  if v_body is not null and char_length(v_body) > 1000 then
    raise exception 'A review can be at most 1000 characters' using errcode = '22023';
  end if;
  if v_name is not null and char_length(v_name) > 40 then
    raise exception 'The name shown can be at most 40 characters' using errcode = '22023';
  end if;
  if length(p_secret) > 256 then
    raise exception 'This order could not be found' using errcode = '42501';
  end if;

  select o.status into v_status
    from orders o
   where o.id = p_order_id
     and o.secret_hash = public.order_secret_hash(p_secret)
     and not o._deleted;
  if not found then
    raise exception 'This order could not be found' using errcode = '42501';
  end if;
  if v_status <> 'delivered' then
    raise exception 'Reviews open once the order has been picked up or delivered' using errcode = 'P0001';
  end if;
  if not exists (select 1 from order_items i
                  where i.order_id = p_order_id and i.product_id = p_product_id) then
    raise exception 'That product is not in this order' using errcode = '22023';
  end if;

  insert into product_reviews (order_id, product_id, rating, body, display_name)
  values (p_order_id, p_product_id, p_rating::smallint, v_body, v_name)
  on conflict (order_id, product_id) do nothing
  returning * into v_review;
  if v_review.id is null then
    raise exception 'You have already reviewed this product for this order' using errcode = 'PT409';
  end if;
  return private.review_json(v_review);
end;
$$;

revoke execute on function public.submit_product_review(uuid, text, uuid, numeric, text, text) from public;
grant execute on function public.submit_product_review(uuid, text, uuid, numeric, text, text)
  to anon, authenticated, service_role;

-- The reviews an order's shopper left (hidden ones too, marked: it is their own text), so the
-- order's page says which products are reviewed. A wrong secret reads as no reviews.
create or replace function public.get_order_reviews(p_order_id uuid, p_secret text)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select coalesce(jsonb_agg(private.review_json(r) || jsonb_build_object('hidden', r.hidden_at is not null)
                            order by r.created_at, r.id), '[]'::jsonb)
    from product_reviews r
    join orders o on o.id = r.order_id
   where o.id = p_order_id
     and p_secret is not null
     and length(p_secret) <= 256
     and o.secret_hash = public.order_secret_hash(p_secret)
     and not o._deleted
$$;

revoke execute on function public.get_order_reviews(uuid, text) from public;
grant execute on function public.get_order_reviews(uuid, text) to anon, authenticated, service_role;

-- A product's visible reviews, newest first, in pages (the product page's Reviews tab).
create or replace function public.get_product_reviews(
  p_product_id uuid,
  p_limit integer default 20,
  p_before timestamptz default null,
  p_before_id uuid default null
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 20), 1), 50);
  v_rows jsonb;
  v_count integer;
  v_last public.product_reviews;
begin
  if p_product_id is null then
    raise exception 'Which product?' using errcode = '22023';
  end if;
  with page as (
    select r.* from product_reviews r
     where r.product_id = p_product_id and r.hidden_at is null
       and (p_before is null
            or (r.created_at, r.id) < (p_before, coalesce(p_before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)))
     order by r.created_at desc, r.id desc
     limit v_limit
  )
  select coalesce(jsonb_agg(private.review_json(page) order by page.created_at desc, page.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from page;
  if v_count = v_limit then
    select r.* into v_last from product_reviews r
     where r.id = ((v_rows -> -1) ->> 'id')::uuid;
  end if;
  return jsonb_build_object(
    'rows', v_rows,
    'next', case when v_last.id is not null
                 then jsonb_build_object('before', v_last.created_at, 'beforeId', v_last.id) end);
end;
$$;

revoke execute on function public.get_product_reviews(uuid, integer, timestamptz, uuid) from public;
grant execute on function public.get_product_reviews(uuid, integer, timestamptz, uuid)
  to anon, authenticated, service_role;

-- Admin > Reviews: every review, newest first, in pages, with its product, its order's number and
-- whether (and why, and by whom) it is hidden. Owners and managers.
create or replace function public.admin_reviews(
  p_limit integer default 100,
  p_before timestamptz default null,
  p_before_id uuid default null
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 100), 1), 500);
  v_rows jsonb;
  v_count integer;
begin
  if not public.is_admin() then
    raise exception 'Only owners and managers can read the reviews' using errcode = '42501';
  end if;
  with page as (
    select r.*, p.name as product_name, p.slug as product_slug,
           (select u.email from auth.users u where u.id = r.hidden_by) as hidden_by_email
      from product_reviews r
      left join products p on p.id = r.product_id
     where p_before is null
        or (r.created_at, r.id) < (p_before, coalesce(p_before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid))
     order by r.created_at desc, r.id desc
     limit v_limit
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'orderId', page.order_id,
           'productId', page.product_id,
           'productName', page.product_name,
           'productSlug', page.product_slug,
           'rating', page.rating,
           'body', page.body,
           'displayName', page.display_name,
           'createdAt', page.created_at,
           'hiddenAt', page.hidden_at,
           'hiddenReason', page.hidden_reason,
           'hiddenBy', page.hidden_by_email)
         order by page.created_at desc, page.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from page;
  return jsonb_build_object(
    'rows', v_rows,
    'next', case when v_count = v_limit then jsonb_build_object(
                   'before', (v_rows -> -1) ->> 'createdAt', 'beforeId', (v_rows -> -1) ->> 'id') end);
end;
$$;

revoke execute on function public.admin_reviews(integer, timestamptz, uuid) from public, anon;
grant execute on function public.admin_reviews(integer, timestamptz, uuid) to authenticated, service_role;

-- Hides a review (a reason is required: it is what staff read later) or shows it again. The
-- product's figures follow (the trigger above); the change is in the audit trail.
create or replace function public.admin_set_review_hidden(
  p_id uuid,
  p_hidden boolean,
  p_reason text default null
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = public
as $$
declare
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
  v_old public.product_reviews;
  v_new public.product_reviews;
begin
  if not public.is_admin() then
    raise exception 'Only owners and managers can hide or show reviews' using errcode = '42501';
  end if;
  if p_id is null or p_hidden is null then
    raise exception 'Which review, and hide or show?' using errcode = '22023';
  end if;
  if p_hidden and v_reason is null then
    raise exception 'Say why the review is hidden' using errcode = '22023';
  end if;
  if v_reason is not null and char_length(v_reason) > 300 then
    raise exception 'The reason can be at most 300 characters' using errcode = '22023';
  end if;
  select * into v_old from product_reviews where id = p_id for update;
  if not found then
    raise exception 'That review does not exist' using errcode = '22023';
  end if;
  if p_hidden = (v_old.hidden_at is not null) and (not p_hidden or v_old.hidden_reason = v_reason) then
    return jsonb_build_object('id', v_old.id, 'hidden', p_hidden, 'changed', false);
  end if;
  update product_reviews
     set hidden_at = case when p_hidden then coalesce(hidden_at, now()) end,
         hidden_reason = case when p_hidden then v_reason end,
         hidden_by = case when p_hidden then auth.uid() end
   where id = p_id
  returning * into v_new;
  perform private.audit(
    case when p_hidden then 'review.hide' else 'review.show' end,
    'review', p_id::text,
    jsonb_build_object('hidden', v_old.hidden_at is not null, 'reason', v_old.hidden_reason,
                       'product', v_old.product_id, 'rating', v_old.rating),
    jsonb_build_object('hidden', p_hidden, 'reason', v_new.hidden_reason));
  return jsonb_build_object('id', v_new.id, 'hidden', p_hidden, 'changed', true);
end;
$$;

revoke execute on function public.admin_set_review_hidden(uuid, boolean, text) from public, anon;
grant execute on function public.admin_set_review_hidden(uuid, boolean, text) to authenticated, service_role;
