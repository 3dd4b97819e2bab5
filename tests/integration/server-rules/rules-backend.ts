// Shared setup for the server-rules tests: the embedded backend on a fresh in-memory PGlite, the
// real supabase-js as a shopper (anon) and as signed-in users, and test products of our own so
// the assertions do not depend on the demo seed's stock or prices.
//
// NOTE: users are made below the API (auth.users via backend.db) and their access tokens signed
// here with the backend's secret, the claims GoTrue would issue, until /auth/v1 can sign them in.
import { randomBytes, randomUUID } from 'node:crypto'
import { createClient, type PostgrestError } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import WebSocket from 'ws'
import { startHumoBackend, type HumoBackend } from '../../../supabase/local/server'
import { TEST_RATE_LIMITS } from '../../fixtures/backend'
import { openAllDay } from '../../fixtures/legal-hours'

export type Client = ReturnType<typeof clientFor>
export type RulesBackend = HumoBackend & { anon: Client }

export function clientFor(backend: HumoBackend, token?: string) {
  return createClient(backend.url, backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    ...(token ? { global: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  })
}

export async function startRulesBackend(): Promise<RulesBackend> {
  const backend = await startHumoBackend({
    dataDir: null,
    port: 0,
    quiet: true,
    staticDir: null,
    // Many orders from 127.0.0.1 with one email: the shopper's limits raised (fixtures/backend.ts).
    rateLimits: TEST_RATE_LIMITS,
  })
  // Handoffs at any hour the tests run (tests of the hours set their own: fixtures/legal-hours).
  await openAllDay(backend.db)
  return Object.assign(backend, { anon: clientFor(backend) })
}

export type StaffRole = 'owner' | 'manager' | 'budtender' | 'driver'

export interface TestUser {
  id: string
  email: string
  client: Client
}

export async function createUser(
  backend: HumoBackend,
  options: { admin?: boolean; role?: StaffRole; email?: string } = {},
): Promise<TestUser> {
  const id = randomUUID()
  const email = options.email ?? `${id.slice(0, 8)}@staff.humo.test`
  await backend.db.query(
    `insert into auth.users (id, aud, role, email, email_confirmed_at) values ($1, 'authenticated', 'authenticated', $2, now())`,
    [id, email],
  )
  // `admin: true` is the shop's owner (issue 32 made every admin an owner).
  const role = options.role ?? (options.admin ? 'owner' : null)
  if (role)
    await backend.db.query(`insert into public.user_profiles (user_id, role) values ($1, $2)`, [
      id,
      role,
    ])
  const token = await new SignJWT({ role: 'authenticated', aud: 'authenticated', email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(backend.jwtSecret))
  return { id, email, client: clientFor(backend, token) }
}

export interface TestProduct {
  id: string
  name: string
  categorySlug: string
  price: number
  quantity: number | null
  weightGrams: number | null
}

/** A product of our own, inserted as the database owner, in a seeded category. */
export async function createProduct(
  backend: HumoBackend,
  product: {
    name?: string
    category?: string
    price?: number
    quantity?: number | null
    weightGrams?: number | null
    active?: boolean
    /** Excise applies; default true (the column's default). */
    isCannabis?: boolean
    /** The daily limit it counts toward; default: flower and concentrates by their category. */
    limitClass?: 'flower' | 'concentrate' | null
    limitGrams?: number | null
    /**
     * The Metrc package it is sold from (docs/decisions/054-metrc-sales-export.md); default: a tag of its own, counted Each,
     * for cannabis (so it can be handed over), none for merchandise. null: no package.
     */
    metrc?: { tag: string; unit: string } | null
  } = {},
): Promise<TestProduct> {
  const id = randomUUID()
  const name = product.name ?? `Test product ${id.slice(0, 8)}`
  const category = product.category ?? 'edibles'
  const quantity = product.quantity === undefined ? 10 : product.quantity
  const price = product.price ?? 10
  const weightGrams = product.weightGrams === undefined ? null : product.weightGrams
  const limitClass =
    product.limitClass !== undefined
      ? product.limitClass
      : category === 'flower'
        ? 'flower'
        : category === 'concentrates'
          ? 'concentrate'
          : null
  const metrc =
    product.metrc !== undefined
      ? product.metrc
      : (product.isCannabis ?? true)
        ? { tag: testPackageTag(), unit: 'Each' }
        : null
  await backend.db.query(
    `insert into public.products (id, name, slug, sku, price, quantity_available, is_unlimited_quantity,
                                  is_active, weight_grams, category_id, is_cannabis, limit_class, limit_grams,
                                  metrc_package_tag, metrc_unit)
     select $1, $2, $3, $4, $5, $6, $6::integer is null, $7, $8, c.id, $10, $11, $12, $13, $14
       from public.categories c where c.slug = $9`,
    [
      id,
      name,
      `test-${id}`,
      `TEST-${id.slice(0, 8)}`,
      price,
      quantity,
      product.active ?? true,
      weightGrams,
      category,
      product.isCannabis ?? true,
      limitClass,
      product.limitGrams ?? null,
      metrc?.tag ?? null,
      metrc?.unit ?? null,
    ],
  )
  return { id, name, categorySlug: category, price, quantity, weightGrams }
}

/** A Metrc package UID of the right shape, new each time (24 hexadecimal characters, 1A4 first). */
export function testPackageTag(): string {
  return `1A4${randomBytes(11).toString('hex').toUpperCase().slice(0, 21)}`
}

export async function stockOf(backend: HumoBackend, productId: string): Promise<number | null> {
  const { rows } = await backend.db.query<{ quantity_available: number | null }>(
    'select quantity_available from public.products where id = $1',
    [productId],
  )
  return rows[0]!.quantity_available
}

export const newSecret = (): string => randomBytes(32).toString('base64url')

export type OrderInput = {
  id: string
  secret: string
  customer: { email: string; firstName: string; lastName: string; phone: string }
  fulfilment: 'delivery' | 'pickup'
  deliveryMethod: 'standard' | 'express'
  shippingAddress: {
    address1: string
    address2?: string | null
    city: string
    state: string
    zipCode: string
  } | null
  billingAddress: null
  paymentMethod: 'card' | 'cash'
  cardLast4: string | null
  items: { productId: string; quantity: number }[]
  customerKind?: 'adult' | 'medical'
  mmic?: { number: string; expiry: string } | null
  expectedTotal?: number | null
}

export function orderInput(
  items: { productId: string; quantity: number }[],
  overrides: Partial<OrderInput> = {},
): OrderInput {
  return {
    id: randomUUID(),
    secret: newSecret(),
    customer: {
      email: 'rosa@example.com',
      firstName: 'Rosa',
      lastName: 'Diaz',
      phone: '(415) 555-0134',
    },
    fulfilment: 'delivery',
    deliveryMethod: 'standard',
    shippingAddress: {
      address1: '500 Valencia St',
      city: 'San Francisco',
      state: 'CA',
      zipCode: '94110',
    },
    billingAddress: null,
    paymentMethod: 'card',
    cardLast4: '4242',
    items,
    ...overrides,
  }
}

export interface OrderItemDoc {
  id: string
  productId: string | null
  name: string
  sku: string | null
  unitPrice: number
  quantity: number
  lineTotal: number
}

export interface OrderDoc {
  id: string
  status: string
  customerName: string
  customerEmail: string
  subtotal: number
  tax: number
  taxLines: { kind: string; label: string; rate: number; base: number; amount: number }[] | null
  salesTaxExempt: boolean
  customerKind: 'adult' | 'medical'
  shipping: number
  discount: number
  total: number
  createdAt: string
  estimatedDelivery: string
  statusHistory: { status: string; at: string; by: string | null }[]
  items: OrderItemDoc[]
}

export type PlaceOrderResult =
  | { status: 'accepted'; order: OrderDoc }
  | { status: 'refused'; reasons: { productId: string | null; message: string }[] }

/** An RPC through supabase-js with the answer typed by the caller. */
export async function rpc<T>(
  client: Client,
  fn: string,
  args: Record<string, unknown> = {},
): Promise<{ data: T | null; error: PostgrestError | null }> {
  const response = await client.rpc(fn, args)
  return { data: response.data as T | null, error: response.error }
}

export async function placeOrder(
  client: Client,
  order: OrderInput | Record<string, unknown>,
): Promise<PlaceOrderResult> {
  const { data, error } = await rpc<PlaceOrderResult>(client, 'place_order', { p_order: order })
  if (error) throw new Error(`place_order failed: ${error.code} ${error.message}`)
  return data!
}
