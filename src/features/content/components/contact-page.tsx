import { useState, type FormEvent, type ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { button, input } from 'styled-system/recipes'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { mailtoUri, telUri, type ShopConfig } from '../../../lib/shop'
import { hoursLines } from '../../../lib/pickup-windows'
import { Checkbox } from '../../../ui/checkbox'
import { ClockIcon, MailIcon, MessageIcon, PhoneIcon, PinIcon } from '../../../ui/icons'
import { useRateLimitedContactText } from '../hooks/use-queued-contact-message'
import { OpenStatusText } from './open-status'
import { TextUpdatesDialog } from './text-updates-dialog'

/** What the "Send us a Message" form hands to its `onSubmit` (SPEC.md §2 fields). */
export type ContactMessage = {
  firstName: string
  lastName: string
  email: string
  phone: string
  subject: string
  message: string
  newsletter: boolean
}

const EMPTY: ContactMessage = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  subject: '',
  message: '',
  newsletter: false,
}

const card = css({
  bg: 'bg.surface',
  borderRadius: 'lg',
  boxShadow: 'card',
  p: '5',
  display: 'flex',
  gap: '4',
  alignItems: 'flex-start',
})
const cardIcon = css({
  display: 'grid',
  placeItems: 'center',
  w: '11',
  h: '11',
  borderRadius: 'full',
  bg: 'accent.subtle',
  color: 'accent.fg',
  flexShrink: 0,
})
const label = css({ display: 'grid', gap: '1.5', fontSize: 'sm', fontWeight: 'semibold' })

function InfoCard({
  icon,
  title,
  children,
}: {
  icon: ReactNode
  title: string
  children: ReactNode
}) {
  return (
    <li className={card}>
      <span className={cardIcon}>{icon}</span>
      <div className={css({ fontSize: 'sm', color: 'fg.muted', display: 'grid', gap: '0.5' })}>
        <h3 className={css({ fontWeight: 'bold', fontSize: 'md', color: 'fg.default' })}>
          {title}
        </h3>
        {children}
      </div>
    </li>
  )
}

const faqFor = (shop: ShopConfig) => [
  {
    q: 'How do I place an order?',
    a: 'Browse the menu, add what you like to your cart and check out for pickup or delivery; you pay when you collect it. Or call us to order by phone — any time, day or night.',
  },
  {
    q: 'Where do you deliver?',
    a: `We deliver across ${shop.deliveryArea}. Not sure if you're covered? Contact us and we'll check your address.`,
  },
  {
    q: 'Are your products lab tested?',
    a: 'Yes. All products are lab-tested by independent third-party labs for potency and safety. Results are available on request.',
  },
  {
    q: 'What payment methods do you accept?',
    a: 'Cash or debit card, paid at pickup or on delivery. Nothing is charged online.',
  },
]

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed' }

/** /contact (SPEC.md §2 "Contact Us"): the shop's details, the message form and the FAQ. */
export function ContactPage({
  onSubmit,
}: {
  /** Queues the message; the id it returns lets the form say when a rate limit holds it back. */
  onSubmit: (message: ContactMessage) => Promise<string | void> | string | void
}) {
  const { facts: shop, hours } = useShopSettings()
  const [form, setForm] = useState<ContactMessage>(EMPTY)
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const [queuedId, setQueuedId] = useState<string | null>(null)
  const limited = useRateLimitedContactText(queuedId)
  const [textOpen, setTextOpen] = useState(false)
  const set = (field: keyof ContactMessage) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setStatus({ kind: 'sending' })
    try {
      const id = await onSubmit(form)
      setQueuedId(typeof id === 'string' ? id : null)
      setForm(EMPTY)
      setStatus({ kind: 'sent' })
    } catch (error) {
      console.error('contact message failed', error)
      setStatus({ kind: 'failed' })
    }
  }

  return (
    <main className={css({ display: 'grid', gap: '12' })}>
      <section
        className={css({
          textAlign: 'center',
          bg: 'bg.inverse',
          color: 'fg.onInverse',
          borderRadius: 'lg',
          px: '6',
          py: { base: '10', md: '14' },
        })}
      >
        <h1
          className={css({
            fontFamily: 'heading',
            fontSize: { base: '4xl', md: '5xl' },
            fontWeight: 'bold',
          })}
        >
          Contact Us
        </h1>
        <p className={css({ color: 'fg.onInverseMuted', mt: '2', maxW: 'xl', mx: 'auto' })}>
          Questions about an order, a product or wholesale? We're here around the clock for orders,
          and by message any time.
        </p>
      </section>

      <section aria-labelledby="touch-title">
        <h2
          id="touch-title"
          className={css({ fontFamily: 'heading', fontSize: '2xl', fontWeight: 'bold', mb: '4' })}
        >
          Get in Touch
        </h2>
        <ul
          className={css({
            display: 'grid',
            gap: '4',
            gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
          })}
        >
          <InfoCard icon={<PinIcon />} title="Visit our store">
            <span>{shop.address.street}</span>
            <span>
              {shop.address.city}, {shop.address.state} {shop.address.zip}
            </span>
            <span>{shop.address.country}</span>
          </InfoCard>
          <InfoCard icon={<PhoneIcon />} title="Call us">
            <a href={telUri(shop)} className={css({ color: 'accent.fg', fontWeight: 'semibold' })}>
              {shop.phone.display}
            </a>
            <span>
              <OpenStatusText phone />
            </span>
          </InfoCard>
          <InfoCard icon={<MailIcon />} title="Email us">
            <a
              href={mailtoUri(shop)}
              className={css({ color: 'accent.fg', fontWeight: 'semibold' })}
            >
              {shop.email}
            </a>
            <span>We'll respond within 24 hours</span>
          </InfoCard>
          <InfoCard icon={<ClockIcon />} title="Business hours">
            <OpenStatusText
              className={css({ minH: '1lh', fontWeight: 'semibold', color: 'accent.fg' })}
            />
            {/* From the same hours as the pickup windows, so the two always agree. */}
            {hoursLines(hours).map((h) => (
              <span key={h.days}>
                <strong className={css({ color: 'fg.default' })}>{h.days}:</strong> {h.hours}
              </span>
            ))}
          </InfoCard>
          <InfoCard icon={<MessageIcon />} title="Text Updates">
            <span>Drops, restocks and deals by text.</span>
            <button
              type="button"
              onClick={() => setTextOpen(true)}
              className={cx(
                button({ size: 'sm', variant: 'outline' }),
                css({ mt: '2', justifySelf: 'start' }),
              )}
            >
              Sign Up for Texts
            </button>
          </InfoCard>
        </ul>
      </section>

      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', lg: '3fr 2fr' },
          gap: '8',
          alignItems: 'start',
        })}
      >
        <section
          aria-labelledby="message-title"
          className={css({
            bg: 'bg.surface',
            borderRadius: 'lg',
            boxShadow: 'card',
            p: { base: '5', md: '8' },
          })}
        >
          <h2
            id="message-title"
            className={css({ fontFamily: 'heading', fontSize: '2xl', fontWeight: 'bold', mb: '5' })}
          >
            Send us a Message
          </h2>
          <form
            onSubmit={(event) => void submit(event)}
            className={css({
              display: 'grid',
              gap: '4',
              gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
            })}
          >
            <label className={label}>
              First Name
              <input
                required
                name="firstName"
                autoComplete="given-name"
                value={form.firstName}
                onChange={set('firstName')}
                className={input()}
              />
            </label>
            <label className={label}>
              Last Name
              <input
                required
                name="lastName"
                autoComplete="family-name"
                value={form.lastName}
                onChange={set('lastName')}
                className={input()}
              />
            </label>
            <label className={label}>
              Email Address
              <input
                required
                type="email"
                name="email"
                autoComplete="email"
                value={form.email}
                onChange={set('email')}
                className={input()}
              />
            </label>
            <label className={label}>
              Phone Number (optional)
              <input
                type="tel"
                name="phone"
                autoComplete="tel"
                value={form.phone}
                onChange={set('phone')}
                className={input()}
              />
            </label>
            <label className={cx(label, css({ gridColumn: '1 / -1' }))}>
              Subject
              <input
                required
                name="subject"
                value={form.subject}
                onChange={set('subject')}
                className={input()}
              />
            </label>
            <label className={cx(label, css({ gridColumn: '1 / -1' }))}>
              Message
              <textarea
                required
                name="message"
                rows={6}
                value={form.message}
                onChange={set('message')}
                className={input({ size: 'area' })}
              />
            </label>
            <div className={css({ gridColumn: '1 / -1' })}>
              <Checkbox
                name="newsletter"
                label="I'd like to receive updates about new products and promotions"
                checked={form.newsletter}
                onCheckedChange={(newsletter) => setForm((f) => ({ ...f, newsletter }))}
              />
            </div>
            <div
              className={css({
                gridColumn: '1 / -1',
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                gap: '4',
              })}
            >
              <button
                type="submit"
                disabled={status.kind === 'sending'}
                className={button({ size: 'lg' })}
              >
                {status.kind === 'sending' ? 'Sending…' : 'Send Message'}
              </button>
              {status.kind === 'sent' && !limited && (
                <p
                  role="status"
                  className={css({ color: 'accent.fg', fontWeight: 'semibold', fontSize: 'sm' })}
                >
                  Thanks! We'll respond within 24 hours.
                </p>
              )}
              {status.kind === 'sent' && limited && (
                <p
                  role="status"
                  className={css({ color: 'deal.fg', fontWeight: 'semibold', fontSize: 'sm' })}
                >
                  {limited}
                </p>
              )}
              {status.kind === 'failed' && (
                <p
                  role="alert"
                  className={css({ color: 'danger.fg', fontWeight: 'semibold', fontSize: 'sm' })}
                >
                  We couldn't send your message. Please try again, or call us at{' '}
                  {shop.phone.display}.
                </p>
              )}
            </div>
          </form>
        </section>

        <section id="faq" aria-labelledby="faq-title">
          <h2
            id="faq-title"
            className={css({ fontFamily: 'heading', fontSize: '2xl', fontWeight: 'bold', mb: '4' })}
          >
            Frequently Asked Questions
          </h2>
          <div className={css({ display: 'grid', gap: '3' })}>
            {faqFor(shop).map((item) => (
              <details
                key={item.q}
                className={css({
                  bg: 'bg.surface',
                  borderRadius: 'md',
                  boxShadow: 'card',
                  px: '5',
                  py: '4',
                  '& summary': { cursor: 'pointer', fontWeight: 'semibold', listStyle: 'none' },
                  '& summary::-webkit-details-marker': { display: 'none' },
                  '& summary::after': {
                    content: '"+"',
                    float: 'right',
                    color: 'accent.fg',
                    fontWeight: 'bold',
                  },
                  '&[open] summary::after': { content: '"−"' },
                })}
              >
                <summary>{item.q}</summary>
                <p className={css({ mt: '2', color: 'fg.muted', fontSize: 'sm' })}>{item.a}</p>
              </details>
            ))}
          </div>
        </section>
      </div>
      <TextUpdatesDialog open={textOpen} onOpenChange={setTextOpen} />
    </main>
  )
}
