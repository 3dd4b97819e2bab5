-- shop_settings: the shop's facts and money rules, edited by staff in Admin Settings instead of
-- living in the code (src/lib/shop.ts and src/lib/money.ts keep today's values only as the
-- defaults a device shows before its first sync).
--
-- One row (id is always 'shop'). The money rules are typed numeric columns with CHECKs, because
-- place_order computes with them and a bad value must be impossible to store. The facts (name,
-- slogan, licence, phone, text updates, email, address, delivery area, hours) are one jsonb
-- document in the shape of src/lib/shop.ts's ShopConfig: they are only shown, never computed
-- with, they nest (address, phone, a list of opening hours), and the device stores them as one
-- object; admin_save_shop_settings() checks their shape and says what is wrong.
--
-- Everyone may read the row; only admins may update it (RLS), and admins save through
-- admin_save_shop_settings() for clear messages. Devices pull it with pull_shop_settings(); a
-- write bumps catalogue_changes so shoppers' devices hear about it like a catalogue change.

create table public.shop_settings (
  id text primary key default 'shop' check (id = 'shop'),
  tax_rate numeric(6, 5) not null
    constraint shop_settings_tax_rate_range check (tax_rate >= 0 and tax_rate <= 0.25),
  standard_shipping numeric(10, 2) not null
    constraint shop_settings_standard_shipping_range check (standard_shipping >= 0 and standard_shipping <= 1000),
  express_delivery numeric(10, 2) not null
    constraint shop_settings_express_delivery_range check (express_delivery >= 0 and express_delivery <= 1000),
  free_shipping_threshold numeric(10, 2) not null
    constraint shop_settings_free_shipping_threshold_range check (free_shipping_threshold >= 0 and free_shipping_threshold <= 100000),
  facts jsonb not null constraint shop_settings_facts_object check (jsonb_typeof(facts) = 'object'),
  updated_at timestamptz not null default now(),
  updated_by uuid,
  _modified timestamptz not null default now(),
  _deleted boolean not null default false
);

create trigger shop_settings_set_modified
  before insert or update on public.shop_settings
  for each row execute function public.set_modified();

create trigger shop_settings_set_updated_at
  before update on public.shop_settings
  for each row execute function public.set_updated_at();

create trigger shop_settings_signal_change
  after insert or update or delete on public.shop_settings
  for each statement execute function public.signal_catalogue_change();

alter table public.shop_settings enable row level security;

create policy "shop_settings: anyone reads"
  on public.shop_settings for select
  to anon, authenticated
  using (true);

create policy "shop_settings: admins update"
  on public.shop_settings for update
  to authenticated
  using (public.is_admin())
  with check (public.is_admin());

grant select on public.shop_settings to anon, authenticated;
grant update on public.shop_settings to authenticated;

alter publication supabase_realtime add table public.shop_settings;

-- Today's values (SPEC.md §2 and §9).
insert into public.shop_settings (
  id, tax_rate, standard_shipping, express_delivery, free_shipping_threshold, facts
) values (
  'shop', 0.08, 9.99, 19.99, 50,
  jsonb_build_object(
    'name', 'Humo',
    'slogan', 'Fuma más, vive más.',
    'licenceNumber', 'C10-0000421-LIC',
    'phone', jsonb_build_object('display', '(323) 555-0142', 'e164', '+13235550142'),
    'textUpdates', jsonb_build_object('display', '(323) 555-0199', 'e164', '+13235550199', 'keyword', 'HUMO'),
    'email', 'hello@humo.shop',
    'address', jsonb_build_object(
      'street', '1820 Sunset Boulevard',
      'city', 'Los Angeles',
      'state', 'CA',
      'zip', '90026',
      'country', 'United States'
    ),
    'deliveryArea', 'Los Angeles and the surrounding area',
    'hours', jsonb_build_array(
      jsonb_build_object('days', 'Mon-Fri', 'hours', '9:00 AM-8:00 PM'),
      jsonb_build_object('days', 'Sat', 'hours', '10:00 AM-6:00 PM'),
      jsonb_build_object('days', 'Sun', 'hours', '11:00 AM-5:00 PM')
    )
  )
);

-- The row as devices store it (the same wire shape for the pull and the save's answer).
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
    'updated_at', p_row.updated_at,
    '_modified', to_char(p_row._modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    '_deleted', p_row._deleted
  )
$$;

revoke execute on function public.shop_settings_document(public.shop_settings) from public, anon, authenticated;

-- pull_shop_settings: the parameters and {rows, behind} result of the other pull_* functions, so
-- the device replicates it with the same module (src/data/replication/rpc-pull.ts). Simpler
-- inside, because there is one row: a later version of it can only be written after the earlier
-- one committed (the update waits for the row lock before its trigger stamps _modified), so no
-- write ever commits behind a checkpoint and `behind` is always empty.
create or replace function public.pull_shop_settings(
  after_modified timestamptz default null,
  after_id text default null,
  max_rows integer default 200,
  behind_from timestamptz default null
)
returns jsonb
language sql
stable
security definer
set search_path = public
as $$
  select jsonb_build_object(
    'rows', coalesce(
      (select jsonb_agg(public.shop_settings_document(s))
         from public.shop_settings s
        where after_modified is null
           or (s._modified, s.id) > (after_modified, coalesce(after_id, ''))),
      '[]'::jsonb),
    'behind', '[]'::jsonb
  )
$$;

revoke execute on function public.pull_shop_settings(timestamptz, text, integer, timestamptz) from public;
grant execute on function public.pull_shop_settings(timestamptz, text, integer, timestamptz) to anon, authenticated, service_role;

-- Input helper: a jsonb field as trimmed, non-empty text of at most p_max characters.
create or replace function public.shop_settings_text(p_value jsonb, p_label text, p_max integer default 200)
returns text
language plpgsql
immutable
set search_path = public
as $$
begin
  if p_value is null or jsonb_typeof(p_value) <> 'string' or length(trim(p_value #>> '{}')) = 0 then
    raise exception '% is required', p_label using errcode = '22023';
  end if;
  if length(trim(p_value #>> '{}')) > p_max then
    raise exception '% is too long (at most % characters)', p_label, p_max using errcode = '22023';
  end if;
  return trim(p_value #>> '{}');
end;
$$;

revoke execute on function public.shop_settings_text(jsonb, text, integer) from public, anon, authenticated;

-- Input helper: a jsonb number within [p_min, p_max], with the message the admin sees.
create or replace function public.shop_settings_amount(
  p_value jsonb,
  p_label text,
  p_min numeric,
  p_max numeric,
  p_message text
)
returns numeric
language plpgsql
immutable
set search_path = public
as $$
declare
  v numeric;
begin
  if p_value is null or jsonb_typeof(p_value) <> 'number' then
    raise exception '% is required', p_label using errcode = '22023';
  end if;
  v := (p_value #>> '{}')::numeric;
  if v < p_min or v > p_max then
    raise exception '%', p_message using errcode = '22023';
  end if;
  return v;
end;
$$;

revoke execute on function public.shop_settings_amount(jsonb, text, numeric, numeric, text) from public, anon, authenticated;

-- admin_save_shop_settings(p_settings): an admin replaces the settings. p_settings is
-- {taxRate, standardShipping, expressDelivery, freeShippingThreshold, facts} (taxRate as a
-- fraction, 0.08 for 8%). Every problem raises 22023 with a message for the form; a caller who
-- is not an admin gets 42501. Returns the saved row in the pull's wire shape.
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
         updated_by = auth.uid()
   where id = 'shop'
  returning * into v_row;
  return public.shop_settings_document(v_row);
end;
$$;

revoke execute on function public.admin_save_shop_settings(jsonb) from public;
grant execute on function public.admin_save_shop_settings(jsonb) to authenticated, service_role;

-- place_order reads its tax rate and delivery fees from shop_settings. The body is that of
-- 20261122201500_create_place_order.sql; only the money lines (and their variable) differ.
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
