-- place_order for a lawful sale in California (issue 31; docs/decisions/051). The body of
-- 20261125100000_create_order_lifecycle.sql, plus:
-- - customerKind ('adult' or 'medical') and, for a medical order, an optional MMIC {number,
--   expiry}: valid on the order's day, the cannabis pays no sales tax; expired, the order is
--   refused with the reason;
-- - the taxes of compliance_rules in force today, each on its own line (orders.tax_lines), and
--   tax = their sum;
-- - the daily limits of the customer's kind across the same person's orders of the day, and no
--   sale of a unit above a limit;
-- - expectedTotal, the total the device showed: when the server's differs (the rules changed
--   meanwhile), the order is refused with the new total and nothing is taken.

-- A calendar day given as 'YYYY-MM-DD'.
create or replace function public.order_input_day(p_value jsonb, p_label text)
returns date
language plpgsql
immutable
set search_path = public
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string' or (p_value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}$' then
    raise exception '% must be a date (YYYY-MM-DD)', p_label using errcode = '22023';
  end if;
  return (p_value #>> '{}')::date;
exception
  when invalid_datetime_format or datetime_field_overflow then
    raise exception '% must be a date (YYYY-MM-DD)', p_label using errcode = '22023';
end;
$$;

revoke execute on function public.order_input_day(jsonb, text) from public, anon, authenticated;

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
  v_today date := public.shop_date();
  v_order public.orders;
  v_settings public.shop_settings;
  v_window jsonb;
  v_window_start timestamptz;
  v_window_end timestamptz;
  v_window_refusal text;
  v_kind text;
  v_mmic_number text;
  v_mmic_expiry date;
  v_exempt boolean := false;
  v_expected numeric;
  v_cannabis numeric(10, 2) := 0;
  v_other numeric(10, 2) := 0;
  v_class_limit numeric;
  v_flower_limit numeric;
  v_concentrate_limit numeric;
  v_oversize boolean := false;
  v_email_key text;
  v_phone_key text;
  v_taxes jsonb;
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
    return jsonb_build_object('status', 'accepted', 'order', public.order_shopper_document(v_existing));
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

  -- The pickup window the shopper chose; a delivery order has none (whatever the device sent).
  if v_fulfilment = 'pickup' then
    v_window := p_order -> 'pickupWindow';
    if jsonb_typeof(v_window) is distinct from 'object' then
      raise exception 'Pickup window must have a start and an end' using errcode = '22023';
    end if;
    v_window_start := public.order_input_instant(v_window -> 'start');
    v_window_end := public.order_input_instant(v_window -> 'end');
    if v_window_end <= v_window_start then
      raise exception 'Pickup window must have a start and an end' using errcode = '22023';
    end if;
  end if;

  -- Paid at pickup or on delivery, in cash or by debit card: nothing charges a card (decision
  -- 018), so an older device's 'card' is taken as debit at the door and its digits are dropped.
  v_payment := public.order_input_text(p_order -> 'paymentMethod', 'Payment method', 10);
  if v_payment not in ('card', 'cash', 'debit') then
    raise exception 'Payment method must be cash or debit' using errcode = '22023';
  end if;
  if v_payment = 'card' then
    v_payment := 'debit';
  end if;
  v_last4 := public.order_input_text(p_order -> 'cardLast4', 'Card last four digits', 4, false);
  if v_last4 is not null and v_last4 !~ '^[0-9]{4}$' then
    raise exception 'Card last four digits must be exactly 4 digits' using errcode = '22023';
  end if;
  v_last4 := null;

  -- adult use or medical, the MMIC, and the total the device showed -------------------------------
  v_kind := coalesce(public.order_input_text(p_order -> 'customerKind', 'Customer', 10, false), 'adult');
  if v_kind not in ('adult', 'medical') then
    raise exception 'Customer must be adult use or a medical patient' using errcode = '22023';
  end if;
  if jsonb_typeof(p_order -> 'mmic') = 'object' then
    if v_kind <> 'medical' then
      raise exception 'An MMIC can only be given for a medical patient''s order' using errcode = '22023';
    end if;
    v_mmic_number := upper(regexp_replace(
      public.order_input_text(p_order -> 'mmic' -> 'number', 'MMIC number', 40), '[^A-Za-z0-9]', '', 'g'));
    if v_mmic_number !~ '^[A-Z0-9]{4,20}$' then
      raise exception 'MMIC number must have 4 to 20 letters or digits' using errcode = '22023';
    end if;
    v_mmic_expiry := public.order_input_day(p_order -> 'mmic' -> 'expiry', 'MMIC expiry date');
  elsif p_order -> 'mmic' is not null and jsonb_typeof(p_order -> 'mmic') <> 'null' then
    raise exception 'MMIC must be a card number and an expiry date' using errcode = '22023';
  end if;
  v_exempt := v_mmic_expiry is not null and v_mmic_expiry >= v_today;
  if jsonb_typeof(p_order -> 'expectedTotal') = 'number' then
    v_expected := (p_order ->> 'expectedTotal')::numeric;
  elsif p_order -> 'expectedTotal' is not null and jsonb_typeof(p_order -> 'expectedTotal') <> 'null' then
    raise exception 'Expected total must be a number' using errcode = '22023';
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

  v_flower_limit := (public.compliance_rule_on(
    case when v_kind = 'medical' then 'limit_medical_flower_g' else 'limit_adult_flower_g' end, v_today)).value;
  v_concentrate_limit := (public.compliance_rule_on(
    case when v_kind = 'medical' then 'limit_medical_concentrate_g' else 'limit_adult_concentrate_g' end, v_today)).value;
  if v_mmic_expiry is not null and not v_exempt then
    v_reasons := v_reasons || jsonb_build_object('productId', null, 'message',
      'Your MMIC expired on ' || to_char(v_mmic_expiry, 'FMMonth FMDD, YYYY')
      || '. An expired card cannot exempt this order from sales tax: enter a valid card, or remove it to pay sales tax.');
  end if;

  for v_at in 1 .. array_length(v_ids, 1) loop
    select p.id, p.name, p.sku, p.price, p.quantity_available, p.is_unlimited_quantity,
           p.is_active, p._deleted, p.weight_grams, c.slug as category_slug,
           p.is_cannabis, p.limit_class,
           case when p.limit_class is not null then coalesce(p.limit_grams, p.weight_grams, 0) else 0 end as unit_grams
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
    -- Every order is a consumer's: a unit above the day's limit (a wholesale pound) is not sold
    -- at all, and the rest counts toward the limits (docs/decisions/051).
    if v_product.limit_class is not null then
      v_class_limit := case when v_product.limit_class = 'flower' then v_flower_limit else v_concentrate_limit end;
      if v_class_limit is not null and v_product.unit_grams > v_class_limit then
        v_oversize := true;
        v_reasons := v_reasons || jsonb_build_object('productId', v_ids[v_at], 'message',
          v_name || ' cannot be sold to a consumer: one unit holds ' || trim_scale(v_product.unit_grams)
          || ' g of ' || v_product.limit_class || ', more than the ' || trim_scale(v_class_limit)
          || ' g one customer may buy in a day.');
      elsif v_product.limit_class = 'flower' then
        v_flower := v_flower + v_product.unit_grams * v_quantities[v_at];
      else
        v_concentrate := v_concentrate + v_product.unit_grams * v_quantities[v_at];
      end if;
    end if;
    if v_product.is_cannabis then
      v_cannabis := v_cannabis + round(v_product.price * v_quantities[v_at], 2);
    else
      v_other := v_other + round(v_product.price * v_quantities[v_at], 2);
    end if;
    v_subtotal := v_subtotal + round(v_product.price * v_quantities[v_at], 2);
  end loop;

  v_flower := round(v_flower, 3);
  v_concentrate := round(v_concentrate, 3);
  -- Today's limits count the same person's other orders (4 CCR §15409). Two orders of one person
  -- at once take turns here, so both cannot pass the same remaining grams.
  v_email_key := public.person_email_key(v_email);
  v_phone_key := public.person_phone_key(v_phone);
  if not v_oversize and (v_flower > 0 or v_concentrate > 0) then
    perform pg_advisory_xact_lock(hashtextextended('humo.person:email:' || v_email_key, 0));
    if v_phone_key is not null then
      perform pg_advisory_xact_lock(hashtextextended('humo.person:phone:' || v_phone_key, 0));
    end if;
    v_reasons := v_reasons || public.daily_limit_refusals(v_today, v_kind, v_flower, v_concentrate,
      public.person_grams_on(v_today, v_email_key, v_phone_key, null, v_id));
  end if;

  if v_window_start is not null then
    v_window_refusal := public.pickup_window_refusal(v_window_start, v_window_end);
    if v_window_refusal is not null then
      v_reasons := v_reasons || jsonb_build_object('productId', null, 'message', v_window_refusal);
    end if;
  end if;

  if jsonb_array_length(v_reasons) > 0 then
    return jsonb_build_object('status', 'refused', 'reasons', v_reasons);
  end if;

  -- money (SPEC.md §9 with DESIGN.md §8: the price asked is charged) -----------------------------
  -- The rates of shop_settings (Admin Settings), as committed when this order is priced.
  select * into v_settings from public.shop_settings where id = 'shop';
  if not found then
    raise exception 'The shop settings are missing' using errcode = 'P0001';
  end if;
  v_shipping := case
    when v_fulfilment = 'pickup' or v_subtotal <= 0 then 0
    when v_method = 'express' then v_settings.express_delivery
    when v_subtotal >= v_settings.free_shipping_threshold then 0
    else v_settings.standard_shipping
  end;
  -- California's taxes in force today (compliance_rules), CDTFA's order of computation.
  v_taxes := public.order_taxes_on(v_today, v_kind, v_cannabis, v_other, v_shipping, v_exempt);
  v_tax := (v_taxes ->> 'local')::numeric + (v_taxes ->> 'excise')::numeric + (v_taxes ->> 'sales')::numeric;
  v_total := round(v_subtotal + v_tax + v_shipping - v_discount, 2);
  -- The device priced the order with the rules it had; when they changed meanwhile, nothing is
  -- final until the shopper has seen the new total.
  if v_expected is not null and v_expected <> v_total then
    return jsonb_build_object('status', 'refused', 'reasons', jsonb_build_array(jsonb_build_object(
      'productId', null,
      'code', 'total_changed',
      'total', v_total,
      'message', 'The taxes changed since your cart was priced: this order now comes to $'
        || to_char(v_total, 'FM999999990.00') || ' instead of $' || to_char(v_expected, 'FM999999990.00')
        || '. Check the new total and place the order again.'
    )));
  end if;

  insert into public.orders (
    id, secret_hash, status, customer_email, customer_first_name, customer_last_name,
    customer_phone, fulfilment, delivery_method, shipping_address, billing_address,
    payment_method, card_last4, subtotal, tax, shipping, discount, total, estimated_delivery,
    status_history, pickup_window_start, pickup_window_end,
    customer_kind, mmic_number, mmic_expiry, sales_tax_exempt, tax_lines, local_tax, excise_tax,
    sales_tax, excise_base, sales_base, sale_day, email_key, phone_key, flower_grams, concentrate_grams
  ) values (
    v_id, public.order_secret_hash(v_secret), 'pending', v_email, v_first_name, v_last_name,
    v_phone, v_fulfilment, v_method, v_shipping_address, v_billing_address,
    v_payment, v_last4, v_subtotal, v_tax, v_shipping, v_discount, v_total,
    -- Express and pickup are same-day (order by 2 PM); standard is promised in 2-3 business days.
    case when v_fulfilment = 'delivery' and v_method = 'standard' then v_today + 3 else v_today end,
    jsonb_build_array(jsonb_build_object('status', 'pending', 'at', now(), 'by', null)),
    v_window_start, v_window_end,
    v_kind, v_mmic_number, v_mmic_expiry, v_exempt, v_taxes -> 'lines', (v_taxes ->> 'local')::numeric,
    (v_taxes ->> 'excise')::numeric, (v_taxes ->> 'sales')::numeric, (v_taxes ->> 'exciseBase')::numeric,
    (v_taxes ->> 'salesBase')::numeric, v_today, v_email_key, v_phone_key, v_flower, v_concentrate
  )
  returning * into v_order;

  insert into public.order_items (
    order_id, line_number, product_id, product_name, sku, unit_price, quantity, line_total,
    weight_grams, category_slug, stock_decremented, is_cannabis, limit_class, limit_grams
  )
  select v_id, n, p.id, p.name, p.sku, p.price, q.quantity, round(p.price * q.quantity, 2),
         p.weight_grams, c.slug, not p.is_unlimited_quantity, p.is_cannabis, p.limit_class,
         case when p.limit_class is not null then coalesce(p.limit_grams, p.weight_grams, 0) end
    from unnest(v_ids, v_quantities) with ordinality as q (product_id, quantity, n)
    join public.products p on p.id = q.product_id
    left join public.categories c on c.id = p.category_id;

  update public.products p
     set quantity_available = p.quantity_available - q.quantity
    from unnest(v_ids, v_quantities) as q (product_id, quantity)
   where p.id = q.product_id
     and not p.is_unlimited_quantity;

  return jsonb_build_object('status', 'accepted', 'order', public.order_shopper_document(v_order));
end;
$$;

revoke execute on function public.place_order(jsonb) from public;
grant execute on function public.place_order(jsonb) to anon, authenticated, service_role;
