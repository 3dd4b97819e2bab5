import { useEffect, useState } from 'react'
import { useHumoData } from '../../../data/data-context'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { importWhenReachable } from '../../../lib/import-when-reachable'
import type { OpenStatus } from '../../../lib/open-status'
import { whenSettled } from '../../../lib/when-settled'

const loadOpenStatus = importWhenReachable(() => import('../../../lib/open-status'))

/**
 * "Open now · closes 8:00 PM" / "Closed · opens 10:00 AM", in the shop's time zone, refreshed
 * every minute; with `phone`, when the phone takes orders ("Order by phone until 6:00 PM", from
 * the shop's hours, docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md). Worked out only once the page has settled: the server's copies
 * of pages are cached and would carry a stale "Open now", and no first visit waits on this code;
 * the span keeps the line's place until then.
 */
export function OpenStatusText({ className, phone }: { className?: string; phone?: boolean }) {
  const { firstSync } = useHumoData()
  const { hours } = useShopSettings()
  const [status, setStatus] = useState<OpenStatus | null>(null)
  useEffect(() => {
    let timer: number | undefined
    let stopped = false
    void whenSettled(firstSync)
      .then(loadOpenStatus)
      .then(({ openStatus }) => {
        // On the minute, so "closes" turns into "Closed" when the shop closes, not 59 s late.
        const update = () => {
          if (stopped) return
          const now = new Date()
          setStatus(openStatus(hours, now))
          timer = window.setTimeout(update, 60_000 - (now.getTime() % 60_000) + 50)
        }
        update()
      })
    return () => {
      stopped = true
      window.clearTimeout(timer)
    }
  }, [firstSync, hours])
  if (phone) return <span className={className}>{status?.phone ?? 'Order by phone'}</span>
  return (
    <span className={className} data-open={status ? String(status.open) : undefined}>
      {status?.text}
    </span>
  )
}
