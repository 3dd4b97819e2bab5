// The membership waitlist's confirmation email (issue 33, docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): drains
// private.waitlist_emails, which join_membership_waitlist fills in the transaction of the join
// (only when the shop sends email), the way order-mailer.ts drains the order emails: woken by the
// queue's NOTIFY and by a poll, each row leased before its send and marked after, a failed send
// retried with a capped back-off, given up after many attempts. One email per person, ever.
import type { PGlite } from '@electric-sql/pglite'
import { createTransport } from 'nodemailer'
import { emailShopFrom } from './order-mailer.ts'

export const WAITLIST_EMAILS_CHANNEL = 'humo_waitlist_emails'

export interface WaitlistMailerOptions {
  db: PGlite
  smtpUrl: string
  from?: string | null
  retryBaseMs?: number
  retryMaxMs?: number
  pollMs?: number
  maxAttempts?: number
  warn?: (message: string) => void
}

type Claimed = { id: string; email: string; consent_text: string; attempts: number }

const LEASE_SECONDS = 300

/** The confirmation's words: what the person joined, that it has not started, what they agreed. */
export function waitlistEmail(shopName: string, consentText: string) {
  const subject = `You're on the ${shopName}+ membership waitlist`
  const text = [
    `Thanks for joining the waitlist for the ${shopName}+ membership.`,
    '',
    "The membership has not started yet. We'll write to you once when it does; until then there " +
      'is nothing to pay and nothing else to do.',
    '',
    `What you agreed to: "${consentText}"`,
    '',
    'To be taken off the waitlist, reply to this email.',
  ].join('\n')
  return { subject, text }
}

export async function startWaitlistMailer(
  options: WaitlistMailerOptions,
): Promise<{ close(): Promise<void> }> {
  const { db } = options
  const retryBaseMs = options.retryBaseMs ?? 30_000
  const retryMaxMs = options.retryMaxMs ?? 15 * 60_000
  const pollMs = options.pollMs ?? 60_000
  const maxAttempts = options.maxAttempts ?? 200
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

  const claim = async (): Promise<Claimed | null> => {
    const { rows } = await db.query<Claimed>(
      `update private.waitlist_emails e
          set attempts = e.attempts + 1, next_attempt_at = now() + make_interval(secs => $1)
         from private.membership_waitlist w
        where w.id = e.waitlist_id
          and e.id = (select q.id from private.waitlist_emails q
                       where q.status = 'queued' and q.next_attempt_at <= now()
                       order by q.next_attempt_at, q.id limit 1 for update skip locked)
        returning e.id::text as id, w.email, w.consent_text, e.attempts`,
      [LEASE_SECONDS],
    )
    return rows[0] ?? null
  }

  const deliver = async (row: Claimed): Promise<void> => {
    const { rows } = await db.query<{ facts: Record<string, unknown> | null }>(
      `select s.facts from public.shop_settings s where s.id = 'shop'`,
    )
    const shop = emailShopFrom(rows[0]?.facts ?? null)
    const message = waitlistEmail(shop.name, row.consent_text)
    try {
      await transport.sendMail({
        from: options.from || (shop.email ? { name: shop.name, address: shop.email } : undefined),
        to: row.email,
        ...(shop.email ? { replyTo: { name: shop.name, address: shop.email } } : {}),
        subject: message.subject,
        text: message.text,
      })
    } catch (caught) {
      const reason = (caught as Error).message.slice(0, 1000)
      const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(30, row.attempts - 1))
      const giveUp = row.attempts >= maxAttempts
      await db.query(
        `update private.waitlist_emails
            set last_error = $2, status = case when $3 then 'failed' else status end,
                next_attempt_at = now() + make_interval(secs => $4)
          where id = $1::bigint`,
        [row.id, reason, giveUp, delay / 1000],
      )
      if (row.attempts === 1 || giveUp) warn(`a waitlist confirmation email failed: ${reason}`)
      return
    }
    await db.query(
      `update private.waitlist_emails set status = 'sent', sent_at = now(), last_error = null
        where id = $1::bigint`,
      [row.id],
    )
  }

  const drain = async () => {
    for (let row = await claim(); row && !closed; row = closed ? null : await claim())
      await deliver(row)
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
    })()
      .catch((error: unknown) => {
        if (!closed) console.error('[humo-mail] sending waitlist emails failed:', error)
      })
      .finally(() => {
        running = null
        if (closed) return
        if (timer) clearTimeout(timer)
        // A retry that is due, or an email whose NOTIFY was missed, is picked up here.
        timer = setTimeout(wake, Math.min(pollMs, retryBaseMs))
        timer.unref()
      })
  }

  const unlisten = await db.listen(WAITLIST_EMAILS_CHANNEL, () => wake())
  wake()
  return {
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      await unlisten()
      await running
      transport.close()
    },
  }
}
