-- The one JSON shape of an order that every order function returns (place_order, get_order,
-- get_orders, set_order_status, pull_orders_admin), so the shopper's and the admin's devices
-- store the same document. camelCase, like the rest of the client's order model (SPEC.md §3).
-- Internal: not callable through the API (it does not check who asks).

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

-- SHA-256 of an order secret, as stored in orders.secret_hash.
create or replace function public.order_secret_hash(p_secret text)
returns text
language sql
immutable
set search_path = public
as $$
  select encode(sha256(convert_to(p_secret, 'UTF8')), 'hex')
$$;

revoke execute on function public.order_secret_hash(text) from public, anon, authenticated;
