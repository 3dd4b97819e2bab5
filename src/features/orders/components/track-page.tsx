import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'
import type { ShopperOrder } from '../../../data/outbox/order-outbox'
import { formatKnownAt, fromShopperOrder } from '../order-view-model'
import { OrderNotice, OrderView } from './order-view'

const OFFLINE = 'Tracking an order needs a connection. Connect to the internet and try again.'

const field = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
  fontSize: 'sm',
  fontWeight: 'medium',
})
const input = css({
  h: '11',
  px: '3',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  fontSize: 'md',
  fontWeight: 'normal',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg' },
})

/**
 * Track Order from any device (/track): the order number and the email or phone it was placed
 * with; the server does the lookup (track_order), answers the same whichever part is wrong and
 * limits attempts. A match shows the order's page, kept live through its topic. The pair stays
 * in this component's memory only: never in the address, never on the device.
 */
export function TrackPage({ initialNumber }: { initialNumber?: string }) {
  const data = useHumoData()
  const sync = useObservable(data.sync$, data.sync$.value)
  const [number, setNumber] = useState(initialNumber ?? '')
  const [contact, setContact] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const [order, setOrder] = useState<ShopperOrder | null>(null)
  const [checkedAt, setCheckedAt] = useState<string | null>(null)
  // The pair the shown order was found with, to read it again while it is live.
  const pair = useRef<{ number: string; contact: string } | null>(null)

  const lookUp = async (wanted: { number: string; contact: string }, quiet: boolean) => {
    if (!data.live || !navigator.onLine) {
      if (!quiet) setMessage(OFFLINE)
      return
    }
    const { modules, rpc } = await data.live()
    const answer = await modules.trackOrder(rpc, wanted.number, wanted.contact)
    if (answer.kind === 'found') {
      pair.current = wanted
      setOrder(answer.order)
      setCheckedAt(new Date().toISOString())
      setMessage(null)
    } else if (!quiet) {
      // A re-read that fails leaves the order shown; a new lookup says why it failed.
      pair.current = null
      setOrder(null)
      setMessage(answer.message)
    }
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setMessage(null)
    try {
      await lookUp({ number: number.trim().replace(/^#/, ''), contact: contact.trim() }, false)
    } finally {
      setBusy(false)
    }
  }

  const channel = order?.channel ?? null
  const orderId = order?.id ?? null
  useEffect(() => {
    if (!channel || !orderId || !data.live) return
    let leave: (() => void) | undefined
    let cancelled = false
    let joins = 0
    const reread = () => {
      if (pair.current) void lookUp(pair.current, true)
    }
    void data.live().then(({ modules, channels }) => {
      if (cancelled) return
      leave = modules.watchOrderTopic(
        channels,
        channel,
        (event) => {
          if (event.id !== orderId) return
          // Shown at once; the re-read then brings the whole order as the server has it.
          setOrder((current) =>
            current && current.id === event.id
              ? {
                  ...current,
                  status: event.status as ShopperOrder['status'],
                  statusHistory: Array.isArray(event.statusHistory)
                    ? (event.statusHistory as ShopperOrder['statusHistory'])
                    : current.statusHistory,
                }
              : current,
          )
          setCheckedAt(new Date().toISOString())
          reread()
        },
        () => {
          // The first join follows the lookup; a rejoin may have missed changes.
          if (joins++ > 0) reread()
        },
      )
    })
    window.addEventListener('online', reread)
    return () => {
      cancelled = true
      leave?.()
      window.removeEventListener('online', reread)
    }
    // lookUp reads only refs and stable setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [channel, orderId, data])

  return (
    <main
      className={css({
        maxW: '4xl',
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: '6',
      })}
    >
      {!order && (
        <h1 className={css({ fontFamily: 'heading', fontSize: '3xl', fontWeight: 'bold' })}>
          Track Order
        </h1>
      )}
      <form
        onSubmit={(e) => void submit(e)}
        aria-label="Track Order"
        className={css({
          bg: 'bg.surface',
          borderRadius: 'lg',
          boxShadow: 'card',
          p: '5',
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', md: '1fr 1fr auto' },
          alignItems: 'end',
        })}
      >
        <label className={field}>
          Order number
          <input
            className={input}
            name="number"
            required
            autoComplete="off"
            placeholder="e.g. 1A2B3C4D"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
          />
        </label>
        <label className={field}>
          Email or phone
          <input
            className={input}
            name="contact"
            required
            autoComplete="email"
            value={contact}
            onChange={(e) => setContact(e.target.value)}
          />
        </label>
        <button type="submit" className={button({ size: 'lg' })} disabled={busy}>
          {busy ? 'Tracking…' : 'Track'}
        </button>
      </form>
      {!sync.online && !order && (
        <p role="status" className={css({ bg: 'deal.subtle', p: '3', borderRadius: 'md' })}>
          {OFFLINE}
        </p>
      )}
      {message && (
        <p
          role="alert"
          className={css({ bg: 'danger.subtle', color: 'danger.fg', p: '4', borderRadius: 'md' })}
        >
          {message}
        </p>
      )}
      {order && (
        <OrderView
          order={fromShopperOrder(order)}
          notice={
            <OrderNotice tone={sync.online ? 'info' : 'warning'}>
              {sync.online ? '' : "You're offline. Showing the last known status. "}
              {checkedAt ? `Last updated ${formatKnownAt(checkedAt)}.` : ''}
            </OrderNotice>
          }
        />
      )}
    </main>
  )
}
