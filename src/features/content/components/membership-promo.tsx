import { useState, type FormEvent } from 'react'
import { css, cx } from 'styled-system/css'
import { badge, button, input } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { joinWaitlist, WAITLIST_CONSENT_TEXT, type WaitlistAnswer } from '../membership-waitlist'

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

type Outcome = WaitlistAnswer | { kind: 'busy' } | null

function outcomeText(outcome: WaitlistAnswer, email: string): string {
  if (outcome.kind === 'error') return outcome.message
  if (outcome.already) return `${email} is already on the waitlist. We'll email you when it starts.`
  return (
    `You're on the waitlist. We'll email ${email} when the membership starts.` +
    (outcome.confirmationEmail ? ' A confirmation is on its way.' : '')
  )
}

/**
 * The home page's membership promo (SPEC.md §2 variant two). The membership does not exist yet,
 * so instead of "Try the membership for free" it says so and offers a waitlist: an email and an
 * explicit consent, stored by the server with the consent's words and time (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md).
 */
export function MembershipPromo({ sectionTitle }: { sectionTitle: string }) {
  const { facts } = useShopSettings()
  const data = useHumoData()
  const [email, setEmail] = useState('')
  const [consent, setConsent] = useState(false)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const [sentTo, setSentTo] = useState('')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const wanted = email.trim()
    if (!EMAIL.test(wanted)) {
      setOutcome({ kind: 'error', message: 'Enter a valid email address.' })
      return
    }
    if (!consent) {
      setOutcome({ kind: 'error', message: 'Tick the box to agree before joining the waitlist.' })
      return
    }
    setOutcome({ kind: 'busy' })
    const rpc = data.live
      ? await data.live().then(
          (live) => live.rpc,
          () => null,
        )
      : null
    const answer: WaitlistAnswer = rpc
      ? await joinWaitlist(rpc, wanted)
      : { kind: 'error', message: 'Joining the waitlist needs a connection. Try again.' }
    setSentTo(wanted.toLowerCase())
    setOutcome(answer)
    if (answer.kind === 'joined') {
      setEmail('')
      setConsent(false)
    }
  }

  return (
    <section
      aria-labelledby="membership-title"
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', md: '1.2fr 1fr' },
        gap: '6',
        alignItems: 'center',
        bg: 'bg.inverse',
        color: 'fg.onInverse',
        borderRadius: 'lg',
        px: { base: '6', md: '12' },
        py: { base: '8', md: '12' },
      })}
    >
      <div>
        <span className={badge({ tone: 'dealSolid' })}>{facts.name}+ membership: waitlist</span>
        <h2 id="membership-title" className={cx(sectionTitle, css({ mt: '3' }))}>
          A membership for regulars is on its way
        </h2>
        <p className={css({ color: 'fg.onInverseMuted', mt: '2' })}>
          We&apos;re planning a membership with delivery perks, member-only drops and early access
          to Rollbacks. It hasn&apos;t started yet: join the waitlist and we&apos;ll email you when
          it does. Joining costs nothing and signs you up for nothing else.
        </p>
      </div>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className={css({ display: 'grid', gap: '3' })}
      >
        <label className={css({ srOnly: true })} htmlFor="membership-email">
          Email address
        </label>
        <input
          id="membership-email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className={input({ size: 'lg' })}
        />
        {/* The browser's own checkbox: the styled one would join the menu's chunk to this page's. */}
        <label
          className={css({
            display: 'flex',
            gap: '3',
            alignItems: 'flex-start',
            fontSize: 'sm',
            color: 'fg.onInverse',
            cursor: 'pointer',
          })}
        >
          <input
            type="checkbox"
            checked={consent}
            onChange={(event) => setConsent(event.target.checked)}
            className={css({ w: '6', h: '6', flexShrink: '0', accentColor: 'accent.solid' })}
          />
          <span>{WAITLIST_CONSENT_TEXT}</span>
        </label>
        <button
          type="submit"
          disabled={outcome?.kind === 'busy'}
          className={button({ variant: 'deal', size: 'lg' })}
        >
          Join the waitlist
        </button>
        <p
          role="status"
          className={css({
            fontSize: 'sm',
            fontWeight: 'semibold',
            color: 'fg.onInverse',
            minH: '5',
          })}
        >
          {outcome && outcome.kind !== 'busy' && outcomeText(outcome, sentTo || email.trim())}
        </p>
      </form>
    </section>
  )
}
