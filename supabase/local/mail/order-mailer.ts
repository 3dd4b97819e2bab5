// The order emails' sender (issue 22, DESIGN.md §10, docs/decisions/021-order-emails-from-a-queue.md): drains
// private.order_emails, which triggers on public.orders fill in the transaction of the change
// they announce, and sends each email through SMTP with nodemailer. It wakes on the queue's
// NOTIFY and also polls, so an email queued while it was busy or stopped still goes out. A send
// that fails stays queued with an exponential back-off (capped), so a mail server that is down
// loses nothing; only a recipient the mail server refuses for good is given up.
//
// Delivery is at least once: a row is leased before its send and marked sent after, so a crash
// in between sends it again after the lease rather than never.
import type { PGlite } from '@electric-sql/pglite'
import { createTransport } from 'nodemailer'
import { taxLinesOf } from '../../../src/data/outbox/order-outbox.ts'
import type { Fulfilment } from '../../../src/lib/order-status.ts'
import {
  orderEmail,
  type EmailAddress,
  type EmailOrder,
  type EmailShop,
  type OrderEmailKind,
} from './order-email-texts.ts'

export const ORDER_EMAILS_CHANNEL = 'humo_order_emails'

export interface OrderMailerOptions {
  db: PGlite
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465. */
  smtpUrl: string
  /** The From header, e.g. "Humo <orders@humo.shop>"; default the shop's name and email. */
  from?: string | null
  /** The shop's address in links ("Track your order"). */
  publicUrl: string
  /** The first retry's delay; each further one doubles, up to retryMaxMs. Default 30 s. */
  retryBaseMs?: number
  /** Default 15 minutes. */
  retryMaxMs?: number
  /** Look at the queue at least this often, in case a notification was missed. Default 60 s. */
  pollMs?: number
  /** Give an email up after this many attempts (about two days at the cap). Default 200. */
  maxAttempts?: number
  log?: (message: string) => void
  /** A send that failed the first time, or was given up. Default console.warn. */
  warn?: (message: string) => void
}

export interface OrderMailer {
  /** Stops after the send in progress (aborted after a few seconds); the queue keeps the rest. */
  close(): Promise<void>
}

/** A send whose outcome the row has not recorded yet is retried after this long. */
const LEASE_SECONDS = 300
const CLOSE_GRACE_MS = 5_000

/** Refuses a bad HUMO_SMTP_URL at start, without echoing its password. */
export function checkSmtpUrl(smtpUrl: string): void {
  let url: URL
  try {
    url = new URL(smtpUrl)
  } catch {
    throw new Error('HUMO_SMTP_URL must be a URL such as smtp://user:password@mail.example:587')
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error('HUMO_SMTP_URL must start with smtp:// or smtps://')
  if (!url.hostname) throw new Error('HUMO_SMTP_URL must name the mail server')
}

/**
 * Tells devices whether the shop sends order emails (so no screen promises one without a mail
 * server), and turns the queue's triggers on or off. Writes only on a change: each write of
 * shop_settings sends every device a catalogue change.
 */
export async function setOrderEmails(db: PGlite, enabled: boolean): Promise<void> {
  await db.query(
    `update public.shop_settings set order_emails = $1
      where id = 'shop' and order_emails is distinct from $1`,
    [enabled],
  )
}

type Claimed = { id: string; order_id: string; kind: OrderEmailKind; attempts: number }

type Loaded = {
  doc: Record<string, unknown>
  row: Record<string, unknown>
  facts: Record<string, unknown> | null
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const amount = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? n : 0
}
const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null

/** The order as the texts need it, from public.order_document and the row itself. */
export function emailOrderFrom(
  doc: Record<string, unknown>,
  row: Record<string, unknown>,
): EmailOrder {
  const customer = record(doc.customer) ?? {}
  const address = record(doc.shippingAddress)
  // The pickup window: the document's field when it has one, else the row's columns.
  const window = record(doc.pickupWindow)
  const start = text(window?.start) || text(row.pickup_window_start)
  const end = text(window?.end) || text(row.pickup_window_end)
  const items = Array.isArray(doc.items) ? doc.items.map((i) => record(i) ?? {}) : []
  return {
    id: text(doc.id),
    status: text(doc.status),
    fulfilment: (text(doc.fulfilment) === 'pickup' ? 'pickup' : 'delivery') satisfies Fulfilment,
    customer: {
      email: text(customer.email),
      firstName: text(customer.firstName),
      lastName: text(customer.lastName),
    },
    shippingAddress: address
      ? ({
          address1: text(address.address1),
          address2: text(address.address2) || null,
          city: text(address.city),
          state: text(address.state),
          zipCode: text(address.zipCode),
        } satisfies EmailAddress)
      : null,
    paymentMethod: text(doc.paymentMethod),
    customerKind: text(doc.customerKind) === 'medical' ? 'medical' : 'adult',
    subtotal: amount(doc.subtotal),
    tax: amount(doc.tax),
    taxLines: Array.isArray(doc.taxLines) ? (taxLinesOf(doc.taxLines) ?? null) : null,
    shipping: amount(doc.shipping),
    discount: amount(doc.discount),
    total: amount(doc.total),
    items: items.map((i) => ({
      name: text(i.name),
      quantity: amount(i.quantity),
      unitPrice: amount(i.unitPrice),
      lineTotal: amount(i.lineTotal),
    })),
    pickupWindow: start && end ? { start, end } : null,
  }
}

export function emailShopFrom(facts: Record<string, unknown> | null): EmailShop {
  const address = record(facts?.address)
  const phone = record(facts?.phone)
  return {
    name: text(facts?.name) || 'Humo',
    email: text(facts?.email),
    phone: text(phone?.display) || null,
    address: address
      ? {
          street: text(address.street),
          city: text(address.city),
          state: text(address.state),
          zip: text(address.zip),
        }
      : null,
  }
}

/** Why an email is no longer worth sending, or null. */
function staleReason(kind: OrderEmailKind, status: string): string | null {
  if (kind === 'confirmation') return status === 'cancelled' ? 'The order was cancelled' : null
  return status === 'shipped' ? null : `The order is now ${status}`
}

type SendError = Error & {
  code?: string
  command?: string
  responseCode?: number
  permanent?: boolean
}

/** The mail server refused this recipient for good: retrying would get the same answer. */
const recipientRefused = (error: SendError): boolean =>
  error.code === 'EENVELOPE' && error.permanent === true && /^RCPT/i.test(error.command ?? '')

export async function startOrderMailer(options: OrderMailerOptions): Promise<OrderMailer> {
  const { db, publicUrl } = options
  checkSmtpUrl(options.smtpUrl)
  const retryBaseMs = options.retryBaseMs ?? 30_000
  const retryMaxMs = options.retryMaxMs ?? 15 * 60_000
  const pollMs = options.pollMs ?? 60_000
  const maxAttempts = options.maxAttempts ?? 200
  const log = options.log ?? ((message: string) => console.log(`[humo-mail] ${message}`))
  const warn = options.warn ?? ((message: string) => console.warn(`[humo-mail] ${message}`))

  const transport = createTransport({
    url: options.smtpUrl,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  })

  let closed = false
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  let again = false
  let inFlight: AbortController | null = null

  const claim = async (): Promise<Claimed | null> => {
    const { rows } = await db.query<Claimed>(
      `update private.order_emails e
          set attempts = e.attempts + 1,
              next_attempt_at = now() + make_interval(secs => $1)
        where e.id = (select q.id from private.order_emails q
                       where q.status = 'queued' and q.next_attempt_at <= now()
                       order by q.next_attempt_at, q.id
                       limit 1
                       for update skip locked)
        returning e.id::text as id, e.order_id::text as order_id, e.kind, e.attempts`,
      [LEASE_SECONDS],
    )
    return rows[0] ?? null
  }

  const finish = async (
    id: string,
    status: 'sent' | 'failed' | 'skipped',
    error: string | null,
  ) => {
    await db.query(
      `update private.order_emails
          set status = $2, last_error = $3, sent_at = case when $2 = 'sent' then now() end
        where id = $1::bigint`,
      [id, status, error],
    )
  }

  const retryLater = async (email: Claimed, error: string) => {
    const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(30, email.attempts - 1))
    await db.query(
      `update private.order_emails
          set last_error = $2, next_attempt_at = now() + make_interval(secs => $3)
        where id = $1::bigint`,
      [email.id, error, delay / 1000],
    )
  }

  const load = async (orderId: string): Promise<Loaded | null> => {
    const { rows } = await db.query<Loaded>(
      `select public.order_document(o) as doc, to_jsonb(o) as row,
              (select s.facts from public.shop_settings s where s.id = 'shop') as facts
         from public.orders o
        where o.id = $1::uuid and not o._deleted`,
      [orderId],
    )
    return rows[0] ?? null
  }

  const deliver = async (email: Claimed): Promise<void> => {
    const loaded = await load(email.order_id)
    if (!loaded) {
      await finish(email.id, 'skipped', 'The order no longer exists')
      return
    }
    const order = emailOrderFrom(loaded.doc, loaded.row)
    const stale = staleReason(email.kind, order.status)
    if (stale) {
      await finish(email.id, 'skipped', stale)
      return
    }
    const shop = emailShopFrom(loaded.facts)
    const message = orderEmail(email.kind, order, shop, publicUrl)
    const from = options.from || (shop.email ? { name: shop.name, address: shop.email } : undefined)
    const controller = new AbortController()
    inFlight = controller
    try {
      await transport.sendMail({
        from,
        to: {
          name: `${order.customer.firstName} ${order.customer.lastName}`.trim(),
          address: order.customer.email,
        },
        ...(shop.email ? { replyTo: { name: shop.name, address: shop.email } } : {}),
        subject: message.subject,
        text: message.text,
        html: message.html,
        signal: controller.signal,
      })
    } catch (caught) {
      if (closed) {
        // Stopped mid-send: due again at the next start, and this try does not count.
        await db.query(
          `update private.order_emails
              set attempts = greatest(attempts - 1, 0), next_attempt_at = now()
            where id = $1::bigint`,
          [email.id],
        )
        return
      }
      const error = caught as SendError
      const reason = `${error.code ? `${error.code}: ` : ''}${error.message}`.slice(0, 1000)
      if (recipientRefused(error) || email.attempts >= maxAttempts) {
        await finish(email.id, 'failed', reason)
        warn(`gave up the ${email.kind} email of order ${email.order_id}: ${reason}`)
      } else {
        await retryLater(email, reason)
        // Once per email: a mail server down for hours would otherwise fill the log.
        if (email.attempts === 1)
          warn(`the ${email.kind} email of order ${email.order_id} will be retried: ${reason}`)
      }
      return
    } finally {
      inFlight = null
    }
    await finish(email.id, 'sent', null)
  }

  const drain = async (): Promise<void> => {
    while (!closed) {
      const email = await claim()
      if (!email) return
      await deliver(email)
    }
  }

  /** Sleeps until the next queued email is due, or the poll interval, whichever comes first. */
  const schedule = async (): Promise<void> => {
    const { rows } = await db.query<{ ms: number | null }>(
      `select extract(epoch from (min(next_attempt_at) - now())) * 1000 as ms
         from private.order_emails where status = 'queued'`,
    )
    if (closed) return
    const due = rows[0]?.ms
    const delay =
      due === null || due === undefined ? pollMs : Math.max(0, Math.min(pollMs, Number(due)))
    if (timer) clearTimeout(timer)
    timer = setTimeout(wake, delay)
    timer.unref()
  }

  function wake(): void {
    if (closed) return
    if (running) {
      again = true
      return
    }
    running = (async () => {
      do {
        again = false
        await drain()
      } while (again && !closed)
      await schedule()
    })()
      .catch((error: unknown) => {
        if (closed) return
        console.error('[humo-mail] sending order emails failed:', error)
        // A database hiccup: look again at the next poll.
        timer = setTimeout(wake, pollMs)
        timer.unref()
      })
      .finally(() => {
        running = null
      })
  }

  const unlisten = await db.listen(ORDER_EMAILS_CHANNEL, () => wake())
  log('sending order emails')
  wake()

  let closing: Promise<void> | null = null
  return {
    close() {
      closing ??= (async () => {
        closed = true
        if (timer) clearTimeout(timer)
        await unlisten()
        const current = running
        if (current) {
          const grace = new Promise<void>((done) => {
            const t = setTimeout(() => {
              inFlight?.abort()
              done()
            }, CLOSE_GRACE_MS)
            t.unref()
            void current.finally(() => {
              clearTimeout(t)
              done()
            })
          })
          await grace
          await current
        }
        transport.close()
      })()
      return closing
    },
  }
}
