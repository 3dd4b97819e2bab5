import { css } from 'styled-system/css'
import { useHumoData } from '../../../data/data-context'
import { useObservable } from '../../../data/hooks/use-observable'

const time = (iso: string | null) =>
  iso ? new Date(iso).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' }) : null

const orders = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`

/**
 * Says plainly when the shop is offline and what is waiting to be sent; silent when all is well.
 * Offline, everything on the device keeps working: browsing, the cart and placing orders.
 */
export function SyncBanner() {
  const { sync$ } = useHumoData()
  const sync = useObservable(sync$, sync$.value)
  // The live region stays mounted while all is well (empty), so going offline is read out: a
  // region that appears with its words already in it is often not.
  if (sync.online && sync.pendingOrders === 0) return <div role="status" />
  const synced = time(sync.lastSyncedAt)
  const message = sync.online
    ? `Sending ${orders(sync.pendingOrders)} to the shop…`
    : [
        "You're offline. You can keep browsing and shopping; orders are sent when you're back online.",
        sync.pendingOrders > 0 ? `${orders(sync.pendingOrders)} waiting to send.` : null,
        synced ? `Menu last updated at ${synced}.` : null,
      ]
        .filter(Boolean)
        .join(' ')
  return (
    <div role="status">
      <div
        className={css({
          bg: sync.online ? 'accent.subtle' : 'deal.subtle',
          color: 'fg.default',
          fontSize: 'sm',
          textAlign: 'center',
          px: '4',
          py: '2',
        })}
      >
        {message}
      </div>
    </div>
  )
}
