import { useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { DEVICE_KEYS, readDevice, writeDevice } from '../../../lib/device-storage'
import { serverRender } from '../../../lib/server-render'
import { SHOP } from '../../../lib/shop'
import { LeafIcon } from '../../../ui/icons'

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

/**
 * DESIGN.md §9: California law keeps the storefront to adults. Asks "Are you 21 or older?"
 * before any storefront screen and remembers a yes on this device; a no gets a polite refusal
 * (not remembered, so a mistaken tap can be undone).
 */
export function AgeGate({ children }: { children: ReactNode }) {
  const [verified, setVerified] = useState(
    () => serverRender() || readDevice(DEVICE_KEYS.ageVerified) === 'yes',
  )
  const [refused, setRefused] = useState(false)
  if (verified) return children

  if (refused)
    return (
      <main className={screen}>
        <div className={card}>
          <Mark />
          <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}>
            Sorry, not yet
          </h1>
          <p className={css({ color: 'fg.muted' })}>
            {SHOP.name} sells cannabis, which California law reserves for adults 21 and older.
            Thanks for being honest — we'd love to see you when you're of age.
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
          You must be 21 or older to browse and buy cannabis in California.
        </p>
        <div
          className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', justifyContent: 'center' })}
        >
          <button
            type="button"
            className={button({ size: 'lg' })}
            onClick={() => {
              writeDevice(DEVICE_KEYS.ageVerified, 'yes')
              setVerified(true)
            }}
          >
            Yes, I'm 21 or older
          </button>
          <button
            type="button"
            className={button({ size: 'lg', variant: 'outline' })}
            onClick={() => setRefused(true)}
          >
            No
          </button>
        </div>
        <p className={css({ fontSize: 'xs', color: 'fg.subtle' })}>
          We remember your answer on this device only.
        </p>
      </div>
    </main>
  )
}
