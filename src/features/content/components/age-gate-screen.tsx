/**
 * The age gate's screen (./age-gate.tsx decides whether it shows): "Are you 21 or older?", a
 * second way in for medical patients 18 and older with a physician's recommendation (decision
 * 051), and a polite refusal for anyone else.
 */
import { useState } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { CustomerKind } from '../../../lib/compliance-rules'
import { SHOP } from '../../../lib/shop'
import { LeafIcon } from '../../../ui/icons'
import { rememberGateAnswer } from '../../../lib/visitor-kind'

const screen = css({
  minH: '100dvh',
  display: 'grid',
  placeItems: 'center',
  px: '6',
  py: '10',
  bg: 'bg.inverse',
  color: 'fg.onInverse',
  textAlign: 'center',
})
const card = css({
  maxW: 'md',
  w: 'full',
  bg: 'bg.surface',
  color: 'fg.default',
  borderRadius: 'lg',
  boxShadow: 'raised',
  p: { base: '7', md: '10' },
  display: 'grid',
  gap: '5',
  justifyItems: 'center',
})

function Mark() {
  return (
    <span
      className={css({
        display: 'grid',
        placeItems: 'center',
        w: '14',
        h: '14',
        borderRadius: 'full',
        bg: 'accent.solid',
        color: 'fg.onAccent',
      })}
    >
      <LeafIcon size={30} />
    </span>
  )
}

export default function AgeGateScreen({ onEnter }: { onEnter: () => void }) {
  const [refused, setRefused] = useState(false)
  const enter = (kind: CustomerKind) => {
    rememberGateAnswer(kind)
    onEnter()
  }

  if (refused)
    return (
      <main className={screen}>
        <div className={card}>
          <Mark />
          <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}>
            Sorry, not yet
          </h1>
          <p className={css({ color: 'fg.muted' })}>
            {SHOP.name} sells cannabis, which California law reserves for adults 21 and older, and
            for medical patients 18 and older with a physician&apos;s recommendation. Thanks for
            being honest — we&apos;d love to see you when you&apos;re of age.
          </p>
          <button
            type="button"
            className={button({ variant: 'outline' })}
            onClick={() => setRefused(false)}
          >
            I answered by mistake
          </button>
        </div>
      </main>
    )

  return (
    <main className={screen}>
      <div className={card} role="dialog" aria-modal="true" aria-labelledby="age-gate-title">
        <Mark />
        <p
          className={css({
            fontSize: 'sm',
            fontWeight: 'semibold',
            color: 'accent.fg',
            letterSpacing: 'wider',
            textTransform: 'uppercase',
          })}
        >
          {SHOP.name} · {SHOP.slogan}
        </p>
        <h1
          id="age-gate-title"
          className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}
        >
          Are you 21 or older?
        </h1>
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
          You must be 21 or older to browse and buy cannabis in California, or 18 or older as a
          medical patient with a physician&apos;s recommendation.
        </p>
        <div
          className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', justifyContent: 'center' })}
        >
          <button type="button" className={button({ size: 'lg' })} onClick={() => enter('adult')}>
            I&apos;m 21 or older
          </button>
          <button
            type="button"
            className={button({ size: 'lg', variant: 'outline' })}
            onClick={() => setRefused(true)}
          >
            No
          </button>
        </div>
        <div
          className={css({
            display: 'grid',
            gap: '2',
            justifyItems: 'center',
            borderTopWidth: '1px',
            borderColor: 'border.default',
            pt: '4',
            w: 'full',
          })}
        >
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            A medical patient 18 or older? Staff check your physician&apos;s recommendation or MMIC
            with your photo ID when you get your order.
          </p>
          <button
            type="button"
            // The longest answer: it wraps on a phone rather than overflow the card.
            className={cx(
              button({ variant: 'outline' }),
              css({ whiteSpace: 'normal', h: 'auto', minH: '11', py: '2', maxW: 'full' }),
            )}
            onClick={() => enter('medical')}
          >
            I&apos;m 18 or older with a physician&apos;s recommendation (medical patient)
          </button>
        </div>
        <p className={css({ fontSize: 'xs', color: 'fg.subtle' })}>
          We remember your answer on this device only.
        </p>
      </div>
    </main>
  )
}
