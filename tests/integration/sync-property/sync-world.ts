// The world the sync property test (sync-property.test.ts) and its bench drive: the embedded
// server on a temp data folder (so it can be stopped and started again on the same data), and
// devices — shoppers and staff — each with its own RxDB database on fake-indexeddb and the app's
// own data layer (catalogue pull, order outbox, admin order replication and its conflict rule),
// talking to the server through a network this file controls: per device, requests can be
// dropped, answers lost, both delayed (which reorders them), requests sent twice; a device can go
// offline, and the server can be down. A schedule (sync-schedule.ts) is a list of actions; after
// running one, `heal` brings every device back and `check` returns every divergence found.
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { PostgrestClient } from '@supabase/postgrest-js'
import { enforceOptions } from 'broadcast-channel'
import { indexedDB } from 'fake-indexeddb'
import { SignJWT } from 'jose'
import { startHumoBackend, type HumoBackend } from '../../../supabase/local/server'
import { TEST_RATE_LIMITS } from '../../fixtures/backend'
import { SIGNATURE } from '../server-rules/california-helpers'
import { openAllDay } from '../../fixtures/legal-hours'
import { testStorage } from '../../fixtures/memory-database'
import { createHumoDatabase, type HumoCollections } from '../../../src/data/database'
import type { RpcClient } from '../../../src/data/backend-client'
import type { HumoDatabase } from '../../../src/data/database'
import { replicateProducts } from '../../../src/data/replication/catalogue-replication'
import { replicateAdminOrders } from '../../../src/data/replication/admin-orders-replication'
import { startOrderOutbox, type OrderOutbox } from '../../../src/data/outbox/order-outbox'
import { addToCart, setCartQuantity } from '../../../src/features/cart/cart.actions'
import {
  placeOrder,
  restoreCartFromRefusedOrder,
} from '../../../src/features/checkout/checkout.actions'
import type { CheckoutDraft } from '../../../src/features/checkout/checkout.validation'
import { moveOrder } from '../../../src/features/admin/orders/orders.actions'
import type { ProductDoc } from '../../../src/data/schemas/product.schema'
import type { OrderStatus } from '../../../src/data/schemas/order.schema'

/** What the network does to one request of a device. */
export type Fault = 'ok' | 'drop-request' | 'drop-answer' | 'duplicate' | 'delay' | 'delay-answer'

export type ProductEdit =
  | { kind: 'price'; price: number }
  | { kind: 'restock'; units: number }
  | { kind: 'active'; active: boolean }
  | { kind: 'delete' }

/** One step of a schedule. Devices 0..SHOPPERS-1 are shoppers, the rest staff. */
export type Action =
  | { k: 'add'; s: number; p: number; q: number }
  | { k: 'set-qty'; s: number; p: number; q: number }
  | { k: 'order'; s: number; lines: { p: number; q: number }[]; via: 'offline' | Fault }
  | { k: 'offline'; d: number }
  | { k: 'online'; d: number }
  | { k: 'faults'; d: number; faults: Fault[] }
  | { k: 'reload'; d: number }
  | { k: 'move'; st: number; o: number; to: OrderStatus }
  | { k: 'both-move'; o: number; to: [OrderStatus, OrderStatus] }
  | { k: 'edit'; p: number; edit: ProductEdit }
  | { k: 'event'; d: number }
  | { k: 'server-down' }
  | { k: 'server-up' }
  | { k: 'wait'; ms: number }

export const SHOPPERS = 3
export const STAFF = 2
export const DEVICES = SHOPPERS + STAFF

/** The run's products: small stock, a larger stock, and flower heavy enough to hit the limit. */
const PRODUCTS = [
  { category: 'edibles', price: 10, quantity: 3 as number | null, weightGrams: null },
  { category: 'edibles', price: 25, quantity: 6 as number | null, weightGrams: null },
  { category: 'flower', price: 40, quantity: null as number | null, weightGrams: 14 },
] as const
export const PRODUCT_COUNT = PRODUCTS.length

const FAKE_BASE = 'http://humo-sync.invalid'

// RxDB's multi-instance events go over the 'broadcast-channel' package, which in Node (no window)
// picks its file-and-socket method: a file written per storage write, and 200 ms of waiting in
// every database close (the "RxDB close" of docs/decisions/042-sync-property-test.md's speed amendment). Browsers, where the
// app runs, use the native BroadcastChannel, which Node has too: the devices use it here.
enforceOptions({ type: 'native' })
/**
 * Dexie on fake-indexeddb with the schema validator (RxDB's dev-mode, on in tests, requires it;
 * it also checks every document the data layer writes). One storage for every device.
 */
const deviceStorage = testStorage()
let deviceCounter = 0
async function openDevice(name: string | null, only: readonly (keyof HumoCollections)[]) {
  const dbName = name ?? `humo-sync-${process.pid}-${++deviceCounter}`
  const db = await createHumoDatabase({ name: dbName, storage: deviceStorage, only })
  return { db, name: dbName }
}
/**
 * A RAM-backed folder for the server's data (Linux's /dev/shm) when there is one: the server is
 * stopped and started on the same data, and a disk shared with other work made its fsyncs wait.
 */
function memoryFolder(): string | null {
  try {
    accessSync('/dev/shm', constants.W_OK)
    return '/dev/shm'
  } catch {
    return null
  }
}
/**
 * Deletes a closed device's databases from fake-indexeddb, which otherwise keeps every one in
 * memory: thousands of runs in a bench worker grew its heap by ~13 KB a database, ~23 a run
 * (each collection, RxDB's own store and the replications' meta are databases of their own).
 */
async function forgetDevice(name: string) {
  const prefix = `rxdb-dexie-${name}--`
  const names = (await indexedDB.databases()).flatMap((d) =>
    d.name?.startsWith(prefix) ? [d.name] : [],
  )
  await Promise.all(
    names.map(
      (dbName) =>
        new Promise<void>((resolve, reject) => {
          const request = indexedDB.deleteDatabase(dbName)
          request.onsuccess = () => resolve()
          request.onerror = () => reject(request.error ?? new Error(`could not delete ${dbName}`))
        }),
    ),
  )
}
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
/**
 * Stops a device's outbox and waits for what it has under way (a send, the query choosing its
 * next wake-up) before its database closes: in the app a reload ends the page with it, here the
 * test goes on, and work cut off by the close would reject with nobody listening (RxDB's COL21,
 * "RxStorageInstanceDexie is closed").
 */
async function settleOutbox(outbox: OrderOutbox | undefined) {
  if (!outbox) return
  outbox.stop()
  await outbox.settled()
}

const networkDown = () => new TypeError('fetch failed (sync test network)')

/** A device's network; `who` names it in the run's log (e.g. 'st1'). */
type Net = { online: boolean; faults: Fault[]; inflight: number; who: string }

type Shopper = {
  kind: 'shopper'
  index: number
  name: string
  db: HumoDatabase
  net: Net
  rpc: RpcClient
  skewMs: number
  outbox: OrderOutbox
  catalogue: ReturnType<typeof replicateProducts>
  draft: CheckoutDraft
  placed: string[]
}

type Staff = {
  kind: 'staff'
  index: number
  name: string
  email: string
  db: HumoDatabase
  net: Net
  rpc: RpcClient
  replication: ReturnType<typeof replicateAdminOrders>
  /** The last status this device moved each order to (the move the person made last). */
  moves: Map<string, OrderStatus>
}

const SHOPPER_COLLECTIONS = ['products', 'cart_lines', 'orders'] as const
const STAFF_COLLECTIONS = ['admin_orders', 'order_notices'] as const

export class SyncWorld {
  backend: HumoBackend | null = null
  private dataDir = mkdtempSync(join(memoryFolder() ?? tmpdir(), 'humo-sync-property-'))
  private tokens: { email: string; token: string }[] = []
  private readonly driverId = randomUUID()
  private anonKey = ''
  private generation = 0
  run = 0
  products: { id: string; start: number | null; restocked: number }[] = []
  shoppers: Shopper[] = []
  staff: Staff[] = []
  /** Every order placed in this run, in placing order: [shopper, id]. */
  orders: { s: number; id: string }[] = []
  log: string[] = []
  /** Where the last heal's time went (ms), for the debug output. */
  healTimes: Record<string, number> = {}
  /** stats() of the last run, kept when its devices are closed. */
  lastStats = { orders: 0, moves: 0, actions: 0 }

  async start() {
    await this.serverUp()
    const backend = this.backend!
    this.anonKey = backend.anonKey
    await backend.db.query(
      `insert into public.categories (name, slug) values ('Edibles', 'edibles'), ('Flower', 'flower')`,
    )
    for (let i = 0; i < STAFF; i++) {
      const id = randomUUID()
      const email = `staff${i}-${id.slice(0, 6)}@humo.test`
      await backend.db.query(
        `insert into auth.users (id, aud, role, email, email_confirmed_at) values ($1, 'authenticated', 'authenticated', $2, now())`,
        [id, email],
      )
      await backend.db.query(
        `insert into public.user_profiles (user_id, role) values ($1, 'owner')`,
        [id],
      )
      const token = await new SignJWT({ role: 'authenticated', aud: 'authenticated', email })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(id)
        .setIssuedAt()
        .setExpirationTime('12h')
        .sign(new TextEncoder().encode(backend.jwtSecret))
      this.tokens.push({ email, token })
    }
    // The driver deliveries go out with (docs/decisions/055-delivery-by-the-rules.md), named as the receipt needs.
    await backend.db.query(
      `insert into auth.users (id, aud, role, email, email_confirmed_at) values ($1, 'authenticated', 'authenticated', 'driver@humo.test', now())`,
      [this.driverId],
    )
    await backend.db.query(
      `insert into public.user_profiles (user_id, role, first_name) values ($1, 'driver', 'Dani')`,
      [this.driverId],
    )
  }

  async serverUp() {
    if (this.backend) return
    this.backend = await startHumoBackend({
      dataDir: this.dataDir,
      port: 0,
      quiet: true,
      staticDir: null,
      rateLimits: TEST_RATE_LIMITS,
      // No demo catalogue: each run makes its own products, and a small catalogue keeps every
      // device's first pull quick.
      seed: false,
      // No sweep of unconfirmed orders: the schedule decides every status.
      unacceptedOrderSweepMs: 0,
    })
    // Handoffs at any hour the run happens (fixtures/legal-hours.ts).
    await openAllDay(this.backend.db)
    this.generation++
  }

  async serverDown() {
    const backend = this.backend
    if (!backend) return
    this.backend = null
    await backend.close()
  }

  async close() {
    await this.endRun()
    await this.serverDown()
    this.removeData()
  }

  /** The server's data folder removed at once (a bench worker stopped by a signal: RAM folder). */
  removeData() {
    rmSync(this.dataDir, { recursive: true, force: true })
  }

  /** The device's fetch: the schedule's faults, offline, and the server's current address. */
  private fetchFor(net: Net): typeof fetch {
    return async (input, init) => {
      const fault: Fault | 'offline' = net.online ? (net.faults.shift() ?? 'ok') : 'offline'
      if (fault === 'offline' || fault === 'drop-request') throw networkDown()
      net.inflight++
      try {
        if (fault === 'delay') await sleep(5 + Math.floor(Math.random() * 40))
        const send = () => {
          const backend = this.backend
          if (!backend) return Promise.reject(networkDown())
          const url = String(input instanceof Request ? input.url : input).replace(
            FAKE_BASE,
            backend.url,
          )
          return fetch(url, init)
        }
        let response: Response
        if (fault === 'duplicate') {
          // The first copy's answer is never read by the device (handled, so its loss is quiet).
          const first = send().then(
            (r) => r.arrayBuffer(),
            () => undefined,
          )
          response = await send()
          await first
        } else response = await send()
        if (net.who.startsWith('st')) await this.trace(net, fault, input, init, response)
        if (fault === 'drop-answer') {
          await response.arrayBuffer().catch(() => undefined)
          throw networkDown()
        }
        if (fault === 'delay-answer') await sleep(5 + Math.floor(Math.random() * 40))
        return response
      } finally {
        net.inflight--
      }
    }
  }

  /**
   * What a staff device's moves and pulls of orders did, in the run's log: a divergence is printed
   * with it, and the timing that made it does not come back in a replay.
   */
  private async trace(
    net: Net,
    fault: Fault | 'ok',
    input: RequestInfo | URL,
    init: RequestInit | undefined,
    response: Response,
  ) {
    const url = String(input instanceof Request ? input.url : input)
    const short = (id: unknown) => String(id).slice(0, 4)
    const seen = (rows: { id?: string; status?: string; _modified?: string }[]) =>
      rows.map((r) => `${short(r.id)}:${r.status}@${r._modified?.slice(17, 23)}`).join(',')
    try {
      if (url.includes('/rpc/set_order_status')) {
        const body = typeof init?.body === 'string' ? init.body : '{}'
        const args = JSON.parse(body) as { p_id: string; p_from: string; p_to: string }
        const answer = (await response.clone().json()) as {
          applied?: boolean
          order?: { status?: string }
        }
        this.log.push(
          `${net.who} move ${short(args.p_id)} ${args.p_from}>${args.p_to} ${answer.applied ? 'applied' : `refused(${answer.order?.status})`} ${fault}`,
        )
      } else if (url.includes('/rpc/pull_orders_admin')) {
        const answer = (await response.clone().json()) as {
          rows?: { id?: string; status?: string; _modified?: string }[]
        }
        this.log.push(`${net.who} pull ${seen(answer.rows ?? [])} ${fault}`)
      }
    } catch {
      this.log.push(`${net.who} ${url.split('/').at(-1)} unreadable ${fault}`)
    }
  }

  /**
   * As src/data/backend-client.ts's createRpcClient, through this device's network; staff speak
   * with their own token, as the back office's signed-in client does.
   */
  private rpcClient(net: Net, token?: string): RpcClient {
    const rest = new PostgrestClient(`${FAKE_BASE}/rest/v1`, {
      headers: { apikey: this.anonKey, Authorization: `Bearer ${token ?? this.anonKey}` },
      fetch: this.fetchFor(net),
    })
    return {
      rpc: (fn, args = {}) =>
        fn.startsWith('pull_')
          ? rest.rpc(fn, Object.fromEntries(Object.entries(args).filter((a) => a[1] != null)), {
              get: true,
            })
          : rest.rpc(fn, args),
    }
  }

  /** A fresh run: new products of its own, fresh devices; the orders of earlier runs removed. */
  async beginRun() {
    await this.endRun()
    this.run++
    this.log = []
    this.orders = []
    await this.serverUp()
    const backend = this.backend!
    // Earlier runs' orders and products, so each device's first pull stays small.
    await backend.db.query(
      `delete from public.orders where id in (select order_id from public.order_items where sku like 'SYNC-%')`,
    )
    await backend.db.query(`delete from public.products where sku like 'SYNC-%'`)
    // PGlite runs no autovacuum: a bench worker's thousands of runs would leave the deleted rows
    // of every earlier run in the tables its queries scan (~10-60 ms each hundred runs).
    if (this.run % 100 === 0) await backend.db.exec('vacuum')
    // The run's products in one statement (one round trip to PGlite instead of three).
    this.products = PRODUCTS.map((product) => ({
      id: randomUUID(),
      start: product.quantity,
      restocked: 0,
    }))
    await backend.db.query(
      `insert into public.products (id, name, slug, sku, price, quantity_available, is_unlimited_quantity,
                                    is_active, weight_grams, category_id)
       select p.id, 'Sync ' || left(p.id::text, 8), 'sync-' || p.id, 'SYNC-' || left(p.id::text, 8),
              p.price, p.quantity, p.quantity is null, true, p.weight, c.id
         from jsonb_to_recordset($1::jsonb)
                as p(id uuid, price numeric, quantity integer, weight numeric, category text)
         join public.categories c on c.slug = p.category`,
      [
        JSON.stringify(
          PRODUCTS.map((product, i) => ({
            id: this.products[i]!.id,
            price: product.price,
            quantity: product.quantity,
            weight: product.weightGrams,
            category: product.category,
          })),
        ),
      ],
    )
    // Two orders already on the server, placed elsewhere, so staff have cards to move at once.
    const rest = new PostgrestClient(`${backend.url}/rest/v1`, {
      headers: { apikey: this.anonKey, Authorization: `Bearer ${this.anonKey}` },
    })
    for (const [p, q] of [
      [1, 1],
      [0, 1],
    ] as const) {
      const id = randomUUID()
      const { error } = await rest.rpc('place_order', {
        p_order: {
          id,
          secret: randomUUID() + randomUUID(),
          customer: {
            email: 'walkin@example.com',
            firstName: 'Walk',
            lastName: 'In',
            phone: '5105550199',
          },
          fulfilment: 'delivery',
          deliveryMethod: 'standard',
          shippingAddress: {
            address1: '1 Main St',
            city: 'Oakland',
            state: 'CA',
            zipCode: '94612',
          },
          billingAddress: null,
          paymentMethod: 'cash',
          pickupWindow: null,
          items: [{ productId: this.products[p]!.id, quantity: q }],
        },
      })
      if (error) throw new Error(`sync world: a starting order failed: ${error.message}`)
      this.orders.push({ s: -1, id })
    }
    // The five devices open and make their first pull at the same time, as five phones would.
    const shoppers = Array.from({ length: SHOPPERS }, async (_, i) => {
      const net: Net = { online: true, faults: [], inflight: 0, who: `sh${i}` }
      const { db, name } = await openDevice(null, SHOPPER_COLLECTIONS)
      const shopper: Shopper = {
        kind: 'shopper',
        index: i,
        name,
        db,
        net,
        rpc: this.rpcClient(net),
        skewMs: 0,
        outbox: null as never,
        catalogue: null as never,
        draft: shopperDraft(i),
        placed: [],
      }
      this.startShopper(shopper)
      await shopper.catalogue.awaitInitialReplication()
      return shopper
    })
    const staff = Array.from({ length: STAFF }, async (_, i) => {
      const net: Net = { online: true, faults: [], inflight: 0, who: `st${i}` }
      const { db, name } = await openDevice(null, STAFF_COLLECTIONS)
      const { email, token } = this.tokens[i]!
      const staff: Staff = {
        kind: 'staff',
        index: i,
        name,
        email,
        db,
        net,
        rpc: this.rpcClient(net, token),
        replication: null as never,
        moves: new Map(),
      }
      staff.replication = replicateAdminOrders(staff.rpc, db, { identifier: 'sync-admin-orders' })
      await staff.replication.awaitInitialReplication()
      return staff
    })
    // Settled, not all: a device that failed to open is still closed by endRun.
    const opened = await Promise.allSettled([...shoppers, ...staff])
    this.shoppers = []
    this.staff = []
    for (const result of opened)
      if (result.status === 'fulfilled') {
        if (result.value.kind === 'shopper') this.shoppers.push(result.value)
        else this.staff.push(result.value)
      }
    const failed = opened.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
  }

  private startShopper(shopper: Shopper) {
    shopper.outbox = startOrderOutbox(shopper.db, shopper.rpc, {
      now: () => Date.now() + shopper.skewMs,
    })
    shopper.catalogue = replicateProducts(shopper.rpc, shopper.db, { identifier: 'sync-products' })
  }

  async endRun() {
    if (this.shoppers.length > 0) this.lastStats = this.stats()
    // Every device is closed even when one fails to stop, so the next run starts clean.
    const errors: unknown[] = []
    const attempt = async (step: () => unknown) => {
      try {
        await step()
      } catch (error) {
        errors.push(error)
      }
    }
    // All five at once: the devices are independent, as five phones are.
    await Promise.all([
      ...this.shoppers.map(async (shopper) => {
        await attempt(() => settleOutbox(shopper.outbox))
        await attempt(() => shopper.catalogue?.cancel())
        await attempt(() => shopper.db.close())
        await attempt(() => forgetDevice(shopper.name))
      }),
      ...this.staff.map(async (staff) => {
        await attempt(() => staff.replication?.cancel())
        await attempt(() => staff.db.close())
        await attempt(() => forgetDevice(staff.name))
      }),
    ])
    this.shoppers = []
    this.staff = []
    if (errors.length > 0) throw errors[0]
  }

  private device(d: number): Shopper | Staff {
    return d < SHOPPERS ? this.shoppers[d]! : this.staff[d - SHOPPERS]!
  }

  private async product(shopper: Shopper, p: number): Promise<ProductDoc | null> {
    const doc = await shopper.db.products.findOne(this.products[p]!.id).exec()
    return doc ? (doc.toJSON() as ProductDoc) : null
  }

  async apply(action: Action) {
    this.log.push(JSON.stringify(action))
    switch (action.k) {
      case 'add': {
        const shopper = this.shoppers[action.s]!
        const product = await this.product(shopper, action.p)
        if (product) await addToCart(shopper.db, product, action.q)
        return
      }
      case 'set-qty': {
        const shopper = this.shoppers[action.s]!
        await setCartQuantity(shopper.db, this.products[action.p]!.id, action.q)
        return
      }
      case 'order': {
        const shopper = this.shoppers[action.s]!
        // What the shopper puts in the cart on the way to the checkout (maybe nothing more).
        for (const line of action.lines) {
          const product = await this.product(shopper, line.p)
          if (product) await addToCart(shopper.db, product, line.q)
        }
        const lines = (await shopper.db.cart_lines.find().exec()).map((l) => l.toMutableJSON())
        if (lines.length === 0) return
        // Placed offline (it stays so until an 'online' or the heal), or with a fault waiting for
        // the next request, which the outbox's send on insert usually is.
        if (action.via === 'offline') shopper.net.online = false
        else if (action.via !== 'ok') shopper.net.faults.unshift(action.via)
        const order = await placeOrder(shopper.db, { draft: shopper.draft, lines })
        shopper.placed.push(order.id)
        this.orders.push({ s: action.s, id: order.id })
        return
      }
      case 'offline':
        this.device(action.d).net.online = false
        return
      case 'online': {
        const device = this.device(action.d)
        device.net.online = true
        // The app's reaction to the 'online' event: send what waits, pull what changed.
        if (device.kind === 'shopper') {
          void device.outbox.flush()
          device.catalogue.nudge()
        } else device.replication.nudge()
        return
      }
      case 'faults':
        this.device(action.d).net.faults.push(...action.faults)
        return
      case 'reload':
        return this.reload(this.device(action.d))
      case 'move': {
        const staff = this.staff[action.st]!
        const order = this.orders[action.o % Math.max(1, this.orders.length)]
        if (!order) return
        const moved = await moveOrder(
          staff.db,
          order.id,
          action.to,
          handoffChecks(order.id, this.driverId),
        )
        if (moved) staff.moves.set(order.id, action.to)
        return
      }
      case 'both-move': {
        // Both staff devices move the same order at once, each to its own column.
        const order = this.orders[action.o % Math.max(1, this.orders.length)]
        if (!order) return
        await Promise.all(
          this.staff.map(async (staff, i) => {
            const to = action.to[i]!
            if (await moveOrder(staff.db, order.id, to, handoffChecks(order.id, this.driverId)))
              staff.moves.set(order.id, to)
          }),
        )
        return
      }
      case 'edit':
        return this.edit(action.p, action.edit)
      case 'event': {
        // A realtime event that did arrive: the app nudges a pull (lost events are the default).
        const device = this.device(action.d)
        if (device.kind === 'shopper') {
          device.catalogue.nudge()
          // As order-tracking.ts does: a refresh that fails waits for the next event.
          void device.outbox.refreshStatuses().catch(() => undefined)
        } else device.replication.nudge()
        return
      }
      case 'server-down':
        return this.serverDown()
      case 'server-up':
        return this.serverUp()
      case 'wait':
        return sleep(action.ms)
    }
  }

  private async edit(p: number, edit: ProductEdit) {
    const backend = this.backend
    if (!backend) return
    const id = this.products[p]!.id
    switch (edit.kind) {
      case 'price':
        await backend.db.query('update public.products set price = $2 where id = $1', [
          id,
          edit.price,
        ])
        return
      case 'restock': {
        const { rows } = await backend.db.query(
          `update public.products set quantity_available = quantity_available + $2
            where id = $1 and quantity_available is not null returning id`,
          [id, edit.units],
        )
        if (rows.length > 0) this.products[p]!.restocked += edit.units
        return
      }
      case 'active':
        await backend.db.query('update public.products set is_active = $2 where id = $1', [
          id,
          edit.active,
        ])
        return
      case 'delete':
        await backend.db.query('update public.products set _deleted = true where id = $1', [id])
        return
    }
  }

  /** A reload: everything on the device stopped, its database closed and opened again. */
  private async reload(device: Shopper | Staff) {
    if (device.kind === 'shopper') {
      await settleOutbox(device.outbox)
      await device.catalogue.cancel()
      await device.db.close()
      device.db = (await openDevice(device.name, SHOPPER_COLLECTIONS)).db
      this.startShopper(device)
    } else {
      await device.replication.cancel()
      await device.db.close()
      device.db = (await openDevice(device.name, STAFF_COLLECTIONS)).db
      device.replication = replicateAdminOrders(device.rpc, device.db, {
        identifier: 'sync-admin-orders',
      })
    }
  }

  /**
   * The network heals: the server up, every device online without faults, and time moved past
   * every back-off. Each device then does what the app does on reconnect, until quiet.
   */
  async heal() {
    const mark = markTimes(this.healTimes)
    await this.serverUp()
    mark('server')
    const all = [...this.shoppers, ...this.staff]
    for (const device of all) {
      device.net.online = true
      device.net.faults = []
    }
    await until(() => all.every((d) => d.net.inflight === 0), 'requests in flight')
    mark('inflight')
    // The devices are independent, so each settles at the same time as the others.
    const settle = async (shopper: Shopper) => {
      shopper.skewMs += 3_600_000
      // With the network healed and time past every back-off, the outbox settles every order;
      // one still queued after 10 s is a divergence (check reports it).
      const end = Date.now() + 10_000
      while (Date.now() < end) {
        await shopper.outbox.flush()
        const waiting = await shopper.db.orders
          .find({ selector: { sync: { $in: ['queued', 'sending'] } } })
          .exec()
        if (waiting.length === 0) break
        await sleep(20)
      }
      for (const id of shopper.placed) await restoreCartFromRefusedOrder(shopper.db, id)
    }
    await Promise.all(this.shoppers.map(settle))
    mark('outboxes')
    // Each staff device in turn pushes its moves, then pulls. The last one has then pulled every
    // push; the others pull again what came after theirs, and should one of them push anything on
    // that second turn, everyone else turns once more (a replication started again to skip its
    // back-off, as the app's reconnect does).
    const resync = async (staff: Staff) => {
      await staff.replication.cancel()
      staff.replication = replicateAdminOrders(staff.rpc, staff.db, {
        identifier: 'sync-admin-orders',
      })
      let pushed = false
      const sent = staff.replication.sent$.subscribe(() => (pushed = true))
      try {
        await staff.replication.awaitInSync()
      } finally {
        sent.unsubscribe()
      }
      return pushed
    }
    let syncs = this.staff.length
    for (const staff of this.staff) await resync(staff)
    let behind = this.staff.slice(0, -1)
    for (let turn = 0; turn < 4 && behind.length > 0; turn++) {
      const pushers: Staff[] = []
      for (const staff of behind) if (await resync(staff)) pushers.push(staff)
      syncs += behind.length
      behind = pushers.length > 0 ? this.staff.filter((s) => s !== pushers.at(-1)) : []
    }
    mark('staff')
    this.healTimes.staffSyncs = syncs
    await Promise.all(
      this.shoppers.map(async (shopper) => {
        await shopper.catalogue.cancel()
        shopper.catalogue = replicateProducts(shopper.rpc, shopper.db, {
          identifier: 'sync-products',
        })
        await shopper.catalogue.awaitInSync()
        await shopper.outbox.refreshStatuses()
      }),
    )
    mark('shoppers')
  }

  /** What the last run did, for the debug output and the bench. */
  stats() {
    return {
      orders: this.orders.length,
      moves: this.staff.reduce((n, s) => n + s.moves.size, 0),
      actions: this.log.length,
    }
  }

  /** Every way the devices and the server disagree with the contract; empty when all is well. */
  async check(): Promise<string[]> {
    const backend = this.backend!
    const problems: string[] = []
    const ids = this.orders.map((o) => o.id)
    const { rows: serverOrders } = await backend.db.query<{
      id: string
      status: OrderStatus
      status_history: { status: string; by?: string | null }[]
    }>(
      `select id, status, status_history from public.orders
        where id in (select order_id from public.order_items where product_id = any($1::uuid[]))
           or id = any($2::uuid[])`,
      [this.products.map((p) => p.id), ids],
    )
    const onServer = new Map(serverOrders.map((o) => [o.id, o]))
    for (const row of serverOrders)
      if (!ids.includes(row.id)) problems.push(`server has order ${row.id} no device placed`)

    for (const shopper of this.shoppers) {
      const docs = await shopper.db.orders.find().exec()
      for (const doc of docs) {
        if (!shopper.placed.includes(doc.id))
          problems.push(`shopper ${shopper.index} holds order ${doc.id} it did not place`)
      }
      for (const id of shopper.placed) {
        const doc = await shopper.db.orders.findOne(id).exec()
        const server = onServer.get(id)
        if (!doc) {
          problems.push(`shopper ${shopper.index} lost its order ${id}`)
          continue
        }
        if (doc.sync === 'accepted') {
          if (!server)
            problems.push(`order ${id} accepted on shopper ${shopper.index}, not on server`)
          else if (doc.status !== server.status)
            problems.push(
              `order ${id}: shopper ${shopper.index} shows ${doc.status}, server ${server.status}`,
            )
        } else if (doc.sync === 'refused') {
          if (server) problems.push(`order ${id} refused on shopper ${shopper.index} but on server`)
          if (!doc.refusal?.length || !doc.refusal[0]?.message)
            problems.push(`order ${id} refused without a reason`)
          if (!doc.cartRestoredAt) problems.push(`order ${id} refused, cart not restored`)
          for (const item of doc.items) {
            if (!(await shopper.db.cart_lines.findOne(item.productId).exec()))
              problems.push(`order ${id} refused, ${item.productId} not back in the cart`)
          }
        } else problems.push(`order ${id} still ${doc.sync} on shopper ${shopper.index}`)
      }
    }

    // Stock: the start, plus restocks, minus the units of accepted orders not cancelled.
    for (const product of this.products) {
      if (product.start === null) continue
      const { rows } = await backend.db.query<{ stock: number | null; sold: string | null }>(
        `select p.quantity_available as stock,
                (select sum(i.quantity) from public.order_items i join public.orders o on o.id = i.order_id
                  where i.product_id = p.id and o.status <> 'cancelled') as sold
           from public.products p where p.id = $1`,
        [product.id],
      )
      const expected = product.start + product.restocked - Number(rows[0]?.sold ?? 0)
      if (rows[0]?.stock !== expected)
        problems.push(`product ${product.id}: server stock ${rows[0]?.stock}, expected ${expected}`)
    }

    // Catalogue: each shopper holds exactly the visible products, at the server's price and stock.
    const { rows: catalogue } = await backend.db.query<{
      id: string
      price: string
      quantity_available: number | null
      visible: boolean
    }>(
      `select id, price::text, quantity_available, is_active and not _deleted as visible
         from public.products where id = any($1::uuid[])`,
      [this.products.map((p) => p.id)],
    )
    for (const shopper of this.shoppers) {
      for (const row of catalogue) {
        const doc = await shopper.db.products.findOne(row.id).exec()
        if (!row.visible) {
          if (doc) problems.push(`shopper ${shopper.index} still shows hidden product ${row.id}`)
          continue
        }
        if (!doc) problems.push(`shopper ${shopper.index} misses product ${row.id}`)
        else if (doc.price !== Number(row.price) || (doc.stock ?? null) !== row.quantity_available)
          problems.push(
            `shopper ${shopper.index} has ${row.id} at ${doc.price}/${doc.stock}, server ${row.price}/${row.quantity_available}`,
          )
      }
    }

    // Staff boards: every order of the run at the server's status; docs/decisions/004-order-status-conflicts.md for each move.
    for (const staff of this.staff) {
      for (const row of serverOrders) {
        const doc = await staff.db.admin_orders.findOne(row.id).exec()
        if (!doc) problems.push(`staff ${staff.index} misses order ${row.id}`)
        else if (doc.status !== row.status)
          problems.push(
            `staff ${staff.index} shows ${row.id} as ${doc.status}, server ${row.status}`,
          )
      }
      for (const [orderId, to] of staff.moves) {
        const server = onServer.get(orderId)
        // Applied, or a colleague's move got the order there first (nothing of this one lost).
        const applied = server?.status_history.some((h) => h.status === to)
        const notices = await staff.db.order_notices
          .find({ selector: { orderId, attemptedTo: to } })
          .exec()
        if (!applied && notices.length === 0)
          problems.push(
            `staff ${staff.index}'s move of ${orderId} to ${to} neither applied nor reported`,
          )
      }
    }
    // The server's history is a chain: each change starts where the last one ended.
    for (const row of serverOrders) {
      const statuses = row.status_history.map((h) => h.status)
      if (statuses.at(-1) !== row.status)
        problems.push(`order ${row.id}: history ends at ${statuses.at(-1)}, status ${row.status}`)
      for (let i = 1; i < statuses.length; i++)
        if (statuses[i] === statuses[i - 1])
          problems.push(`order ${row.id}: history repeats ${statuses[i]}`)
    }
    return problems
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`sync world: timed out waiting for ${what}`)
    await sleep(10)
  }
}

function markTimes(into: Record<string, number>) {
  for (const key of Object.keys(into)) delete into[key]
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  return (step: string) => {
    const at = performance.now()
    into[step] = Math.round(at - last)
    const used = process.cpuUsage(lastCpu)
    into[`${step}Cpu`] = Math.round((used.user + used.system) / 1000)
    last = at
    lastCpu = process.cpuUsage()
  }
}

/** What staff confirm at a handoff: the ID check and the buyer's ID number, one per order. */
/** What staff give with a move: the ID checks, a driver, a cancel's reason, a signature. */
function handoffChecks(orderId: string, driverId: string) {
  return {
    idChecked: true,
    idNumber: `ID${orderId.slice(0, 8)}`,
    driver: { id: driverId, firstName: 'Dani', employeeNumber: null },
    reason: 'Customer asked',
    signature: SIGNATURE,
  }
}

function shopperDraft(i: number): CheckoutDraft {
  return {
    email: `shopper${i}@example.com`,
    firstName: ['Ana', 'Ben', 'Cleo'][i] ?? 'Dee',
    lastName: 'Reyes',
    // One person each: a shared phone would make them one buyer for the daily limits.
    phone: `51055501${String(i).padStart(2, '0')}`,
    address1: '12 Grand Ave',
    address2: '',
    city: 'Oakland',
    zipCode: '94612',
    fulfilment: 'delivery',
    deliveryMethod: 'standard',
    paymentMethod: 'cash',
    pickupWindow: null,
    customerKind: 'adult',
    mmicNumber: '',
    mmicExpiry: '',
  }
}
