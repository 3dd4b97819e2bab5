-- The order after checkout (issue 22, decision 018): pickup windows inside the shop's opening
-- hours, payment at the counter or the door, the shopper's view of an order with its live
-- Realtime topic, the ID check at handoff, and Track Order from another device.
--
-- On hosted Supabase realtime.messages, realtime.topic() and realtime.send() are Supabase's own;
-- the stand-in's supabase/local/db/bootstrap.sql emulates them with the same names and shapes.

-- shop_settings: the weekly hours as data ----------------------------------------------------------
-- Seven entries, Sunday first (as Date#getDay and extract(dow)), each null (closed all day) or
-- {"open": "HH:MM", "close": "HH:MM"} in America/Los_Angeles; "24:00" closes at midnight. The
-- same rules as src/lib/shop-hours.ts's isValidDay, as a CHECK so an admin's plain PATCH past
-- admin_save_shop_settings cannot store hours place_order would misread.
create or replace function public.shop_opening_hours_valid(p_hours jsonb)
returns boolean
language sql
immutable
set search_path = public
as $$
  select case
    when p_hours is null or jsonb_typeof(p_hours) <> 'array' then false
    when jsonb_array_length(p_hours) <> 7 then false
    else not exists (
      select 1
        from jsonb_array_elements(p_hours) as d (day)
       where not case
         when jsonb_typeof(d.day) = 'null' then true
         when jsonb_typeof(d.day) <> 'object' then false
         when d.day - 'open' - 'close' <> '{}'::jsonb then false
         when jsonb_typeof(d.day -> 'open') is distinct from 'string'
           or jsonb_typeof(d.day -> 'close') is distinct from 'string' then false
         else (d.day ->> 'open') ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
          and (d.day ->> 'close') ~ '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$'
          -- Zero-padded HH:MM compares as text in time order.
          and (d.day ->> 'open') < (d.day ->> 'close')
       end
    )
  end
$$;

-- Callable by everyone: a CHECK runs its function as the writer (an admin's PATCH).
revoke execute on function public.shop_opening_hours_valid(jsonb) from public;
grant execute on function public.shop_opening_hours_valid(jsonb) to anon, authenticated, service_role;

alter table public.shop_settings
  -- SPEC.md §2: Mon-Fri 9:00 AM-8:00 PM, Sat 10:00 AM-6:00 PM, Sun 11:00 AM-5:00 PM.
  add column opening_hours jsonb not null default '[
      {"open": "11:00", "close": "17:00"},
      {"open": "09:00", "close": "20:00"},
      {"open": "09:00", "close": "20:00"},
      {"open": "09:00", "close": "20:00"},
      {"open": "09:00", "close": "20:00"},
      {"open": "09:00", "close": "20:00"},
      {"open": "10:00", "close": "18:00"}
    ]'::jsonb
    constraint shop_settings_opening_hours_valid check (public.shop_opening_hours_valid(opening_hours)),
  -- The earliest pickup window starts at least this long after the order is placed.
  add column pickup_prep_minutes integer not null default 30
    constraint shop_settings_pickup_prep_minutes_range check (pickup_prep_minutes between 0 and 720),
  add column pickup_slot_minutes integer not null default 30
    constraint shop_settings_pickup_slot_minutes_choice check (pickup_slot_minutes in (15, 20, 30, 45, 60, 90, 120)),
  -- Set by the server at start: true when it has an SMTP server to send order emails through,
  -- so no screen promises an email the shop cannot send.
  add column order_emails boolean not null default false;

create or replace function public.shop_settings_document(p_row public.shop_settings)
returns jsonb
language sql
stable
set search_path = public
as $$
  select jsonb_build_object(
    'id', p_row.id,
    'tax_rate', p_row.tax_rate,
    'standard_shipping', p_row.standard_shipping,
    'express_delivery', p_row.express_delivery,
    'free_shipping_threshold', p_row.free_shipping_threshold,
    'facts', p_row.facts,
    'opening_hours', p_row.opening_hours,
    'pickup_prep_minutes', p_row.pickup_prep_minutes,
    'pickup_slot_minutes', p_row.pickup_slot_minutes,
    'order_emails', p_row.order_emails,
    'updated_at', p_row.updated_at,
    '_modified', to_char(p_row._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    '_deleted', p_row._deleted
  )
$$;

revoke execute on function public.shop_settings_document(public.shop_settings) from public, anon, authenticated;

-- Input helper for admin_save_shop_settings: openingHours as the form sends it (seven entries,
-- Sunday first, each null or {open, close}), checked day by day with a message naming the day.
create or replace function public.shop_settings_opening_hours(p_value jsonb)
returns jsonb
language plpgsql
immutable
set search_path = public
as $$
declare
  v_days constant text[] := array['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  v_day jsonb;
  v_open text;
  v_close text;
  v_hours jsonb := '[]'::jsonb;
begin
  if jsonb_typeof(p_value) is distinct from 'array' or jsonb_array_length(p_value) <> 7 then
    raise exception 'Opening hours need 7 days, Sunday first' using errcode = '22023';
  end if;
  for i in 0 .. 6 loop
    v_day := p_value -> i;
    if jsonb_typeof(v_day) = 'null' then
      v_hours := v_hours || jsonb_build_array(null::jsonb);
      continue;
    end if;
    if jsonb_typeof(v_day) <> 'object' then
      raise exception 'On % the shop needs an opening and a closing time, or to be closed', v_days[i + 1]
        using errcode = '22023';
    end if;
    if jsonb_typeof(v_day -> 'open') is distinct from 'string'
       or jsonb_typeof(v_day -> 'close') is distinct from 'string' then
      raise exception 'On % the shop needs an opening and a closing time, or to be closed', v_days[i + 1]
        using errcode = '22023';
    end if;
    v_open := trim(v_day ->> 'open');
    v_close := trim(v_day ->> 'close');
    if v_open !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' or v_close !~ '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$' then
      raise exception 'Times must be HH:MM, like 09:00' using errcode = '22023';
    end if;
    if v_open >= v_close then
      raise exception 'On % the shop must open before it closes', v_days[i + 1] using errcode = '22023';
    end if;
    v_hours := v_hours || jsonb_build_array(jsonb_build_object('open', v_open, 'close', v_close));
  end loop;
  return v_hours;
end;
$$;

revoke execute on function public.shop_settings_opening_hours(jsonb) from public, anon, authenticated;

-- admin_save_shop_settings gains the optional openingHours, pickupPrepMinutes and
-- pickupSlotMinutes (a key left out keeps the stored value, so an older admin device's save does
-- not wipe them). The rest is the body of 20261122202800_create_shop_settings.sql.
create or replace function public.admin_save_shop_settings(p_settings jsonb)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_facts jsonb;
  v_in jsonb;
  v_hours jsonb := '[]'::jsonb;
  v_item jsonb;
  v_email text;
  v_phone text;
  v_text_phone text;
  v_zip text;
  v_state text;
  v_row public.shop_settings;
  v_opening_hours jsonb;
  v_prep integer;
  v_slot integer;
begin
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p_settings is null or jsonb_typeof(p_settings) <> 'object' then
    raise exception 'The settings must be a JSON object' using errcode = '22023';
  end if;
  v_in := p_settings -> 'facts';
  if v_in is null or jsonb_typeof(v_in) <> 'object' then
    raise exception 'Shop facts are required' using errcode = '22023';
  end if;

  v_email := lower(public.shop_settings_text(v_in -> 'email', 'Email', 254));
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'Email must be a valid email address' using errcode = '22023';
  end if;
  v_phone := public.shop_settings_text(v_in #> '{phone,e164}', 'Phone number', 16);
  if v_phone !~ '^\+[1-9][0-9]{6,14}$' then
    raise exception 'Phone number must be a valid phone number' using errcode = '22023';
  end if;
  v_text_phone := public.shop_settings_text(v_in #> '{textUpdates,e164}', 'Text updates number', 16);
  if v_text_phone !~ '^\+[1-9][0-9]{6,14}$' then
    raise exception 'Text updates number must be a valid phone number' using errcode = '22023';
  end if;
  v_state := upper(public.shop_settings_text(v_in #> '{address,state}', 'State', 2));
  if v_state !~ '^[A-Z]{2}$' then
    raise exception 'State must be a two-letter state code' using errcode = '22023';
  end if;
  v_zip := public.shop_settings_text(v_in #> '{address,zip}', 'ZIP code', 10);
  if v_zip !~ '^[0-9]{5}(-[0-9]{4})?$' then
    raise exception 'ZIP code must be 5 digits' using errcode = '22023';
  end if;
  if jsonb_typeof(v_in -> 'hours') is distinct from 'array' or jsonb_array_length(v_in -> 'hours') = 0 then
    raise exception 'Add at least one line of opening hours' using errcode = '22023';
  end if;
  if jsonb_array_length(v_in -> 'hours') > 7 then
    raise exception 'At most 7 lines of opening hours' using errcode = '22023';
  end if;
  for v_item in select value from jsonb_array_elements(v_in -> 'hours') loop
    if jsonb_typeof(v_item) <> 'object' then
      raise exception 'Each line of opening hours needs days and hours' using errcode = '22023';
    end if;
    v_hours := v_hours || jsonb_build_object(
      'days', public.shop_settings_text(v_item -> 'days', 'Days', 40),
      'hours', public.shop_settings_text(v_item -> 'hours', 'Hours', 60)
    );
  end loop;

  v_facts := jsonb_build_object(
    'name', public.shop_settings_text(v_in -> 'name', 'Shop name', 60),
    'slogan', public.shop_settings_text(v_in -> 'slogan', 'Slogan', 120),
    'licenceNumber', public.shop_settings_text(v_in -> 'licenceNumber', 'Licence number', 40),
    'phone', jsonb_build_object(
      'display', public.shop_settings_text(v_in #> '{phone,display}', 'Phone number', 30),
      'e164', v_phone),
    'textUpdates', jsonb_build_object(
      'display', public.shop_settings_text(v_in #> '{textUpdates,display}', 'Text updates number', 30),
      'e164', v_text_phone,
      'keyword', upper(public.shop_settings_text(v_in #> '{textUpdates,keyword}', 'Text keyword', 20))),
    'email', v_email,
    'address', jsonb_build_object(
      'street', public.shop_settings_text(v_in #> '{address,street}', 'Street', 120),
      'city', public.shop_settings_text(v_in #> '{address,city}', 'City', 80),
      'state', v_state,
      'zip', v_zip,
      'country', public.shop_settings_text(v_in #> '{address,country}', 'Country', 60)),
    'deliveryArea', public.shop_settings_text(v_in -> 'deliveryArea', 'Delivery area', 200),
    'hours', v_hours
  );

  if p_settings ? 'openingHours' and jsonb_typeof(p_settings -> 'openingHours') <> 'null' then
    v_opening_hours := public.shop_settings_opening_hours(p_settings -> 'openingHours');
  end if;
  if p_settings ? 'pickupPrepMinutes' and jsonb_typeof(p_settings -> 'pickupPrepMinutes') <> 'null' then
    if jsonb_typeof(p_settings -> 'pickupPrepMinutes') <> 'number'
       or (p_settings ->> 'pickupPrepMinutes')::numeric not between 0 and 720 then
      raise exception 'Preparation time must be between 0 and 720 minutes' using errcode = '22023';
    end if;
    if (p_settings ->> 'pickupPrepMinutes')::numeric <> trunc((p_settings ->> 'pickupPrepMinutes')::numeric) then
      raise exception 'Preparation time must be a whole number of minutes' using errcode = '22023';
    end if;
    v_prep := (p_settings ->> 'pickupPrepMinutes')::integer;
  end if;
  if p_settings ? 'pickupSlotMinutes' and jsonb_typeof(p_settings -> 'pickupSlotMinutes') <> 'null' then
    if jsonb_typeof(p_settings -> 'pickupSlotMinutes') <> 'number'
       or (p_settings ->> 'pickupSlotMinutes')::numeric not in (15, 20, 30, 45, 60, 90, 120) then
      raise exception 'Pickup window length must be 15, 20, 30, 45, 60, 90 or 120 minutes' using errcode = '22023';
    end if;
    v_slot := (p_settings ->> 'pickupSlotMinutes')::integer;
  end if;

  update public.shop_settings
     set tax_rate = public.shop_settings_amount(p_settings -> 'taxRate', 'Tax rate', 0, 0.25,
                      'Tax rate must be between 0% and 25%'),
         standard_shipping = round(public.shop_settings_amount(p_settings -> 'standardShipping',
                      'Standard delivery fee', 0, 1000, 'Standard delivery fee must be between $0 and $1000'), 2),
         express_delivery = round(public.shop_settings_amount(p_settings -> 'expressDelivery',
                      'Express delivery fee', 0, 1000, 'Express delivery fee must be between $0 and $1000'), 2),
         free_shipping_threshold = round(public.shop_settings_amount(p_settings -> 'freeShippingThreshold',
                      'Free delivery threshold', 0, 100000, 'Free delivery threshold must be between $0 and $100000'), 2),
         facts = v_facts,
         opening_hours = coalesce(v_opening_hours, opening_hours),
         pickup_prep_minutes = coalesce(v_prep, pickup_prep_minutes),
         pickup_slot_minutes = coalesce(v_slot, pickup_slot_minutes),
         updated_by = auth.uid()
   where id = 'shop'
  returning * into v_row;
  return public.shop_settings_document(v_row);
end;
$$;

revoke execute on function public.admin_save_shop_settings(jsonb) from public;
grant execute on function public.admin_save_shop_settings(jsonb) to authenticated, service_role;

-- orders: the pickup window, and payment at the counter or the door -------------------------------
-- Nothing charges a card (decision 018): an order is paid in cash or by debit card at pickup or
-- on delivery. 'card' stays allowed for the rows placed before this migration.
alter table public.orders
  drop constraint orders_payment_method_check,
  add constraint orders_payment_method_check check (payment_method in ('cash', 'debit', 'card')),
  add column pickup_window_start timestamptz,
  add column pickup_window_end timestamptz,
  add constraint orders_pickup_window_check check (
    (pickup_window_start is null) = (pickup_window_end is null)
    and (pickup_window_start is null or (fulfilment = 'pickup' and pickup_window_end > pickup_window_start))
  );

-- Track Order finds an order by the first 8 hex digits of its id (the "#XXXXXXXX" people see),
-- and a Realtime join checks its topic against secret_hash.
create index orders_number_idx on public.orders (left(id::text, 8));
create index orders_secret_hash_idx on public.orders (secret_hash);

-- An instant as JavaScript's toISOString writes it ("2026-11-25T21:00:00.000Z").
create or replace function public.iso_instant(p_at timestamptz)
returns text
language sql
immutable
set search_path = public
as $$
  select to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

revoke execute on function public.iso_instant(timestamptz) from public, anon, authenticated;

-- order_document gains pickupWindow; everything else is 20261122201400_create_order_document.sql.
create or replace function public.order_document(o public.orders)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select jsonb_build_object(
    'id', o.id,
    'status', o.status,
    'customer', jsonb_build_object(
      'email', o.customer_email,
      'firstName', o.customer_first_name,
      'lastName', o.customer_last_name,
      'phone', o.customer_phone
    ),
    'customerName', o.customer_first_name || ' ' || o.customer_last_name,
    'customerEmail', o.customer_email,
    'fulfilment', o.fulfilment,
    'deliveryMethod', o.delivery_method,
    'shippingAddress', o.shipping_address,
    'billingAddress', o.billing_address,
    'paymentMethod', o.payment_method,
    'cardLast4', o.card_last4,
    'pickupWindow', case when o.pickup_window_start is not null then jsonb_build_object(
      'start', public.iso_instant(o.pickup_window_start),
      'end', public.iso_instant(o.pickup_window_end)
    ) end,
    'subtotal', o.subtotal,
    'tax', o.tax,
    'shipping', o.shipping,
    'discount', o.discount,
    'total', o.total,
    'trackingNumber', o.tracking_number,
    'estimatedDelivery', o.estimated_delivery,
    'statusHistory', o.status_history,
    'createdAt', o.created_at,
    'updatedAt', o.updated_at,
    'items', coalesce((
      select jsonb_agg(
        jsonb_build_object(
          'id', i.id,
          'productId', i.product_id,
          'name', i.product_name,
          'sku', i.sku,
          'unitPrice', i.unit_price,
          'quantity', i.quantity,
          'lineTotal', i.line_total,
          'weightGrams', i.weight_grams,
          'categorySlug', i.category_slug
        )
        order by i.line_number, i.id
      )
      from public.order_items i
      where i.order_id = o.id and not i._deleted
    ), '[]'::jsonb)
  )
$$;

revoke execute on function public.order_document(public.orders) from public, anon, authenticated;

-- The status history as a shopper may see it: status, time and the ID check, never which staff
-- member made the change.
create or replace function public.order_shopper_history(p_history jsonb)
returns jsonb
language sql
immutable
set search_path = public
as $$
  select coalesce(
    jsonb_agg(
      jsonb_strip_nulls(jsonb_build_object(
        'status', e.entry -> 'status',
        'at', e.entry -> 'at',
        'idChecked', e.entry -> 'idChecked'
      ))
      order by e.n
    ),
    '[]'::jsonb
  )
  from jsonb_array_elements(case when jsonb_typeof(p_history) = 'array' then p_history else '[]'::jsonb end)
    with ordinality as e (entry, n)
$$;

revoke execute on function public.order_shopper_history(jsonb) from public, anon, authenticated;

-- The order as its shopper reads it (get_order, get_orders, place_order, track_order): the order
-- document with the shopper's history, plus the private Realtime topic its status changes are
-- broadcast on. Internal: it does not check who asks.
create or replace function public.order_shopper_document(o public.orders)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.order_document(o) || jsonb_build_object(
    'statusHistory', public.order_shopper_history(o.status_history),
    'channel', 'order:' || o.secret_hash
  )
$$;

revoke execute on function public.order_shopper_document(public.orders) from public, anon, authenticated;

-- Input helper for place_order: a pickup window's instant, ISO 8601 with a time zone or Z (the
-- cast alone would also take 'now', 'tomorrow' or 'infinity').
create or replace function public.order_input_instant(p_value jsonb)
returns timestamptz
language plpgsql
stable
set search_path = public
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string'
     or length(p_value #>> '{}') > 40
     or (p_value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)$' then
    raise exception 'Pickup window must have a start and an end' using errcode = '22023';
  end if;
  return (p_value #>> '{}')::timestamptz;
exception
  when invalid_datetime_format or datetime_field_overflow or invalid_time_zone_displacement_value then
    raise exception 'Pickup window must have a start and an end' using errcode = '22023';
end;
$$;

revoke execute on function public.order_input_instant(jsonb) from public, anon, authenticated;

-- Why the shop cannot honour a well-formed pickup window, or null when it can: ended already,
-- more than 7 days ahead, or not inside one day's opening hours in the shop's time zone (the
-- rule of src/lib/shop-hours.ts isWithinHours).
create or replace function public.pickup_window_refusal(p_start timestamptz, p_end timestamptz)
returns text
language plpgsql
stable
set search_path = public
as $$
declare
  v_local_start timestamp := p_start at time zone 'America/Los_Angeles';
  v_local_end timestamp := p_end at time zone 'America/Los_Angeles';
  v_day date := (p_start at time zone 'America/Los_Angeles')::date;
  v_hours jsonb;
begin
  if p_end <= now() then
    return 'That pickup window has passed. Please choose another pickup time.';
  end if;
  if p_start > now() + interval '7 days' then
    return 'Pickup can be booked at most 7 days ahead.';
  end if;
  select s.opening_hours -> extract(dow from v_day)::integer into v_hours
    from public.shop_settings s where s.id = 'shop';
  if jsonb_typeof(v_hours) is distinct from 'object'
     or v_local_start < v_day + (v_hours ->> 'open')::interval
     or v_local_end > v_day + (v_hours ->> 'close')::interval then
    return 'The shop is not open for pickup at that time. Please choose another pickup time.';
  end if;
  return null;
end;
$$;

revoke execute on function public.pickup_window_refusal(timestamptz, timestamptz) from public, anon, authenticated;

-- place_order: the body of 20261122202800_create_shop_settings.sql, plus the pickup window
-- (required for pickup, refused when the shop cannot honour it), payment by cash or debit at the
-- counter or the door (an older device's 'card' becomes 'debit' and no card digits are kept),
-- and the shopper's document in its answers.
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
  v_settings public.shop_settings;
  v_window jsonb;
  v_window_start timestamptz;
  v_window_end timestamptz;
  v_window_refusal text;
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
  v_tax := round(v_subtotal * v_settings.tax_rate, 2);
  v_shipping := case
    when v_fulfilment = 'pickup' or v_subtotal <= 0 then 0
    when v_method = 'express' then v_settings.express_delivery
    when v_subtotal >= v_settings.free_shipping_threshold then 0
    else v_settings.standard_shipping
  end;
  v_total := round(v_subtotal + v_tax + v_shipping - v_discount, 2);

  insert into public.orders (
    id, secret_hash, status, customer_email, customer_first_name, customer_last_name,
    customer_phone, fulfilment, delivery_method, shipping_address, billing_address,
    payment_method, card_last4, subtotal, tax, shipping, discount, total, estimated_delivery,
    status_history, pickup_window_start, pickup_window_end
  ) values (
    v_id, public.order_secret_hash(v_secret), 'pending', v_email, v_first_name, v_last_name,
    v_phone, v_fulfilment, v_method, v_shipping_address, v_billing_address,
    v_payment, v_last4, v_subtotal, v_tax, v_shipping, v_discount, v_total,
    -- Express and pickup are same-day (order by 2 PM); standard is promised in 2-3 business days.
    case when v_fulfilment = 'delivery' and v_method = 'standard' then v_today + 3 else v_today end,
    jsonb_build_array(jsonb_build_object('status', 'pending', 'at', now(), 'by', null)),
    v_window_start, v_window_end
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

  return jsonb_build_object('status', 'accepted', 'order', public.order_shopper_document(v_order));
end;
$$;

revoke execute on function public.place_order(jsonb) from public;
grant execute on function public.place_order(jsonb) to anon, authenticated, service_role;

-- get_order / get_orders answer with the shopper's document; otherwise as in
-- 20261122201600_create_get_order.sql.
create or replace function public.get_order(p_id uuid, p_secret text)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select public.order_shopper_document(o)
  from public.orders o
  where o.id = p_id
    and p_secret is not null
    and o.secret_hash = public.order_secret_hash(p_secret)
    and not o._deleted
$$;

revoke execute on function public.get_order(uuid, text) from public;
grant execute on function public.get_order(uuid, text) to anon, authenticated, service_role;

create or replace function public.get_orders(p_refs jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = public
as $$
declare
  v_ids uuid[] := '{}';
  v_hashes text[] := '{}';
  v_ref jsonb;
begin
  if p_refs is null or jsonb_typeof(p_refs) <> 'array' then
    raise exception 'p_refs must be an array of {id, secret}' using errcode = '22023';
  end if;
  if jsonb_array_length(p_refs) > 200 then
    raise exception 'At most 200 orders can be read at once' using errcode = '22023';
  end if;
  for v_ref in select value from jsonb_array_elements(p_refs) loop
    if jsonb_typeof(v_ref) = 'object'
       and jsonb_typeof(v_ref -> 'id') = 'string'
       and jsonb_typeof(v_ref -> 'secret') = 'string'
       and (v_ref ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      v_ids := v_ids || (v_ref ->> 'id')::uuid;
      v_hashes := v_hashes || public.order_secret_hash(v_ref ->> 'secret');
    end if;
  end loop;
  return coalesce((
    select jsonb_agg(public.order_shopper_document(o) order by o.created_at desc, o.id)
    from public.orders o
    join unnest(v_ids, v_hashes) as r (id, secret_hash)
      on r.id = o.id and r.secret_hash = o.secret_hash
    where not o._deleted
  ), '[]'::jsonb);
end;
$$;

revoke execute on function public.get_orders(jsonb) from public;
grant execute on function public.get_orders(jsonb) to anon, authenticated, service_role;

-- ID check at handoff (B&P §26140) -----------------------------------------------------------------
-- The status trigger of 20261122201200_create_orders.sql, plus: a change to 'delivered' ("Picked
-- up" / "Delivered") goes through only when set_order_status confirmed the buyer's ID for it
-- (humo.id_checked, set for that one update), so an admin's PATCH through the REST API or an old
-- client cannot skip the check; the history entry of a handoff says so (idChecked: true).
create or replace function public.on_order_status_change()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  v_entry jsonb;
begin
  if new.status is distinct from old.status then
    v_entry := jsonb_build_object('status', new.status, 'at', clock_timestamp(), 'by', auth.email());
    if new.status = 'delivered' then
      if coalesce(current_setting('humo.id_checked', true), '') <> 'on' then
        raise exception 'Confirm "ID checked (21+)" before handing over the order.' using errcode = 'P0001';
      end if;
      v_entry := v_entry || jsonb_build_object('idChecked', true);
    end if;
    new.status_history := coalesce(old.status_history, '[]'::jsonb) || jsonb_build_array(v_entry);
    if new.status = 'cancelled' and not old.stock_restored then
      -- Only lines whose stock place_order actually took (unlimited items took none).
      update public.products p
         set quantity_available = coalesce(p.quantity_available, 0) + i.quantity
        from public.order_items i
       where i.order_id = new.id
         and i.stock_decremented
         and p.id = i.product_id;
      new.stock_restored := true;
    end if;
  end if;
  return new;
end;
$$;

revoke execute on function public.on_order_status_change() from public, anon, authenticated;

-- set_order_status gains p_id_checked: decision 004's compare-and-set as before, and a move to
-- 'delivered' without the staff member's "ID checked (21+)" changes nothing and says why, so an
-- old offline client's push is reported as a conflict instead of retried forever. A 3-argument
-- call (an older device) resolves to this one with p_id_checked false.
drop function public.set_order_status(uuid, text, text);

create or replace function public.set_order_status(
  p_id uuid,
  p_from text,
  p_to text,
  p_id_checked boolean default false
)
returns jsonb
language plpgsql
security definer
set search_path = public
as $$
declare
  v_order public.orders;
begin
  -- The service role stands for the shop's own server-side jobs (and the seed).
  if not (public.is_admin() or auth.role() = 'service_role') then
    raise exception 'Admin privileges required' using errcode = '42501';
  end if;
  if p_to is null or p_to not in ('pending', 'processing', 'shipped', 'delivered', 'cancelled') then
    raise exception 'Unknown order status: %', coalesce(p_to, 'null') using errcode = '22023';
  end if;

  select * into v_order from public.orders where id = p_id and not _deleted for update;
  if not found then
    raise exception 'Order % not found', p_id using errcode = '22023';
  end if;

  if v_order.status is distinct from p_from then
    return jsonb_build_object('applied', false, 'order', public.order_document(v_order) || jsonb_build_object(
      '_modified', to_char(v_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      '_deleted', false));
  end if;
  if p_to <> v_order.status then
    if p_to = 'delivered' and p_id_checked is not true then
      return jsonb_build_object(
        'applied', false,
        'reason', 'id_check_required',
        'message', 'Confirm "ID checked (21+)" before handing over the order.',
        'order', public.order_document(v_order) || jsonb_build_object(
          '_modified', to_char(v_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          '_deleted', false));
    end if;
    -- For this one update only: the status trigger checks it and records the ID check.
    perform set_config('humo.id_checked', case when p_to = 'delivered' then 'on' else '' end, true);
    update public.orders set status = p_to where id = p_id returning * into v_order;
    perform set_config('humo.id_checked', '', true);
  end if;
  return jsonb_build_object('applied', true, 'order', public.order_document(v_order) || jsonb_build_object(
    '_modified', to_char(v_order._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    '_deleted', false));
end;
$$;

revoke execute on function public.set_order_status(uuid, text, text, boolean) from public, anon;
grant execute on function public.set_order_status(uuid, text, text, boolean) to authenticated, service_role;

-- Live status for a shopper with no account (DESIGN.md §10) --------------------------------------
-- Every order has a private Realtime broadcast topic, 'order:' || secret_hash: only the device
-- that placed it (which knows the secret) or a Track Order match learns it. A new order and each
-- status change are broadcast on it, with the shopper's history (never staff emails).
create or replace function public.broadcast_order_status()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  if tg_op = 'UPDATE' and new.status is not distinct from old.status then
    return null;
  end if;
  if new._deleted then
    return null;
  end if;
  perform realtime.send(
    jsonb_build_object(
      'id', new.id,
      'status', new.status,
      'fulfilment', new.fulfilment,
      'statusHistory', public.order_shopper_history(new.status_history),
      'updatedAt', new.updated_at
    ),
    'status',
    'order:' || new.secret_hash,
    true
  );
  return null;
end;
$$;

revoke execute on function public.broadcast_order_status() from public, anon, authenticated;

create trigger orders_broadcast_status
  after insert or update of status on public.orders
  for each row execute function public.broadcast_order_status();

-- Whether a Realtime topic names a live order. security definer: the caller (anon) cannot read
-- orders; it learns only whether the topic it already holds exists.
create or replace function public.order_channel_exists(p_topic text)
returns boolean
language sql
stable
security definer
set search_path = public
as $$
  select coalesce(p_topic, '') ~ '^order:[0-9a-f]{64}$'
     and exists (
       select 1 from public.orders o
        where o.secret_hash = substr(p_topic, 7)
          and not o._deleted
     )
$$;

revoke execute on function public.order_channel_exists(text) from public;
grant execute on function public.order_channel_exists(text) to anon, authenticated, service_role;

-- Realtime authorizes a private channel join (and each broadcast it relays) by reading
-- realtime.messages as the joining user with realtime.topic() set to the channel's topic.
create policy "order status topics: whoever holds the topic"
  on realtime.messages for select
  to anon, authenticated
  using (
    extension = 'broadcast'
    and topic = realtime.topic()
    and public.order_channel_exists(realtime.topic())
  );

-- Track Order from any device ----------------------------------------------------------------------
-- Failed lookups, kept where the API cannot reach (no grants on schema private), for the rate
-- limit: a guesser of order numbers or of contacts runs out of attempts quickly.
create schema if not exists private;
revoke all on schema private from public;

create table private.track_order_failures (
  id bigint generated always as identity primary key,
  address text not null,
  order_number text not null,
  at timestamptz not null default now()
);

create index track_order_failures_address_idx on private.track_order_failures (address, at);
create index track_order_failures_number_idx on private.track_order_failures (order_number, at);
create index track_order_failures_at_idx on private.track_order_failures (at);

revoke all on table private.track_order_failures from public, anon, authenticated;

-- A phone number as digits, without the US country code, so "+1 (415) 555-0134" matches
-- "415-555-0134".
create or replace function public.phone_digits(p_phone text)
returns text
language sql
immutable
set search_path = public
as $$
  select case
    when d ~ '^1[0-9]{10}$' then substr(d, 2)
    else d
  end
  from (select regexp_replace(coalesce(p_phone, ''), '[^0-9]', '', 'g') as d) as digits
$$;

revoke execute on function public.phone_digits(text) from public, anon, authenticated;

-- track_order(p_number, p_contact): the order with that number ("#XXXXXXXX", the first 8 hex
-- digits of its id, any case) placed with that email or phone. A wrong pair gets one answer,
-- whichever part is wrong, and is recorded (so it returns rather than raises, which would roll
-- the record back); after 10 failures from one address or 5 on one number in 15 minutes every
-- attempt is refused with PT429 (HTTP 429). Malformed input raises 22023 and records nothing.
create or replace function public.track_order(p_number text, p_contact text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = public
as $$
declare
  v_number text := btrim(coalesce(p_number, ''));
  v_contact text := btrim(coalesce(p_contact, ''));
  v_email text;
  v_digits text;
  v_headers jsonb;
  v_address text;
  v_order public.orders;
begin
  if left(v_number, 1) = '#' then
    v_number := btrim(substr(v_number, 2));
  end if;
  v_number := lower(v_number);
  if v_number !~ '^[0-9a-f]{8}$' then
    raise exception 'Enter the 8-character order number from your confirmation' using errcode = '22023';
  end if;
  if length(v_contact) > 254 then
    raise exception 'Enter the email or phone number you ordered with' using errcode = '22023';
  end if;
  if position('@' in v_contact) > 0 then
    v_email := lower(v_contact);
    if v_email !~ '^[^@\s]+@[^@\s]+$' then
      raise exception 'Enter the email or phone number you ordered with' using errcode = '22023';
    end if;
  else
    if v_contact !~ '^[0-9+()./ -]+$' then
      raise exception 'Enter the email or phone number you ordered with' using errcode = '22023';
    end if;
    v_digits := public.phone_digits(v_contact);
    if length(v_digits) not between 7 and 15 then
      raise exception 'Enter the email or phone number you ordered with' using errcode = '22023';
    end if;
  end if;

  -- Who is asking: the stand-in puts the socket's address in x-humo-client-ip; behind hosted
  -- Supabase's gateway the client is the first entry of x-forwarded-for.
  begin
    v_headers := nullif(current_setting('request.headers', true), '')::jsonb;
  exception when others then
    v_headers := null;
  end;
  v_address := left(coalesce(
    nullif(btrim(v_headers ->> 'x-humo-client-ip'), ''),
    nullif(btrim(split_part(v_headers ->> 'x-forwarded-for', ',', 1)), ''),
    'unknown'
  ), 100);

  if (select count(*) from private.track_order_failures f
       where f.address = v_address and f.at > now() - interval '15 minutes') >= 10
     or (select count(*) from private.track_order_failures f
          where f.order_number = v_number and f.at > now() - interval '15 minutes') >= 5 then
    raise exception 'Too many attempts. Please wait a few minutes and try again.' using errcode = 'PT429';
  end if;

  select o.* into v_order
    from public.orders o
   where left(o.id::text, 8) = v_number
     and not o._deleted
     and case
       when v_email is not null then lower(o.customer_email) = v_email
       else public.phone_digits(o.customer_phone) = v_digits
     end
   order by o.created_at desc
   limit 1;

  if not found then
    delete from private.track_order_failures where at < now() - interval '1 hour';
    insert into private.track_order_failures (address, order_number) values (v_address, v_number);
    return jsonb_build_object(
      'found', false,
      'message', 'We couldn''t find an order with that number and email or phone.'
    );
  end if;
  return jsonb_build_object('found', true, 'order', public.order_shopper_document(v_order));
end;
$$;

revoke execute on function public.track_order(text, text) from public;
grant execute on function public.track_order(text, text) to anon, authenticated, service_role;
