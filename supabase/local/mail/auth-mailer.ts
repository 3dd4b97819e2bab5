// The auth emails of the embedded GoTrue stand-in (issue 23, docs/decisions/024-proven-addresses.md): the link that
// proves an address after sign-up or an email change, and the password-reset link. Sent through the same SMTP settings as the order emails
// (HUMO_SMTP_URL, nodemailer), but not queued: a link is worth minutes, its secret is never
// stored (only its hash), and the person can ask for another one ("resend"). Sends run in the
// background, so an answer takes as long whether or not an email went out (no existence oracle).
import { createTransport } from 'nodemailer'
import type { PGlite } from '@electric-sql/pglite'
import { checkSmtpUrl } from './order-mailer.ts'

export type AuthEmailKind = 'signup' | 'email_change' | 'recovery'

export interface AuthEmail {
  kind: AuthEmailKind
  to: string
  /** The link to follow: /auth/v1/verify with the one-time token. */
  link: string
}

export interface AuthMailer {
  /** The shop's public address: links and allowed redirects are built from it, never from Host. */
  readonly siteUrl: string
  /** Sends in the background; a failure is reported through `warn`, never to the requester. */
  send(email: AuthEmail): void
  close(): void
}

export interface AuthMailerOptions {
  db: PGlite
  smtpUrl: string
  /** The From header; default the shop's name and email (Admin Settings), else no-reply@<site>. */
  from?: string | null
  /** The shop's public address (HUMO_PUBLIC_URL), or a function giving it once it is known. */
  siteUrl: string | (() => string)
  warn?: (message: string) => void
}

const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/** Subject and body of each email; `shop` is the shop's name. */
export function authEmailText(
  email: AuthEmail,
  shop: string,
): { subject: string; text: string; html: string } {
  const lines: Record<AuthEmailKind, { subject: string; intro: string; action: string }> = {
    signup: {
      subject: `Confirm your email for ${shop}`,
      intro: `Someone (hopefully you) created an account at ${shop} with this address. Follow the link to confirm it. If it was not you, ignore this email: the account stays unconfirmed.`,
      action: 'Confirm your email',
    },
    email_change: {
      subject: `Confirm your new email for ${shop}`,
      intro: `Someone asked to move an account at ${shop} to this address. Follow the link to confirm the change. If it was not you, ignore this email: nothing changes.`,
      action: 'Confirm the new address',
    },
    recovery: {
      subject: `Reset your password for ${shop}`,
      intro: `Someone asked to reset the password of your account at ${shop}. Follow the link to sign in, then choose a new password. If it was not you, ignore this email.`,
      action: 'Reset your password',
    },
  }
  const { subject, intro, action } = lines[email.kind]
  const text = `${intro}\n\n${action}: ${email.link}\n`
  const html = `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(email.link)}">${escapeHtml(action)}</a></p>`
  return { subject, text, html }
}

export function createAuthMailer(options: AuthMailerOptions): AuthMailer {
  checkSmtpUrl(options.smtpUrl)
  const warn = options.warn ?? ((message: string) => console.warn(`[humo-mail] ${message}`))
  const transport = createTransport({
    url: options.smtpUrl,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  })
  const siteUrl = (): string =>
    (typeof options.siteUrl === 'function' ? options.siteUrl() : options.siteUrl).replace(
      /\/+$/,
      '',
    )

  const shopFacts = async (): Promise<{ name: string; email: string }> => {
    const { rows } = await options.db.query<{ name: string | null; email: string | null }>(
      `select s.facts->>'name' as name, s.facts->>'email' as email
         from public.shop_settings s where s.id = 'shop'`,
    )
    return { name: rows[0]?.name || 'Humo', email: rows[0]?.email || '' }
  }

  const deliver = async (email: AuthEmail): Promise<void> => {
    const shop = await shopFacts().catch(() => ({ name: 'Humo', email: '' }))
    const message = authEmailText(email, shop.name)
    const from =
      options.from ||
      (shop.email
        ? { name: shop.name, address: shop.email }
        : { name: shop.name, address: `no-reply@${new URL(siteUrl()).hostname}` })
    await transport.sendMail({ from, to: email.to, ...message })
  }

  return {
    get siteUrl() {
      return siteUrl()
    },
    send(email) {
      deliver(email).catch((error: unknown) => {
        // The address is personal data: the log names the kind of email only.
        warn(`could not send a ${email.kind} email: ${(error as Error).message}`)
      })
    },
    close() {
      transport.close()
    },
  }
}
