-- place_order(p_order jsonb): the only way an order enters the database (DESIGN.md §3, §8, §9).
--
-- A shopper's device may send the same order many times (an offline outbox retrying until it
-- hears back), so the client-made id makes it idempotent: a repeat with the same secret gets the
-- stored order back, never a second one. Prices, tax, shipping and totals are recomputed here
-- from the database (the client's figures are a preview), stock is checked and taken under row
-- locks, and California's per-order limits are enforced with the same texts as
-- src/lib/purchase-limits.ts.
--
-- Two kinds of "no":
--   * malformed input (a bug or a tampered client) raises errcode 22023 with a clear message;
--   * a well-formed order the shop cannot fill (stock, availability, limits) is answered
--     {"status": "refused", "reasons": [{"productId", "message"}]} and changes nothing, so the
--     device can show every reason at once and let the shopper fix the cart.

-- Input helpers: each raises 22023 with a message naming the field. Internal only.
create or replace function public.order_input_text(
  p_value jsonb,
  p_label text,
  p_max integer default 200,
  p_required boolean default true
)
returns text
language plpgsql
immutable
set search_path = public
as $$
begin
  if p_value is null or jsonb_typeof(p_value) = 'null' then
    if p_required then
      raise exception '% is required', p_label using errcode = '22023';
    end if;
    return null;
  end if;
  if jsonb_typeof(p_value) <> 'string' then
    raise exception '% must be text', p_label using errcode = '22023';
  end if;
  if length(trim(p_value #>> '{}')) = 0 then
    if p_required then
      raise exception '% is required', p_label using errcode = '22023';
    end if;
    return null;
  end if;
  if length(p_value #>> '{}') > p_max then
    raise exception '% is too long (at most % characters)', p_label, p_max using errcode = '22023';
  end if;
  return trim(p_value #>> '{}');
end;
$$;

revoke execute on function public.order_input_text(jsonb, text, integer, boolean) from public, anon, authenticated;

-- An address as stored on the order: {address1, address2, city, state, zipCode}. Delivery goes
-- to California only (DESIGN.md §9); a billing address may be anywhere in the US.
create or replace function public.order_input_address(
  p_value jsonb,
  p_label text,
  p_california_only boolean
)
returns jsonb
language plpgsql
immutable
set search_path = public
as $$
declare
  v_state text;
  v_zip text;
begin
  if p_value is null or jsonb_typeof(p_value) <> 'object' then
    raise exception '% is required', p_label using errcode = '22023';
  end if;
  v_state := upper(public.order_input_text(p_value -> 'state', p_label || ' state', 2));
  v_zip := public.order_input_text(p_value -> 'zipCode', p_label || ' ZIP code', 10);
  if v_zip !~ '^[0-9]{5}$' then
    raise exception '% ZIP code must be 5 digits', p_label using errcode = '22023';
  end if;
  if v_state !~ '^[A-Z]{2}$' then
    raise exception '% state must be a two-letter state code', p_label using errcode = '22023';
  end if;
  if p_california_only and v_state <> 'CA' then
    raise exception 'We deliver only to California addresses' using errcode = '22023';
  end if;
  return jsonb_build_object(
    'address1', public.order_input_text(p_value -> 'address1', p_label || ' address', 200),
    'address2', public.order_input_text(p_value -> 'address2', p_label || ' address line 2', 200, false),
    'city', public.order_input_text(p_value -> 'city', p_label || ' city', 100),
    'state', v_state,
    'zipCode', v_zip
  );
end;
$$;

revoke execute on function public.order_input_address(jsonb, text, boolean) from public, anon, authenticated;

create or replace function public.place_order(p_order jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_id uuid;
  v_secret text;
  v_existing public.orders;
  v_customer jsonb;
  v_email text;
  v_first_name text;
  v_last_name text;
  v_phone text;
  v_fulfilment text;
  v_method text;
  v_shipping_address jsonb;
  v_billing_address jsonb;
  v_payment text;
  v_last4 text;
  v_item jsonb;
  v_product_id uuid;
  v_quantity numeric;
  v_at integer;
  v_ids uuid[] := '{}';
  v_quantities integer[] := '{}';
  v_product record;
  v_name text;
  v_reasons jsonb := '[]'::jsonb;
  v_flower numeric := 0;
  v_concentrate numeric := 0;
  v_subtotal numeric(10, 2) := 0;
  v_tax numeric(10, 2);
  v_shipping numeric(10, 2);
  v_discount numeric(10, 2) := 0;
  v_total numeric(10, 2);
  v_today date := (now() at time zone 'America/Los_Angeles')::date;
  v_order public.orders;
begin
  if p_order is null or jsonb_typeof(p_order) <> 'object' then
    raise exception 'The order must be a JSON object' using errcode = '22023';
  end if;

  begin
    v_id := public.order_input_text(p_order -> 'id', 'Order id', 36)::uuid;
  exception when invalid_text_representation then
    raise exception 'Order id must be a UUID' using errcode = '22023';
  end;
  v_secret := public.order_input_text(p_order -> 'secret', 'Order secret', 256);
  if length(v_secret) < 32 then
    raise exception 'Order secret must be at least 32 characters' using errcode = '22023';
  end if;

  -- Serialise attempts at the same order id, so two deliveries of one outbox entry cannot both
  -- pass the existence check below.
  perform pg_advisory_xact_lock(hashtextextended('humo.place_order:' || v_id::text, 0));

  select * into v_existing from public.orders where id = v_id;
  if found then
    if v_existing.secret_hash <> public.order_secret_hash(v_secret) then
      raise exception 'Order % already exists', v_id using errcode = '23505';
    end if;
    return jsonb_build_object('status', 'accepted', 'order', public.order_document(v_existing));
  end if;

  -- contact ----------------------------------------------------------------------------------------
  v_customer := p_order -> 'customer';
  if v_customer is null or jsonb_typeof(v_customer) <> 'object' then
    raise exception 'Customer details are required' using errcode = '22023';
  end if;
  v_email := lower(public.order_input_text(v_customer -> 'email', 'Email', 254));
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'Email must be a valid email address' using errcode = '22023';
  end if;
  v_first_name := public.order_input_text(v_customer -> 'firstName', 'First name', 100);
  v_last_name := public.order_input_text(v_customer -> 'lastName', 'Last name', 100);
  v_phone := public.order_input_text(v_customer -> 'phone', 'Phone number', 40);
  if length(regexp_replace(v_phone, '[^0-9]', '', 'g')) not between 7 and 15 then
    raise exception 'Phone number must have 7 to 15 digits' using errcode = '22023';
  end if;

  -- fulfilment and payment ---------------------------------------------------------------------------
  v_fulfilment := coalesce(public.order_input_text(p_order -> 'fulfilment', 'Fulfilment', 20, false), 'delivery');
  if v_fulfilment not in ('delivery', 'pickup') then
    raise exception 'Fulfilment must be delivery or pickup' using errcode = '22023';
  end if;
  v_method := coalesce(public.order_input_text(p_order -> 'deliveryMethod', 'Delivery method', 20, false), 'standard');
  if v_method not in ('standard', 'express') then
    raise exception 'Delivery method must be standard or express' using errcode = '22023';
  end if;
  if v_fulfilment = 'delivery' then
    v_shipping_address := public.order_input_address(p_order -> 'shippingAddress', 'Shipping address', true);
  end if;
  if jsonb_typeof(p_order -> 'billingAddress') = 'object' then
    v_billing_address := public.order_input_address(p_order -> 'billingAddress', 'Billing address', false);
  elsif p_order -> 'billingAddress' is not null and jsonb_typeof(p_order -> 'billingAddress') <> 'null' then
    raise exception 'Billing address must be an address or null' using errcode = '22023';
  end if;

  v_payment := public.order_input_text(p_order -> 'paymentMethod', 'Payment method', 10);
  if v_payment not in ('card', 'cash') then
    raise exception 'Payment method must be card or cash' using errcode = '22023';
  end if;
  v_last4 := public.order_input_text(p_order -> 'cardLast4', 'Card last four digits', 4, false);
  if v_last4 is not null and v_last4 !~ '^[0-9]{4}$' then
    raise exception 'Card last four digits must be exactly 4 digits' using errcode = '22023';
  end if;
  if v_payment = 'cash' then
    v_last4 := null;
  end if;

  -- items: merged per product, in the order first seen -------------------------------------------
  if jsonb_typeof(p_order -> 'items') is distinct from 'array' or jsonb_array_length(p_order -> 'items') = 0 then
    raise exception 'An order needs at least one item' using errcode = '22023';
  end if;
  if jsonb_array_length(p_order -> 'items') > 100 then
    raise exception 'An order can have at most 100 lines' using errcode = '22023';
  end if;
  for v_item in select value from jsonb_array_elements(p_order -> 'items') loop
    if jsonb_typeof(v_item) <> 'object' then
      raise exception 'Each item must be an object with productId and quantity' using errcode = '22023';
    end if;
    begin
      v_product_id := public.order_input_text(v_item -> 'productId', 'Item productId', 36)::uuid;
    exception when invalid_text_representation then
      raise exception 'Item productId must be a UUID' using errcode = '22023';
    end;
    if jsonb_typeof(v_item -> 'quantity') is distinct from 'number' then
      raise exception 'Item quantity must be a whole number from 1 to 999' using errcode = '22023';
    end if;
    v_quantity := (v_item ->> 'quantity')::numeric;
    if v_quantity <> trunc(v_quantity) or v_quantity not between 1 and 999 then
      raise exception 'Item quantity must be a whole number from 1 to 999' using errcode = '22023';
    end if;
    v_at := array_position(v_ids, v_product_id);
    if v_at is null then
      v_ids := v_ids || v_product_id;
      v_quantities := v_quantities || v_quantity::integer;
    else
      v_quantities[v_at] := v_quantities[v_at] + v_quantity::integer;
      if v_quantities[v_at] > 999 then
        raise exception 'Item quantity must be a whole number from 1 to 999' using errcode = '22023';
      end if;
    end if;
  end loop;

  -- Lock the products in id order (a fixed order, so two orders cannot deadlock) and keep them
  -- locked until commit: the stock read below is the stock taken.
  perform 1 from public.products where id = any (v_ids) order by id for update;

  for v_at in 1 .. array_length(v_ids, 1) loop
    select p.id, p.name, p.sku, p.price, p.quantity_available, p.is_unlimited_quantity,
           p.is_active, p._deleted, p.weight_grams, c.slug as category_slug
      into v_product
      from public.products p
      left join public.categories c on c.id = p.category_id
     where p.id = v_ids[v_at];
    v_name := coalesce(v_product.name, 'This product');
    if v_product.id is null or not v_product.is_active or v_product._deleted or v_product.price is null then
      v_reasons := v_reasons || jsonb_build_object('productId', v_ids[v_at], 'message', v_name || ' is no longer available');
      continue;
    end if;
    if not v_product.is_unlimited_quantity and coalesce(v_product.quantity_available, 0) = 0 then
      v_reasons := v_reasons || jsonb_build_object('productId', v_ids[v_at], 'message', v_name || ' is out of stock');
    elsif not v_product.is_unlimited_quantity and v_product.quantity_available < v_quantities[v_at] then
      v_reasons := v_reasons || jsonb_build_object(
        'productId', v_ids[v_at],
        'message', 'Only ' || v_product.quantity_available || ' left in stock!'
      );
    end if;
    -- Wholesale is sold to licensed retailers and is not counted (src/lib/purchase-limits.ts).
    if v_product.category_slug = 'flower' then
      v_flower := v_flower + coalesce(v_product.weight_grams, 0) * v_quantities[v_at];
    elsif v_product.category_slug = 'concentrates' then
      v_concentrate := v_concentrate + coalesce(v_product.weight_grams, 0) * v_quantities[v_at];
    end if;
    v_subtotal := v_subtotal + round(v_product.price * v_quantities[v_at], 2);
  end loop;

  v_flower := round(v_flower, 2);
  v_concentrate := round(v_concentrate, 2);
  if v_flower > 28.5 then
    v_reasons := v_reasons || jsonb_build_object(
      'productId', null,
      'message', 'California allows at most 28.5 g of flower per order; this order has ' || trim_scale(v_flower) || ' g.'
    );
  end if;
  if v_concentrate > 8 then
    v_reasons := v_reasons || jsonb_build_object(
      'productId', null,
      'message', 'California allows at most 8 g of concentrate per order; this order has ' || trim_scale(v_concentrate) || ' g.'
    );
  end if;

  if jsonb_array_length(v_reasons) > 0 then
    return jsonb_build_object('status', 'refused', 'reasons', v_reasons);
  end if;

  -- money (SPEC.md §9 with DESIGN.md §8: the price asked is charged) -----------------------------
  v_tax := round(v_subtotal * 0.08, 2);
  v_shipping := case
    when v_fulfilment = 'pickup' or v_subtotal <= 0 then 0
    when v_method = 'express' then 19.99
    when v_subtotal >= 50 then 0
    else 9.99
  end;
  v_total := round(v_subtotal + v_tax + v_shipping - v_discount, 2);

  insert into public.orders (
    id, secret_hash, status, customer_email, customer_first_name, customer_last_name,
    customer_phone, fulfilment, delivery_method, shipping_address, billing_address,
    payment_method, card_last4, subtotal, tax, shipping, discount, total, estimated_delivery,
    status_history
  ) values (
    v_id, public.order_secret_hash(v_secret), 'pending', v_email, v_first_name, v_last_name,
    v_phone, v_fulfilment, v_method, v_shipping_address, v_billing_address,
    v_payment, v_last4, v_subtotal, v_tax, v_shipping, v_discount, v_total,
    -- Express and pickup are same-day (order by 2 PM); standard is promised in 2-3 business days.
    case when v_fulfilment = 'delivery' and v_method = 'standard' then v_today + 3 else v_today end,
    jsonb_build_array(jsonb_build_object('status', 'pending', 'at', now(), 'by', null))
  )
  returning * into v_order;

  insert into public.order_items (
    order_id, line_number, product_id, product_name, sku, unit_price, quantity, line_total,
    weight_grams, category_slug, stock_decremented
  )
  select v_id, n, p.id, p.name, p.sku, p.price, q.quantity, round(p.price * q.quantity, 2),
         p.weight_grams, c.slug, not p.is_unlimited_quantity
    from unnest(v_ids, v_quantities) with ordinality as q (product_id, quantity, n)
    join public.products p on p.id = q.product_id
    left join public.categories c on c.id = p.category_id;

  update public.products p
     set quantity_available = p.quantity_available - q.quantity
    from unnest(v_ids, v_quantities) as q (product_id, quantity)
   where p.id = q.product_id
     and not p.is_unlimited_quantity;

  return jsonb_build_object('status', 'accepted', 'order', public.order_document(v_order));
end;
$$;

revoke execute on function public.place_order(jsonb) from public;
grant execute on function public.place_order(jsonb) to anon, authenticated, service_role;
